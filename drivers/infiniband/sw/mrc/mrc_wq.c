// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The data path's workqueue (mrc_wq.h).
 */
#include <linux/workqueue.h>

#include "mrc_wq.h"

struct workqueue_struct *mrc_wq;

int mrc_wq_init(void)
{
	mrc_wq = alloc_workqueue("mrc", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return mrc_wq ? 0 : -ENOMEM;
}

void mrc_wq_exit(void)
{
	destroy_workqueue(mrc_wq);
}
