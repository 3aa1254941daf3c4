// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * EV set: path state machine and spray choice. Protocol core; see mrc_ev.h
 * and Documentation/paths.rst.
 */
#include "mrc_ev.h"

/* Serial time: true when @a is at or after @b. */
static inline bool mrc_ev_time_reached(u32 a, u32 b)
{
	return (s32)(a - b) >= 0;
}

/*
 * How long until @e's probe is due, 0 when it is. A due time further away
 * than the longest probe interval was set before a wrap of the 32-bit
 * clock (the QP idle for over half an hour, owing nothing, is not
 * probed): it is long past.
 */
static u32 mrc_ev_probe_due_in(const struct mrc_ev_set *set,
			       const struct mrc_ev *e, u32 now_us)
{
	u32 wait = e->probe_due_us - now_us;

	if (mrc_ev_time_reached(now_us, e->probe_due_us) ||
	    wait > set->params.probe_interval_us <<
		   set->params.probe_max_backoff)
		return 0;
	return wait;
}

static inline bool mrc_ev_state_usable(u8 state)
{
	return state == MRC_EV_GOOD || state == MRC_EV_UNKNOWN;
}

void mrc_ev_params_default(struct mrc_ev_params *p)
{
	p->min_active = MRC_EV_DEFAULT_MIN_ACTIVE;
	p->probe_interval_us = MRC_EV_DEFAULT_PROBE_INTERVAL_US;
	p->probe_max_backoff = MRC_EV_DEFAULT_PROBE_MAX_BACKOFF;
	p->probes_to_good = MRC_EV_DEFAULT_PROBES_TO_GOOD;
}

/*
 * @e's probe, if one is out, is no longer awaited; the set's count of
 * pending probes follows, so that mrc_ev_probe_expire() stops early.
 */
static void mrc_ev_probe_clear(struct mrc_ev_set *set, struct mrc_ev *e)
{
	if (!e->probe_pending)
		return;
	e->probe_pending = false;
	set->probes_pending--;
}

/*
 * Every state change goes through here, so the usable counts (per plane
 * and in all) always match the states. A usable state on a flagged plane
 * cannot exist: setting a flag retires the plane's EVs first.
 */
static void mrc_ev_set_state(struct mrc_ev_set *set, u32 ev, u8 state,
			     u8 why)
{
	struct mrc_ev *e = &set->evs[ev];
	bool was = mrc_ev_state_usable(e->state);
	bool now = mrc_ev_state_usable(state);
	u8 old = e->state;

	if (was && !now) {
		set->plane_usable[e->plane]--;
		set->usable--;
	} else if (!was && now) {
		set->plane_usable[e->plane]++;
		set->usable++;
	}
	if (e->state == MRC_EV_ASSUMED_BAD)
		set->retired--;
	if (state == MRC_EV_ASSUMED_BAD)
		set->retired++;
	e->state = state;
	mrc_ev_probe_clear(set, e);
	e->probe_successes = 0;
	if (set->watch && old != state)
		set->watch(set->watch_ctx, ev, old, state, why);
}

/* For the record (debugfs): when a change the caller timed happened. */
static void mrc_ev_stamp(struct mrc_ev *e, u32 now_us)
{
	e->changed_us = now_us;
	e->changed = true;
}

/* Retired: probed from @due_us on, starting from the base interval. */
static void mrc_ev_retire(struct mrc_ev_set *set, u32 ev, u32 due_us, u8 why)
{
	struct mrc_ev *e = &set->evs[ev];

	mrc_ev_set_state(set, ev, MRC_EV_ASSUMED_BAD, why);
	e->probe_backoff = 0;
	e->probe_due_us = due_us;
}

int mrc_ev_set_init(struct mrc_ev_set *set, struct mrc_ev *evs, u32 n_evs,
		    u8 n_planes, const struct mrc_ev_desc *descs,
		    const struct mrc_ev_params *params)
{
	u16 fill[MRC_EV_MAX_PLANES];
	u32 i;
	u8 p;

	if (!n_evs || n_evs > MRC_EV_MAX || !n_planes ||
	    n_planes > MRC_EV_MAX_PLANES)
		return -EINVAL;
	if (!params->probe_interval_us || !params->probes_to_good ||
	    params->probe_max_backoff > 20)
		return -EINVAL;
	for (i = 0; i < n_evs; i++)
		if (descs[i].plane >= n_planes ||
		    descs[i].path.n_usids > MRC_EV_MAX_USIDS)
			return -EINVAL;

	memset(set, 0, sizeof(*set));
	set->evs = evs;
	set->n_evs = n_evs;
	set->n_planes = n_planes;
	set->params = *params;

	/* Counting sort by plane, stable within a plane. */
	for (i = 0; i < n_evs; i++)
		set->plane_len[descs[i].plane]++;
	for (p = 1; p < n_planes; p++)
		set->plane_first[p] = set->plane_first[p - 1] +
				      set->plane_len[p - 1];
	memcpy(fill, set->plane_first, sizeof(fill));
	for (i = 0; i < n_evs; i++) {
		struct mrc_ev *e = &evs[fill[descs[i].plane]++];

		memset(e, 0, sizeof(*e));
		e->path = descs[i].path;
		e->plane = descs[i].plane;
		e->state = MRC_EV_UNKNOWN;
		set->plane_usable[e->plane]++;
	}
	set->usable = n_evs;
	return 0;
}

/* The next usable EV of @plane other than @avoid, advancing its cursor. */
static int mrc_ev_pick_in_plane(struct mrc_ev_set *set, u8 plane, int avoid)
{
	u32 len = set->plane_len[plane];
	u32 first = set->plane_first[plane];
	u32 off = set->plane_cursor[plane];
	u32 tried;

	for (tried = 0; tried < len; tried++, off = off + 1 == len ? 0 : off + 1) {
		u32 ev = first + off;

		if ((int)ev == avoid || !mrc_ev_state_usable(set->evs[ev].state))
			continue;
		set->plane_cursor[plane] = off + 1 == len ? 0 : off + 1;
		return (int)ev;
	}
	return -1;
}

int mrc_ev_pick(struct mrc_ev_set *set, int avoid)
{
	u8 p = set->next_plane;
	u32 tried;

	for (tried = 0; tried < set->n_planes;
	     tried++, p = p + 1 == set->n_planes ? 0 : p + 1) {
		int ev;

		if (set->plane_flags[p] || !set->plane_usable[p])
			continue;
		ev = mrc_ev_pick_in_plane(set, p, avoid);
		if (ev < 0)
			continue;
		set->next_plane = p + 1 == set->n_planes ? 0 : p + 1;
		set->evs[ev].sent++;
		return ev;
	}

	/* Nothing but @avoid: better the suspect path than none. */
	if (avoid >= 0 && (u32)avoid < set->n_evs &&
	    mrc_ev_usable(set, (u32)avoid)) {
		set->evs[avoid].sent++;
		return avoid;
	}
	return -EHOSTUNREACH;
}

int mrc_ev_pick_last_resort(struct mrc_ev_set *set)
{
	u32 tried, ev = set->last_resort_cursor;

	for (tried = 0; tried < set->n_evs;
	     tried++, ev = ev + 1 == set->n_evs ? 0 : ev + 1) {
		struct mrc_ev *e = &set->evs[ev];

		if (e->state != MRC_EV_ASSUMED_BAD || set->plane_flags[e->plane])
			continue;
		set->last_resort_cursor = ev + 1 == set->n_evs ? 0 : ev + 1;
		e->sent++;
		return (int)ev;
	}
	return -EHOSTUNREACH;
}

void mrc_ev_on_ack(struct mrc_ev_set *set, u32 ev, u32 n)
{
	struct mrc_ev *e;

	if (ev >= set->n_evs)
		return;
	e = &set->evs[ev];
	e->acked += n;
	/*
	 * An ACK for a bad EV may be for a packet sent before it went bad:
	 * only probes bring a bad EV back.
	 */
	if (e->state == MRC_EV_UNKNOWN)
		mrc_ev_set_state(set, ev, MRC_EV_GOOD, MRC_EV_WHY_ACK);
}

static bool mrc_ev_charge(struct mrc_ev_set *set, u32 ev, u32 now_us, u8 why)
{
	struct mrc_ev *e;

	if (ev >= set->n_evs)
		return false;
	e = &set->evs[ev];
	e->lost++;
	e->lost_us = now_us;
	if (!mrc_ev_state_usable(e->state))
		return true;
	if (set->usable <= set->params.min_active)
		return false;
	mrc_ev_retire(set, ev, now_us + set->params.probe_interval_us, why);
	mrc_ev_stamp(e, now_us);
	return true;
}

bool mrc_ev_on_loss(struct mrc_ev_set *set, u32 ev, u32 now_us)
{
	return mrc_ev_charge(set, ev, now_us, MRC_EV_WHY_LOSS);
}

/* A timeout is a loss the SACKs could not show: the same rule. */
bool mrc_ev_on_timeout(struct mrc_ev_set *set, u32 ev, u32 now_us)
{
	return mrc_ev_charge(set, ev, now_us, MRC_EV_WHY_TIMEOUT);
}

int mrc_ev_next_probe(struct mrc_ev_set *set, u32 now_us)
{
	u32 tried, ev = set->probe_cursor;

	for (tried = 0; tried < set->n_evs;
	     tried++, ev = ev + 1 == set->n_evs ? 0 : ev + 1) {
		struct mrc_ev *e = &set->evs[ev];

		if (e->state != MRC_EV_ASSUMED_BAD || e->probe_pending ||
		    set->plane_flags[e->plane] ||
		    mrc_ev_probe_due_in(set, e, now_us))
			continue;
		e->probe_pending = true;
		e->probe_sent_us = now_us;
		set->probes_pending++;
		e->probes++;
		/* Resume after it, so bad EVs are probed in turn. */
		set->probe_cursor = ev + 1 == set->n_evs ? 0 : ev + 1;
		return (int)ev;
	}
	return -ENOENT;
}

bool mrc_ev_probe_result(struct mrc_ev_set *set, u32 ev, bool ok,
			 u32 now_us)
{
	struct mrc_ev *e;

	if (ev >= set->n_evs)
		return false;
	e = &set->evs[ev];
	if (e->state != MRC_EV_ASSUMED_BAD || !e->probe_pending)
		return false;
	mrc_ev_probe_clear(set, e);

	if (ok) {
		if (++e->probe_successes >= set->params.probes_to_good) {
			mrc_ev_set_state(set, ev, MRC_EV_GOOD,
					 MRC_EV_WHY_PROBES);
			mrc_ev_stamp(e, now_us);
			e->probe_backoff = 0;
			return true;
		}
		/* Confirm at once: one success may be luck. */
		e->probe_due_us = now_us;
		return true;
	}

	e->probe_successes = 0;
	if (e->probe_backoff < set->params.probe_max_backoff)
		e->probe_backoff++;
	e->probe_due_us = now_us +
			  (set->params.probe_interval_us << e->probe_backoff);
	return true;
}

u32 mrc_ev_probe_expire(struct mrc_ev_set *set, u32 now_us, u32 timeout_us)
{
	u32 ev, failed = 0;

	for (ev = 0; set->probes_pending && ev < set->n_evs; ev++) {
		const struct mrc_ev *e = &set->evs[ev];

		if (!e->probe_pending || now_us - e->probe_sent_us < timeout_us)
			continue;
		if (mrc_ev_probe_result(set, ev, false, now_us))
			failed++;
	}
	return failed;
}

bool mrc_ev_probe_wait(const struct mrc_ev_set *set, u32 now_us,
		       u32 timeout_us, u32 *wait_us)
{
	bool found = false;
	u32 ev, wait;

	if (!mrc_ev_probing(set))
		return false;
	for (ev = 0; ev < set->n_evs; ev++) {
		const struct mrc_ev *e = &set->evs[ev];
		u32 elapsed = now_us - e->probe_sent_us;

		/* The same rules as mrc_ev_probe_expire()'s and _next_probe()'s. */
		if (e->probe_pending)
			wait = elapsed >= timeout_us ? 0 : timeout_us - elapsed;
		else if (e->state == MRC_EV_ASSUMED_BAD &&
			 !set->plane_flags[e->plane])
			wait = mrc_ev_probe_due_in(set, e, now_us);
		else
			continue;
		if (!found || wait < *wait_us)
			*wait_us = wait;
		found = true;
	}
	return found;
}

void mrc_ev_deny(struct mrc_ev_set *set, u32 ev)
{
	if (ev < set->n_evs)
		mrc_ev_set_state(set, ev, MRC_EV_DENIED, MRC_EV_WHY_DENY);
}

void mrc_ev_allow(struct mrc_ev_set *set, u32 ev)
{
	struct mrc_ev *e;

	if (ev >= set->n_evs)
		return;
	e = &set->evs[ev];
	if (e->state != MRC_EV_DENIED)
		return;
	/* On a plane that cannot carry traffic it waits for probes. */
	if (set->plane_flags[e->plane])
		mrc_ev_retire(set, ev, 0, MRC_EV_WHY_PLANE);
	else
		mrc_ev_set_state(set, ev, MRC_EV_UNKNOWN, MRC_EV_WHY_ALLOW);
}

u8 mrc_ev_plane_set(struct mrc_ev_set *set, u8 plane, u8 flag, bool on,
		    u32 now_us)
{
	u8 before, after;
	u32 i, first;

	if (plane >= set->n_planes)
		return 0;
	before = set->plane_flags[plane];
	after = on ? before | flag : before & ~flag;
	set->plane_flags[plane] = after;
	first = set->plane_first[plane];

	if (!before && after) {
		/* Nothing can cross the plane: retire it whole, floor or not. */
		set->planes_lost++;
		for (i = first; i < first + set->plane_len[plane]; i++) {
			if (set->evs[i].state == MRC_EV_DENIED)
				continue;
			mrc_ev_retire(set, i, now_us, MRC_EV_WHY_PLANE);
			mrc_ev_stamp(&set->evs[i], now_us);
		}
	} else if (before && !after) {
		/* Back, but each path must prove itself: probe them now. */
		for (i = first; i < first + set->plane_len[plane]; i++) {
			struct mrc_ev *e = &set->evs[i];

			if (e->state != MRC_EV_ASSUMED_BAD)
				continue;
			mrc_ev_probe_clear(set, e);
			e->probe_successes = 0;
			e->probe_backoff = 0;
			e->probe_due_us = now_us;
		}
	}
	return after;
}

void mrc_ev_set_watch(struct mrc_ev_set *set, mrc_ev_watch_fn fn, void *ctx)
{
	set->watch = fn;
	set->watch_ctx = ctx;
}

const char *mrc_ev_state_name(enum mrc_ev_state state)
{
	switch (state) {
	case MRC_EV_GOOD:
		return "GOOD";
	case MRC_EV_ASSUMED_BAD:
		return "ASSUMED_BAD";
	case MRC_EV_DENIED:
		return "DENIED";
	case MRC_EV_UNKNOWN:
		return "UNKNOWN";
	}
	return "?";
}
