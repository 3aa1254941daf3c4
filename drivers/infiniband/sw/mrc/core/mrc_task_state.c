// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A QP engine task's run state (mrc_task_state.h).
 */
#include "mrc_task_state.h"

void mrc_task_state_init(struct mrc_task_state *s)
{
	s->run = MRC_TASK_IDLE;
	s->stopped = false;
}

enum mrc_task_action mrc_task_state_kick(struct mrc_task_state *s)
{
	if (s->stopped)
		return MRC_TASK_NONE;
	if (s->run == MRC_TASK_IDLE)
		return MRC_TASK_QUEUE;
	s->run = MRC_TASK_ARMED;
	return MRC_TASK_NONE;
}

enum mrc_task_action mrc_task_state_claim(struct mrc_task_state *s)
{
	if (s->stopped)
		return MRC_TASK_NONE;
	if (s->run == MRC_TASK_IDLE) {
		s->run = MRC_TASK_BUSY;
		return MRC_TASK_RUN;
	}
	s->run = MRC_TASK_ARMED;
	return MRC_TASK_NONE;
}

enum mrc_task_action mrc_task_state_pass_done(struct mrc_task_state *s,
					      bool more, u32 budget)
{
	more = more || s->run == MRC_TASK_ARMED;
	if (s->stopped) {
		s->run = MRC_TASK_IDLE;
		return MRC_TASK_WAKE;
	}
	if (more && budget) {
		s->run = MRC_TASK_BUSY;
		return MRC_TASK_RUN;
	}
	s->run = MRC_TASK_IDLE;
	return more ? MRC_TASK_QUEUE : MRC_TASK_NONE;
}

void mrc_task_state_stop(struct mrc_task_state *s)
{
	s->stopped = true;
}

bool mrc_task_state_running(const struct mrc_task_state *s)
{
	return s->run != MRC_TASK_IDLE;
}

u32 mrc_task_charge(u32 before, u32 after)
{
	if (!before)
		return 0;
	return after < before ? after : before - 1;
}
