// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QP engines' runner (mrc_task.h).
 */
#include <linux/sched.h>
#include <linux/wait_bit.h>

#include "mrc_task.h"
#include "mrc_wq.h"

static void mrc_task_work(struct work_struct *work);

void mrc_task_init(struct mrc_task *task, mrc_task_fn fn, unsigned int budget)
{
	spin_lock_init(&task->lock);
	task->state = MRC_TASK_IDLE;
	task->stopped = false;
	task->fn = fn;
	task->budget = max(budget, 1U);
	INIT_WORK(&task->work, mrc_task_work);
}

/* True when the caller now owns the task; else it is armed (or stopped). */
static bool mrc_task_claim(struct mrc_task *task)
{
	unsigned long flags;
	bool claimed = false;

	spin_lock_irqsave(&task->lock, flags);
	if (!task->stopped) {
		if (task->state == MRC_TASK_IDLE) {
			task->state = MRC_TASK_BUSY;
			claimed = true;
		} else {
			task->state = MRC_TASK_ARMED;
		}
	}
	spin_unlock_irqrestore(&task->lock, flags);
	return claimed;
}

/*
 * After a pass: true when the owner runs another (work left or a kick
 * came, and budget is left). Otherwise the task is idle again, with the
 * work queued when something is left, none once stopped.
 */
static bool mrc_task_again(struct mrc_task *task, bool more,
			   unsigned int budget)
{
	unsigned long flags;
	bool again = false;

	spin_lock_irqsave(&task->lock, flags);
	more = more || task->state == MRC_TASK_ARMED;
	if (task->stopped) {
		task->state = MRC_TASK_IDLE;
		/*
		 * Under the lock, which mrc_task_stop()'s condition takes
		 * after queueing itself: it sees IDLE or gets woken.
		 */
		wake_up_var(task);
	} else if (more && budget) {
		task->state = MRC_TASK_BUSY;
		again = true;
	} else {
		task->state = MRC_TASK_IDLE;
		if (more)
			queue_work(mrc_wq, &task->work);
	}
	spin_unlock_irqrestore(&task->lock, flags);
	return again;
}

/* The owner's run: passes until nothing is left or the budget is spent. */
static void mrc_task_execute(struct mrc_task *task)
{
	unsigned int budget = task->budget, before;
	bool more;

	do {
		before = budget;
		more = task->fn(task, &budget);
		/* A pass that did nothing still costs: kicks cannot hold us. */
		if (budget >= before)
			budget = before - 1;
	} while (mrc_task_again(task, more, budget));
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

void mrc_task_kick(struct mrc_task *task)
{
	unsigned long flags;

	spin_lock_irqsave(&task->lock, flags);
	if (!task->stopped) {
		if (task->state == MRC_TASK_IDLE)
			queue_work(mrc_wq, &task->work);
		else
			task->state = MRC_TASK_ARMED;
	}
	spin_unlock_irqrestore(&task->lock, flags);
}

static bool mrc_task_idle(struct mrc_task *task)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&task->lock, flags);
	idle = task->state == MRC_TASK_IDLE;
	spin_unlock_irqrestore(&task->lock, flags);
	return idle;
}

void mrc_task_stop(struct mrc_task *task)
{
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&task->lock, flags);
	task->stopped = true;
	spin_unlock_irqrestore(&task->lock, flags);
	/* Nothing queues the work any more: wait for a run of it ... */
	cancel_work_sync(&task->work);
	/* ... and for a caller's own run (mrc_task_run()). */
	wait_var_event(task, mrc_task_idle(task));
}
