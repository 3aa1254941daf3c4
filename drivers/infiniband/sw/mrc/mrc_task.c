// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP engines' runner (mrc_task.h). Who runs and what comes next is
 * decided by core/mrc_task_state.c under task->lock; this file does what
 * it answers: queue the work, run a pass, wake the stopper.
 */
#include <linux/sched.h>
#include <linux/wait_bit.h>

#include "mrc_task.h"
#include "mrc_wq.h"

static void mrc_task_work(struct work_struct *work);

void mrc_task_init(struct mrc_task *task, mrc_task_fn fn, u32 budget)
{
	spin_lock_init(&task->lock);
	mrc_task_state_init(&task->state);
	task->fn = fn;
	task->budget = max_t(u32, budget, 1);
	INIT_WORK(&task->work, mrc_task_work);
}

/* True when the caller now owns the task; else it is armed (or stopped). */
static bool mrc_task_claim(struct mrc_task *task)
{
	enum mrc_task_action action;
	unsigned long flags;

	spin_lock_irqsave(&task->lock, flags);
	action = mrc_task_state_claim(&task->state);
	spin_unlock_irqrestore(&task->lock, flags);
	return action == MRC_TASK_RUN;
}

/* After a pass: true when the owner runs another. */
static bool mrc_task_pass_done(struct mrc_task *task, bool more, u32 budget)
{
	enum mrc_task_action action;
	unsigned long flags;

	spin_lock_irqsave(&task->lock, flags);
	action = mrc_task_state_pass_done(&task->state, more, budget);
	if (action == MRC_TASK_QUEUE)
		queue_work(mrc_wq, &task->work);
	else if (action == MRC_TASK_WAKE)
		/*
		 * Under the lock, which mrc_task_stop()'s condition takes
		 * after queueing itself: it sees the task idle or is woken.
		 */
		wake_up_var(task);
	spin_unlock_irqrestore(&task->lock, flags);
	return action == MRC_TASK_RUN;
}

/* The owner's run: passes until nothing is left or the budget is spent. */
static void mrc_task_execute(struct mrc_task *task)
{
	u32 budget = task->budget, left;
	bool more;

	do {
		left = budget;
		more = task->fn(task, &left);
		budget = mrc_task_charge(budget, left);
	} while (mrc_task_pass_done(task, more, budget));
}

void mrc_task_run(struct mrc_task *task)
{
	if (mrc_task_claim(task))
		mrc_task_execute(task);
}

static void mrc_task_work(struct work_struct *work)
{
	mrc_task_run(container_of(work, struct mrc_task, work));
}

void mrc_task_doorbell(struct mrc_task *task, bool user)
{
	if (user && in_task() && !irqs_disabled())
		mrc_task_run(task);
	else
		mrc_task_kick(task);
}

void mrc_task_kick(struct mrc_task *task)
{
	unsigned long flags;

	spin_lock_irqsave(&task->lock, flags);
	if (mrc_task_state_kick(&task->state) == MRC_TASK_QUEUE)
		queue_work(mrc_wq, &task->work);
	spin_unlock_irqrestore(&task->lock, flags);
}

static bool mrc_task_idle(struct mrc_task *task)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&task->lock, flags);
	idle = !mrc_task_state_running(&task->state);
	spin_unlock_irqrestore(&task->lock, flags);
	return idle;
}

void mrc_task_stop(struct mrc_task *task)
{
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&task->lock, flags);
	mrc_task_state_stop(&task->state);
	spin_unlock_irqrestore(&task->lock, flags);
	/* Nothing queues the work any more: wait for a run of it ... */
	cancel_work_sync(&task->work);
	/* ... and for a caller's own run (mrc_task_run()). */
	wait_var_event(task, mrc_task_idle(task));
}
