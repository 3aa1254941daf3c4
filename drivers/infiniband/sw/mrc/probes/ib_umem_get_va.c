// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ib_umem_get_va() replaced ib_umem_get() (7.x). */
#include <rdma/ib_umem.h>

struct ib_umem *mrc_probe(struct ib_device *dev, unsigned long addr);
struct ib_umem *mrc_probe(struct ib_device *dev, unsigned long addr)
{
	return ib_umem_get_va(dev, addr, PAGE_SIZE, 0);
}
