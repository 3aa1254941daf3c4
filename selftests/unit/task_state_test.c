// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of a QP engine task's run state (mrc_task_state.c): each
 * transition, the budget's charge, and every interleaving of a small world
 * (two kickers, a caller running the task in its own context, the
 * workqueue's worker and, in some, a destroy stopping the task), each step
 * one call under the glue's task lock, explored exhaustively. In every
 * state at most one context runs a pass; when everything has finished
 * nothing posted is left undone unless the task was stopped; after stop
 * returns no pass runs and no work is queued or runs; stop always
 * returns.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ktap.h"
#include "mrc_task_state.h"

static void kick_queues_an_idle_task_arms_a_busy_one(void)
{
	struct mrc_task_state s;

	mrc_task_state_init(&s);
	CHECK(!mrc_task_state_running(&s));
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_QUEUE);
	CHECK_EQ(s.run, MRC_TASK_IDLE);
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK(mrc_task_state_running(&s));
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_NONE);
	CHECK_EQ(s.run, MRC_TASK_ARMED);
	/* A second would-be runner leaves, and arms too. */
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_NONE);
	CHECK_EQ(s.run, MRC_TASK_ARMED);
}

static void armed_runner_runs_again_then_goes_idle(void)
{
	struct mrc_task_state s;

	mrc_task_state_init(&s);
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_NONE);
	CHECK_EQ(mrc_task_state_pass_done(&s, false, 5), MRC_TASK_RUN);
	CHECK_EQ(s.run, MRC_TASK_BUSY);
	CHECK_EQ(mrc_task_state_pass_done(&s, false, 4), MRC_TASK_NONE);
	CHECK_EQ(s.run, MRC_TASK_IDLE);
	/* Work the handler left is another pass too. */
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK_EQ(mrc_task_state_pass_done(&s, true, 3), MRC_TASK_RUN);
}

static void spent_budget_queues_what_is_left(void)
{
	struct mrc_task_state s;

	mrc_task_state_init(&s);
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK_EQ(mrc_task_state_pass_done(&s, true, 0), MRC_TASK_QUEUE);
	CHECK_EQ(s.run, MRC_TASK_IDLE);
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_NONE);
	CHECK_EQ(mrc_task_state_pass_done(&s, false, 0), MRC_TASK_QUEUE);
	/* Spent, but nothing left: idle, nothing queued. */
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK_EQ(mrc_task_state_pass_done(&s, false, 0), MRC_TASK_NONE);
}

static void a_pass_costs_at_least_one(void)
{
	CHECK_EQ(mrc_task_charge(64, 64), 63);
	CHECK_EQ(mrc_task_charge(64, 10), 10);
	CHECK_EQ(mrc_task_charge(1, 1), 0);
	CHECK_EQ(mrc_task_charge(1, 0), 0);
	CHECK_EQ(mrc_task_charge(0, 0), 0);
	/* A handler that reports more than it had is charged one. */
	CHECK_EQ(mrc_task_charge(3, 7), 2);
}

static void stop_is_final(void)
{
	struct mrc_task_state s;

	mrc_task_state_init(&s);
	mrc_task_state_stop(&s);
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_NONE);
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_NONE);
	CHECK(!mrc_task_state_running(&s));

	/* Stopped while running: the pass in progress is the last. */
	mrc_task_state_init(&s);
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_RUN);
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_NONE);
	mrc_task_state_stop(&s);
	CHECK(mrc_task_state_running(&s));
	CHECK_EQ(mrc_task_state_kick(&s), MRC_TASK_NONE);
	CHECK_EQ(mrc_task_state_pass_done(&s, true, 10), MRC_TASK_WAKE);
	CHECK(!mrc_task_state_running(&s));
	CHECK_EQ(mrc_task_state_claim(&s), MRC_TASK_NONE);
}

/* ---- every interleaving ---- */

#define KICKERS	2

/* Program counters of a context running the task. */
enum { RUNNER_OUT, RUNNER_CLAIM, RUNNER_PASS, RUNNER_PASS_DONE };

struct world {
	struct mrc_task_state ts;
	bool queued;		/* the work item is pending */
	u32 work;		/* posted, not yet taken by a pass */
	u8 kicker_pc[KICKERS];	/* 0 post, 1 kick, 2 done */
	u8 caller_pc;		/* 0 post, then RUNNER_*, 4 done */
	u8 caller_budget;
	bool caller_more;
	u8 worker_pc;		/* RUNNER_*: OUT waits for the queue */
	u8 worker_budget;
	bool worker_more;
	u8 stop_pc;		/* 0 stop, 1 cancel, 2 wait, 3 done; 4 none */
};

struct explore {
	u32 budget;		/* a run's */
	u32 cap;		/* a pass's */
	u64 *seen;		/* open addressing, 0 is empty */
	size_t seen_size;
	unsigned long states, finals;
	unsigned long two_runners, lost_work, ran_after_stop;
	unsigned long queued_after_stop, work_after_stop, stop_stuck;
	unsigned long not_idle;
};

#define CALLER_DONE	4
#define STOP_DONE	3
#define STOP_NONE	4

static u64 world_key(const struct world *w)
{
	u64 k = 0;
	int i;

	k = k << 2 | w->ts.run;
	k = k << 1 | w->ts.stopped;
	k = k << 1 | w->queued;
	k = k << 4 | w->work;
	for (i = 0; i < KICKERS; i++)
		k = k << 2 | w->kicker_pc[i];
	k = k << 3 | w->caller_pc;
	k = k << 4 | w->caller_budget;
	k = k << 1 | w->caller_more;
	k = k << 2 | w->worker_pc;
	k = k << 4 | w->worker_budget;
	k = k << 1 | w->worker_more;
	k = k << 3 | w->stop_pc;
	return k + 1;
}

/* True the first time @w is seen. */
static bool first_visit(struct explore *e, const struct world *w)
{
	u64 key = world_key(w);
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull) & (e->seen_size - 1);

	while (e->seen[i]) {
		if (e->seen[i] == key)
			return false;
		i = (i + 1) & (e->seen_size - 1);
	}
	e->seen[i] = key;
	return true;
}

static bool owns(u8 pc)
{
	return pc == RUNNER_PASS || pc == RUNNER_PASS_DONE;
}

/* One pass of a handler that takes what is posted, @cap at a time. */
static void pass(struct explore *e, struct world *w, u8 *budget, bool *more)
{
	u32 cap = e->cap < *budget ? e->cap : *budget;
	u32 n = w->work < cap ? w->work : cap;

	if (w->stop_pc == STOP_DONE)
		e->ran_after_stop++;
	w->work -= n;
	*more = w->work && n == cap;
	*budget = mrc_task_charge(*budget, *budget - n);
}

/* The owner's answer after a pass; returns its next program counter. */
static u8 pass_done(struct explore *e, struct world *w, u8 budget, bool more,
		    u8 out)
{
	switch (mrc_task_state_pass_done(&w->ts, more, budget)) {
	case MRC_TASK_RUN:
		return RUNNER_PASS;
	case MRC_TASK_QUEUE:
		if (w->stop_pc == STOP_DONE)
			e->queued_after_stop++;
		w->queued = true;
		return out;
	default:
		return out;
	}
}

static void explore(struct explore *e, const struct world *w);

static void step(struct explore *e, const struct world *from, int actor)
{
	struct world w = *from;

	if (actor < KICKERS) {
		if (w.kicker_pc[actor] == 0) {
			w.work++;
		} else if (mrc_task_state_kick(&w.ts) == MRC_TASK_QUEUE) {
			if (w.stop_pc == STOP_DONE)
				e->queued_after_stop++;
			w.queued = true;
		}
		w.kicker_pc[actor]++;
	} else if (actor == KICKERS) {		/* the caller's own run */
		switch (w.caller_pc) {
		case 0:
			w.work++;
			w.caller_pc = RUNNER_CLAIM;
			break;
		case RUNNER_CLAIM:
			w.caller_budget = e->budget;
			w.caller_pc = mrc_task_state_claim(&w.ts) ==
				      MRC_TASK_RUN ? RUNNER_PASS : CALLER_DONE;
			break;
		case RUNNER_PASS:
			pass(e, &w, &w.caller_budget, &w.caller_more);
			w.caller_pc = RUNNER_PASS_DONE;
			break;
		default:
			w.caller_pc = pass_done(e, &w, w.caller_budget,
						w.caller_more, CALLER_DONE);
			break;
		}
	} else if (actor == KICKERS + 1) {	/* the worker */
		switch (w.worker_pc) {
		case RUNNER_OUT:	/* the workqueue takes the item */
			if (w.stop_pc == STOP_DONE)
				e->work_after_stop++;
			w.queued = false;
			w.worker_pc = RUNNER_CLAIM;
			break;
		case RUNNER_CLAIM:
			w.worker_budget = e->budget;
			w.worker_pc = mrc_task_state_claim(&w.ts) ==
				      MRC_TASK_RUN ? RUNNER_PASS : RUNNER_OUT;
			break;
		case RUNNER_PASS:
			pass(e, &w, &w.worker_budget, &w.worker_more);
			w.worker_pc = RUNNER_PASS_DONE;
			break;
		default:
			w.worker_pc = pass_done(e, &w, w.worker_budget,
						w.worker_more, RUNNER_OUT);
			break;
		}
	} else {				/* destroy */
		switch (w.stop_pc) {
		case 0:
			mrc_task_state_stop(&w.ts);
			break;
		case 1:		/* cancel_work_sync(): not while it runs */
			w.queued = false;
			break;
		default:	/* waits for the caller's run */
			if (w.queued)
				e->queued_after_stop++;
			break;
		}
		w.stop_pc++;
	}
	explore(e, &w);
}

static bool enabled(const struct world *w, int actor)
{
	if (actor < KICKERS)
		return w->kicker_pc[actor] < 2;
	if (actor == KICKERS)
		return w->caller_pc != CALLER_DONE;
	if (actor == KICKERS + 1)
		return w->worker_pc != RUNNER_OUT || w->queued;
	switch (w->stop_pc) {
	case 0:
		return true;
	case 1:
		return w->worker_pc == RUNNER_OUT;
	case 2:
		return !mrc_task_state_running(&w->ts);
	default:
		return false;
	}
}

static void explore(struct explore *e, const struct world *w)
{
	bool any = false;
	int actor;

	if (!first_visit(e, w))
		return;
	e->states++;
	if ((owns(w->caller_pc) ? 1 : 0) + (owns(w->worker_pc) ? 1 : 0) > 1)
		e->two_runners++;
	for (actor = 0; actor < KICKERS + 3; actor++) {
		if (enabled(w, actor)) {
			any = true;
			step(e, w, actor);
		}
	}
	if (any)
		return;
	e->finals++;
	if (w->stop_pc != STOP_NONE && w->stop_pc != STOP_DONE)
		e->stop_stuck++;
	if (w->stop_pc == STOP_NONE && w->work)
		e->lost_work++;
	if (mrc_task_state_running(&w->ts))
		e->not_idle++;
}

static void explore_world(u32 budget, u32 cap, bool with_stop)
{
	struct explore e = { .budget = budget, .cap = cap };
	struct world w = { 0 };

	e.seen_size = 1u << 22;
	e.seen = calloc(e.seen_size, sizeof(*e.seen));
	CHECK(e.seen);
	if (!e.seen)
		return;
	mrc_task_state_init(&w.ts);
	w.stop_pc = with_stop ? 0 : STOP_NONE;
	explore(&e, &w);
	printf("# budget %u, cap %u%s: %lu states, %lu final\n", budget, cap,
	       with_stop ? ", stop" : "", e.states, e.finals);
	CHECK(e.finals > 0);
	CHECK_EQ(e.two_runners, 0);
	CHECK_EQ(e.lost_work, 0);
	CHECK_EQ(e.ran_after_stop, 0);
	CHECK_EQ(e.queued_after_stop, 0);
	CHECK_EQ(e.work_after_stop, 0);
	CHECK_EQ(e.stop_stuck, 0);
	CHECK_EQ(e.not_idle, 0);
	free(e.seen);
}

static void every_interleaving_keeps_the_rules(void)
{
	u32 budget, cap;

	for (budget = 1; budget <= 4; budget++) {
		for (cap = 1; cap <= 2; cap++) {
			explore_world(budget, cap, false);
			explore_world(budget, cap, true);
		}
	}
}

static const struct ktap_case cases[] = {
	KTAP_CASE(kick_queues_an_idle_task_arms_a_busy_one),
	KTAP_CASE(armed_runner_runs_again_then_goes_idle),
	KTAP_CASE(spent_budget_queues_what_is_left),
	KTAP_CASE(a_pass_costs_at_least_one),
	KTAP_CASE(stop_is_final),
	KTAP_CASE(every_interleaving_keeps_the_rules),
};

KTAP_MAIN("task_state", cases)
