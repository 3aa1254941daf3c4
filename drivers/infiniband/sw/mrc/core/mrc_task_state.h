/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The run state of a QP engine's task: who runs its handler, whether a
 * kick came while it ran, whether it stopped. The glue (mrc_task.[ch])
 * makes every call under its task lock and does what the answer says:
 * queue the work, run a pass, wake the stopper. Kept apart from the glue
 * so that selftests/unit/task_state_test.c can check every interleaving
 * of kicks, runs, work and stop for a lost kick, a second runner or a
 * run after stop.
 *
 *   IDLE   nobody runs the handler;
 *   BUSY   one context runs it;
 *   ARMED  one context runs it and was kicked meanwhile: it makes another
 *          pass before going idle.
 * Stopped is final: kicks and claims answer NONE, and the run that is in
 * progress ends at its pass (WAKE).
 */
#ifndef MRC_TASK_STATE_H
#define MRC_TASK_STATE_H

#include "mrc_core_types.h"

enum mrc_task_run {
	MRC_TASK_IDLE,
	MRC_TASK_BUSY,
	MRC_TASK_ARMED,
};

struct mrc_task_state {
	enum mrc_task_run run;
	bool stopped;
};

/* What the caller does next. */
enum mrc_task_action {
	MRC_TASK_NONE,		/* nothing: leave */
	MRC_TASK_RUN,		/* it owns the task: run a pass */
	MRC_TASK_QUEUE,		/* queue the work (and leave) */
	MRC_TASK_WAKE,		/* the last run of a stopped task ended */
};

void mrc_task_state_init(struct mrc_task_state *s);
/* Something to do: QUEUE for an idle task; NONE (armed, or stopped). */
enum mrc_task_action mrc_task_state_kick(struct mrc_task_state *s);
/* A context would run the handler: RUN, or NONE (armed, or stopped). */
enum mrc_task_action mrc_task_state_claim(struct mrc_task_state *s);
/*
 * The owner ended a pass; @more: the handler left work, @budget: what is
 * left of the run's. RUN (another pass), QUEUE (idle now, work left),
 * NONE (idle) or WAKE (stopped, idle now).
 */
enum mrc_task_action mrc_task_state_pass_done(struct mrc_task_state *s,
					      bool more, u32 budget);
/* From now on no kick queues and no claim runs. */
void mrc_task_state_stop(struct mrc_task_state *s);
/* Some context runs the handler. */
bool mrc_task_state_running(const struct mrc_task_state *s);
/*
 * The run's budget after a pass that left @after of @before: a pass that
 * did nothing still costs one, so kicks alone cannot keep a run going.
 */
u32 mrc_task_charge(u32 before, u32 after);

#endif /* MRC_TASK_STATE_H */
