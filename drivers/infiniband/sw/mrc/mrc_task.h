/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A QP engine's runner (the requester, the responder's READ sending, the
 * UD sender): a handler that one context at a time runs, either in the
 * caller's context (mrc_task_run()) or as a work item on mrc_wq
 * (mrc_task_kick()), and that runs again when kicked while it runs.
 * Documentation/architecture.rst, "Task engine".
 *
 * States (task->state, under task->lock; core/mrc_task_state.h decides):
 *   IDLE   nobody runs the handler;
 *   BUSY   one context runs it;
 *   ARMED  one context runs it and was kicked meanwhile: it runs another
 *          pass before it goes idle, so the kick is not lost.
 * A kick of an idle task queues the work; a kick of a running one arms it.
 * Whoever finds the task running leaves (no second runner), so passes are
 * serialised and packets a handler builds leave in the order built.
 *
 * One run is bounded: it starts with the task's budget, each pass spends
 * what it did (at least one unit), and a run whose budget is spent with
 * work left queues the work and returns rather than keep the caller (a
 * posting task, a worker shared by every QP) busy.
 *
 * Contexts:
 *   mrc_task_kick()  any context but a hard IRQ handler, with or without
 *                    IRQs disabled, under any lock of ours or none;
 *   mrc_task_run()   process context with BHs and IRQs enabled and no
 *                    lock of ours held (the handler takes qp->lock with
 *                    BHs disabled and transmits); softirq callers kick;
 *   mrc_task_stop()  process context, may sleep, no lock of ours held,
 *                    never from the handler. After it returns the handler
 *                    never runs again, no work is queued or running, and
 *                    kicks and runs are no-ops. It is final: QP destroy
 *                    (and so module unload, which destroys every QP before
 *                    mrc_wq goes) calls it; a QP moved to the error state
 *                    keeps its task, whose handler finds nothing to do.
 *
 * task->lock is a leaf taken with IRQs saved: nothing is taken under it
 * but the workqueue's own lock in queue_work(), and it may be taken under
 * qp->lock or the transmit budget's lock. The handler runs without it.
 */
#ifndef MRC_TASK_H
#define MRC_TASK_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "mrc_task_state.h"

struct mrc_task;

/*
 * One pass: does what there is to do, at most about *@budget units (a
 * unit is the handler's own, e.g. a packet), lowers *@budget by what it
 * did (never below 0) and returns true when it stopped with work left.
 */
typedef bool (*mrc_task_fn)(struct mrc_task *task, u32 *budget);

struct mrc_task {
	spinlock_t lock;		/* guards @state */
	struct mrc_task_state state;
	mrc_task_fn fn;
	u32 budget;			/* units per run */
	struct work_struct work;	/* on mrc_wq */
};

/* Process context, before any kick. */
void mrc_task_init(struct mrc_task *task, mrc_task_fn fn, u32 budget);
/* Runs the handler on mrc_wq, or again if it is running. */
void mrc_task_kick(struct mrc_task *task);
/* Runs the handler in the calling task, or again if it is running. */
void mrc_task_run(struct mrc_task *task);
/*
 * A send queue's doorbell: for a user QP (@user), which rings from a
 * system call, runs the handler there and then, as a hardware doorbell
 * would, instead of waking a worker for it (a context switch on every
 * message of a latency-bound exchange; rxe sends in the caller too).
 * Kernel ULPs may post from any context and kick the work.
 */
void mrc_task_doorbell(struct mrc_task *task, bool user);
/* Final: waits for a running handler and cancels the work. */
void mrc_task_stop(struct mrc_task *task);

#endif /* MRC_TASK_H */
