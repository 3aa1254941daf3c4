// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* vm_flags_set()/vm_flags_clear(): vma->vm_flags became read-only (6.3). */
#include <linux/mm.h>

void mrc_probe(struct vm_area_struct *vma);
void mrc_probe(struct vm_area_struct *vma)
{
	vm_flags_clear(vma, VM_MAYEXEC);
}
