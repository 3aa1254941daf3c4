/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The data path's workqueue: the tasks (mrc_task.h) of every QP, the
 * requester, the responder's READ sending and the UD sender, run on it.
 * Module init creates it before any device exists, module exit destroys it
 * after the last QP is gone.
 */
#ifndef MRC_WQ_H
#define MRC_WQ_H

#include <linux/workqueue.h>

/* WQ_MEM_RECLAIM: storage ULPs use RDMA. */
extern struct workqueue_struct *mrc_wq;

int mrc_wq_init(void);
void mrc_wq_exit(void);

#endif /* MRC_WQ_H */
