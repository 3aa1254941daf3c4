// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the EV set (mrc_ev.c): the path state machine, the spray
 * choice's balance, the ev_min_active floor, and plane loss and return.
 */
#include "ktap.h"
#include "mrc_ev.h"

static struct mrc_ev evs[MRC_EV_MAX];
static struct mrc_ev_set set;

/* @per_plane EVs on each of @planes planes, sports 0xc000 + i. */
static void make_set(u8 planes, u32 per_plane, u32 min_active)
{
	struct mrc_ev_desc descs[MRC_EV_MAX];
	struct mrc_ev_params params;
	u32 i, n = planes * per_plane;

	mrc_ev_params_default(&params);
	params.min_active = min_active;
	memset(descs, 0, sizeof(descs));
	/* Interleaved on purpose: init must group them by plane. */
	for (i = 0; i < n; i++) {
		descs[i].plane = (u8)(i % planes);
		descs[i].path.udp_sport = (u16)(0xc000 + i);
	}
	CHECK_EQ(mrc_ev_set_init(&set, evs, n, planes, descs, &params), 0);
}

static u32 count_state(u8 state)
{
	u32 i, n = 0;

	for (i = 0; i < set.n_evs; i++)
		n += set.evs[i].state == state;
	return n;
}

/* max/mean of the sent counters of usable EVs, x1000. */
static u64 imbalance_x1000(void)
{
	u64 max = 0, sum = 0, n = 0;
	u32 i;

	for (i = 0; i < set.n_evs; i++) {
		if (!mrc_ev_usable(&set, i))
			continue;
		sum += set.evs[i].sent;
		n++;
		if (set.evs[i].sent > max)
			max = set.evs[i].sent;
	}
	return sum ? max * 1000 * n / sum : 0;
}

static void init_rejects_bad_input(void)
{
	struct mrc_ev_desc d[2] = { { .plane = 0 }, { .plane = 2 } };
	struct mrc_ev_params p;

	mrc_ev_params_default(&p);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 0, 1, d, &p), -EINVAL);
	CHECK_EQ(mrc_ev_set_init(&set, evs, MRC_EV_MAX + 1, 1, d, &p), -EINVAL);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 2, d, &p), -EINVAL);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 0, d, &p), -EINVAL);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, MRC_EV_MAX_PLANES + 1, d, &p),
		 -EINVAL);
	d[1].plane = 1;
	d[1].path.n_usids = MRC_EV_MAX_USIDS + 1;
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 2, d, &p), -EINVAL);
	d[1].path.n_usids = MRC_EV_MAX_USIDS;
	p.probes_to_good = 0;
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 2, d, &p), -EINVAL);
	mrc_ev_params_default(&p);
	CHECK_EQ(mrc_ev_set_init(&set, evs, 2, 2, d, &p), 0);
	CHECK_EQ(set.evs[1].path.n_usids, MRC_EV_MAX_USIDS);
}

static void init_groups_by_plane(void)
{
	u32 i;

	make_set(4, 8, 1);
	CHECK_EQ(set.usable, 32);
	CHECK_EQ(count_state(MRC_EV_UNKNOWN), 32);
	for (i = 0; i < 32; i++) {
		CHECK_EQ(set.evs[i].plane, i / 8);
		/* Order within a plane is the caller's. */
		CHECK_EQ(set.evs[i].path.udp_sport, 0xc000 + (i % 8) * 4 + i / 8);
	}
}

static void picks_alternate_planes(void)
{
	u32 i;
	int prev = -1;

	make_set(4, 8, 1);
	for (i = 0; i < 64; i++) {
		int ev = mrc_ev_pick(&set, -1);

		CHECK(ev >= 0);
		if (ev < 0)
			return;
		CHECK_EQ(set.evs[ev].plane, i % 4);
		CHECK(ev != prev);
		prev = ev;
	}
	/* 64 picks over 32 EVs: each exactly twice. */
	for (i = 0; i < 32; i++)
		CHECK_EQ(set.evs[i].sent, 2);
}

static void balance_over_many_picks(void)
{
	u32 i, k;

	make_set(8, 16, 1);
	for (i = 0; i < 100000; i++)
		CHECK(mrc_ev_pick(&set, -1) >= 0);
	printf("# all usable: max/mean x1000 = %llu\n",
	       (unsigned long long)imbalance_x1000());
	CHECK(imbalance_x1000() <= 1500);

	/* Retire a quarter of the EVs, spread unevenly over planes. */
	for (k = 0; k < 32; k++)
		CHECK(mrc_ev_on_loss(&set, (k * 7) % 128, 0));
	for (i = 0; i < set.n_evs; i++)
		set.evs[i].sent = 0;
	for (i = 0; i < 100000; i++)
		CHECK(mrc_ev_pick(&set, -1) >= 0);
	printf("# %u usable: max/mean x1000 = %llu\n", set.usable,
	       (unsigned long long)imbalance_x1000());
	CHECK(imbalance_x1000() <= 1500);
	for (i = 0; i < set.n_evs; i++)
		if (!mrc_ev_usable(&set, i))
			CHECK_EQ(set.evs[i].sent, 0);
}

static void ack_makes_unknown_good(void)
{
	make_set(2, 2, 1);
	mrc_ev_on_ack(&set, 0, 3);
	CHECK_EQ(set.evs[0].state, MRC_EV_GOOD);
	CHECK_EQ(set.evs[0].acked, 3);
	CHECK_EQ(set.evs[1].state, MRC_EV_UNKNOWN);
	/* Out of range is ignored. */
	mrc_ev_on_ack(&set, 4, 1);
	CHECK_EQ(set.usable, 4);
}

static void loss_retires_at_once_and_avoids(void)
{
	u32 i;

	make_set(2, 4, 1);
	mrc_ev_on_ack(&set, 1, 1);
	CHECK(mrc_ev_on_loss(&set, 1, 1000));
	CHECK_EQ(set.evs[1].state, MRC_EV_ASSUMED_BAD);
	CHECK_EQ(set.evs[1].lost, 1);
	CHECK_EQ(set.usable, 7);
	for (i = 0; i < 70; i++)
		CHECK(mrc_ev_pick(&set, -1) != 1);
	CHECK_EQ(set.evs[1].sent, 0);

	/* A retransmission avoids the EV its packet was lost on. */
	for (i = 0; i < 20; i++)
		CHECK(mrc_ev_pick(&set, 2) != 2);

	/* A timeout is a loss too. */
	CHECK(mrc_ev_on_timeout(&set, 5, 1000));
	CHECK_EQ(set.evs[5].state, MRC_EV_ASSUMED_BAD);
	CHECK_EQ(set.usable, 6);
}

static void avoid_used_when_it_is_all(void)
{
	make_set(1, 2, 1);
	CHECK(mrc_ev_on_loss(&set, 0, 0));
	CHECK_EQ(mrc_ev_pick(&set, 1), 1);
	CHECK_EQ(set.evs[1].sent, 1);
}

static void floor_keeps_min_active(void)
{
	u32 i;

	make_set(2, 4, 3);
	for (i = 0; i < 5; i++)
		CHECK(mrc_ev_on_loss(&set, i, 0));
	CHECK_EQ(set.usable, 3);
	/* The floor is reached: losses are counted, EVs stay. */
	CHECK(!mrc_ev_on_loss(&set, 5, 0));
	CHECK(!mrc_ev_on_timeout(&set, 6, 0));
	CHECK_EQ(set.usable, 3);
	CHECK_EQ(set.evs[5].state, MRC_EV_UNKNOWN);
	CHECK_EQ(set.evs[5].lost, 1);
	/* An already retired EV reports retired. */
	CHECK(mrc_ev_on_loss(&set, 0, 0));
	CHECK_EQ(set.evs[0].lost, 2);
}

static void probes_bring_back_after_successes(void)
{
	int ev;

	make_set(1, 4, 1);
	CHECK(mrc_ev_on_loss(&set, 2, 1000));
	/* Not due before probe_interval_us. */
	CHECK_EQ(mrc_ev_next_probe(&set, 1000), -ENOENT);
	CHECK_EQ(mrc_ev_next_probe(&set, 1099), -ENOENT);
	ev = mrc_ev_next_probe(&set, 1100);
	CHECK_EQ(ev, 2);
	/* Pending: not handed out twice. */
	CHECK_EQ(mrc_ev_next_probe(&set, 1100), -ENOENT);
	mrc_ev_probe_result(&set, 2, true, 1150);
	CHECK_EQ(set.evs[2].state, MRC_EV_ASSUMED_BAD);
	CHECK_EQ(mrc_ev_next_probe(&set, 1150), 2);
	mrc_ev_probe_result(&set, 2, true, 1200);
	CHECK_EQ(set.evs[2].state, MRC_EV_GOOD);
	CHECK_EQ(set.evs[2].probes, 2);
	CHECK_EQ(set.usable, 4);
	/* A stray result changes nothing. */
	mrc_ev_probe_result(&set, 2, false, 1300);
	CHECK_EQ(set.evs[2].state, MRC_EV_GOOD);
}

static void probe_failure_backs_off(void)
{
	make_set(1, 4, 1);
	CHECK(mrc_ev_on_loss(&set, 0, 0));
	CHECK_EQ(mrc_ev_next_probe(&set, 100), 0);
	mrc_ev_probe_result(&set, 0, false, 200);
	/* Next after 100 << 1 us. */
	CHECK_EQ(mrc_ev_next_probe(&set, 399), -ENOENT);
	CHECK_EQ(mrc_ev_next_probe(&set, 400), 0);
	mrc_ev_probe_result(&set, 0, true, 410);
	CHECK_EQ(mrc_ev_next_probe(&set, 410), 0);
	/* A failure restarts the count of successes. */
	mrc_ev_probe_result(&set, 0, false, 420);
	CHECK_EQ(set.evs[0].probe_successes, 0);
	CHECK_EQ(mrc_ev_next_probe(&set, 819), -ENOENT);
	CHECK_EQ(mrc_ev_next_probe(&set, 820), 0);
	CHECK_EQ(set.evs[0].state, MRC_EV_ASSUMED_BAD);
}

/*
 * A probe unanswered for the timeout fails as a reported failure would;
 * a reply after that is not taken. Probes that stop being awaited some
 * other way (the EV denied, its plane back) leave the count of pending
 * ones, so the scan stops as soon as none is left.
 */
static void probe_expiry_fails_unanswered(void)
{
	make_set(2, 4, 1);
	CHECK(mrc_ev_on_loss(&set, 0, 0));
	CHECK(mrc_ev_on_loss(&set, 1, 0));
	CHECK(mrc_ev_on_loss(&set, 2, 0));
	CHECK_EQ(mrc_ev_next_probe(&set, 100), 0);
	CHECK_EQ(mrc_ev_next_probe(&set, 150), 1);
	CHECK_EQ(mrc_ev_next_probe(&set, 160), 2);
	CHECK_EQ(set.probes_pending, 3);
	CHECK_EQ(set.evs[1].probe_sent_us, 150);
	/* Short of the timeout: nothing fails. */
	CHECK_EQ(mrc_ev_probe_expire(&set, 1099, 1000), 0);
	CHECK(set.evs[0].probe_pending);
	/* EV 0's timeout: it fails, backs off; EV 1's comes later. */
	CHECK_EQ(mrc_ev_probe_expire(&set, 1100, 1000), 1);
	CHECK(!set.evs[0].probe_pending && set.evs[1].probe_pending);
	CHECK_EQ(set.evs[0].probe_backoff, 1);
	CHECK_EQ(set.evs[0].probe_due_us, 1100 + (100u << 1));
	CHECK_EQ(set.probes_pending, 2);
	/* Its reply, too late, is not taken; EV 1's, in time, is. */
	CHECK(!mrc_ev_probe_result(&set, 0, true, 1120));
	CHECK_EQ(set.evs[0].probe_successes, 0);
	CHECK(mrc_ev_probe_result(&set, 1, true, 1120));
	CHECK_EQ(set.evs[1].probe_successes, 1);
	CHECK_EQ(set.probes_pending, 1);
	/* Denied while its probe is out: no longer awaited. */
	mrc_ev_deny(&set, 2);
	CHECK_EQ(set.probes_pending, 0);
	CHECK(!set.evs[2].probe_pending);
	CHECK_EQ(mrc_ev_probe_expire(&set, 5000, 1000), 0);
	CHECK(!mrc_ev_probe_result(&set, 2, false, 5000));
	/* Its plane going down (and back) forgets the probe out on it. */
	CHECK_EQ(mrc_ev_next_probe(&set, 5000), 0);
	CHECK_EQ(set.probes_pending, 1);
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, true, 5000);
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, false, 5010);
	CHECK_EQ(set.probes_pending, 0);
	CHECK_EQ(mrc_ev_probe_expire(&set, 0x7fffffff, 1), 0);
}

static void probe_time_wraps(void)
{
	make_set(1, 2, 1);
	CHECK(mrc_ev_on_loss(&set, 1, 0xffffffc0u));
	CHECK_EQ(mrc_ev_next_probe(&set, 0xfffffff0u), -ENOENT);
	CHECK_EQ(mrc_ev_next_probe(&set, 0x30), 1);
}

static void deny_and_allow(void)
{
	u32 i;

	make_set(2, 2, 3);
	mrc_ev_deny(&set, 0);
	mrc_ev_deny(&set, 1);
	/* Denial ignores the floor. */
	CHECK_EQ(set.usable, 2);
	CHECK_EQ(count_state(MRC_EV_DENIED), 2);
	for (i = 0; i < 10; i++) {
		int ev = mrc_ev_pick(&set, -1);

		CHECK(ev == 2 || ev == 3);
	}
	CHECK_EQ(mrc_ev_next_probe(&set, 1000000), -ENOENT);
	mrc_ev_allow(&set, 0);
	CHECK_EQ(set.evs[0].state, MRC_EV_UNKNOWN);
	CHECK_EQ(set.usable, 3);
	/* Allowing what is not denied does nothing. */
	mrc_ev_allow(&set, 2);
	CHECK_EQ(set.evs[2].state, MRC_EV_UNKNOWN);
}

static void plane_down_removes_all_at_once(void)
{
	u32 i;
	int ev;

	make_set(4, 4, 15);	/* the floor must not matter */
	for (i = 0; i < 16; i++)
		mrc_ev_on_ack(&set, i, 1);
	CHECK_EQ(mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 0),
		 MRC_EV_PLANE_DOWN);
	CHECK_EQ(set.usable, 12);
	CHECK(!mrc_ev_plane_usable(&set, 1));
	for (i = 4; i < 8; i++) {
		CHECK_EQ(set.evs[i].state, MRC_EV_ASSUMED_BAD);
		CHECK(!mrc_ev_usable(&set, i));
	}
	for (i = 0; i < 300; i++) {
		ev = mrc_ev_pick(&set, -1);
		CHECK(ev >= 0 && set.evs[ev].plane != 1);
	}
	/* A down plane is not probed. */
	CHECK_EQ(mrc_ev_next_probe(&set, 1000000), -ENOENT);
	/* Balance holds on the remaining planes. */
	CHECK(imbalance_x1000() <= 1500);
}

static void plane_up_returns_only_after_probes(void)
{
	u32 i, now = 5000;
	int ev, probed = 0;

	make_set(2, 4, 1);
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, true, 0);
	/* Peer denial and carrier are separate: both must clear. */
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_PEER_DENIED, true, 0);
	CHECK_EQ(mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, false, now),
		 MRC_EV_PLANE_PEER_DENIED);
	CHECK_EQ(mrc_ev_next_probe(&set, now), -ENOENT);
	CHECK_EQ(mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_PEER_DENIED, false,
				  now), 0);
	CHECK(mrc_ev_plane_usable(&set, 0));

	/* Up, but its EVs are not sprayed on before probes succeed. */
	CHECK_EQ(set.usable, 4);
	for (i = 0; i < 40; i++) {
		ev = mrc_ev_pick(&set, -1);
		CHECK(ev >= 4);
	}
	/* Every EV of the plane is due for a probe at once. */
	while ((ev = mrc_ev_next_probe(&set, now)) >= 0) {
		CHECK(ev < 4);
		probed++;
		mrc_ev_probe_result(&set, (u32)ev, true, now);
	}
	CHECK_EQ(probed, 8);	/* probes_to_good = 2 for each of 4 */
	CHECK_EQ(set.usable, 8);
	CHECK_EQ(count_state(MRC_EV_GOOD), 4);
	for (i = 0; i < 80; i++)
		mrc_ev_pick(&set, -1);
	for (i = 0; i < 4; i++)
		CHECK(set.evs[i].sent > 0);
}

static void no_usable_ev(void)
{
	make_set(2, 1, 1);
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, true, 0);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 0);
	CHECK_EQ(set.usable, 0);
	CHECK_EQ(mrc_ev_pick(&set, -1), -EHOSTUNREACH);
	CHECK_EQ(mrc_ev_pick(&set, 0), -EHOSTUNREACH);
	/* Every plane down: not even a last resort. */
	CHECK_EQ(mrc_ev_pick_last_resort(&set), -EHOSTUNREACH);
	/* Denied while down, allowed while down: still waits for probes. */
	mrc_ev_deny(&set, 0);
	mrc_ev_allow(&set, 0);
	CHECK_EQ(set.evs[0].state, MRC_EV_ASSUMED_BAD);
	CHECK_EQ(set.usable, 0);
}

/*
 * The planes back, their EVs not yet probed: nothing is usable, but a
 * packet that cannot wait goes on a bad EV of a plane that is up, in
 * turn, and the EV stays bad. Denied EVs and down planes are never used.
 */
static void last_resort_when_nothing_is_usable(void)
{
	u64 sent;
	int ev, i;

	make_set(2, 2, 1);
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, true, 0);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 0);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, false, 10);
	CHECK_EQ(mrc_ev_pick(&set, -1), -EHOSTUNREACH);
	sent = set.evs[2].sent + set.evs[3].sent;
	for (i = 0; i < 4; i++) {
		ev = mrc_ev_pick_last_resort(&set);
		CHECK(ev == 2 || ev == 3);
	}
	CHECK_EQ(set.evs[2].sent + set.evs[3].sent, sent + 4);
	CHECK_EQ(set.evs[2].sent, set.evs[3].sent);
	CHECK_EQ(set.evs[2].state, MRC_EV_ASSUMED_BAD);
	CHECK_EQ(set.usable, 0);
	mrc_ev_deny(&set, 2);
	for (i = 0; i < 3; i++)
		CHECK_EQ(mrc_ev_pick_last_resort(&set), 3);
	mrc_ev_deny(&set, 3);
	CHECK_EQ(mrc_ev_pick_last_resort(&set), -EHOSTUNREACH);
}

/* The times debugfs shows: last timed state change and last loss. */
static void stamps_record_changes_and_losses(void)
{
	make_set(2, 2, 1);
	CHECK(!set.evs[0].changed);
	mrc_ev_on_ack(&set, 0, 1);	/* untimed: no stamp */
	CHECK(!set.evs[0].changed);
	CHECK(mrc_ev_on_loss(&set, 0, 1000));
	CHECK(set.evs[0].changed);
	CHECK_EQ(set.evs[0].changed_us, 1000);
	CHECK_EQ(set.evs[0].lost_us, 1000);
	/* A later loss on it (in flight when it went bad): no new change. */
	CHECK(mrc_ev_on_loss(&set, 0, 1500));
	CHECK_EQ(set.evs[0].changed_us, 1000);
	CHECK_EQ(set.evs[0].lost_us, 1500);
	/* Back to GOOD through probes: stamped at the deciding result. */
	CHECK_EQ(mrc_ev_next_probe(&set, 1100), 0);
	mrc_ev_probe_result(&set, 0, true, 1600);
	CHECK_EQ(mrc_ev_next_probe(&set, 1600), 0);
	mrc_ev_probe_result(&set, 0, true, 1700);
	CHECK_EQ(set.evs[0].state, MRC_EV_GOOD);
	CHECK_EQ(set.evs[0].changed_us, 1700);
	/* A plane going down stamps each of its EVs. */
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 2000);
	CHECK(set.evs[2].changed && set.evs[3].changed);
	CHECK_EQ(set.evs[2].changed_us, 2000);
	CHECK_EQ(set.evs[3].changed_us, 2000);
	CHECK_EQ(set.evs[2].lost, 0);
}

/*
 * What a caller's probe timer is armed for: the earliest due probe of a
 * bad EV on a usable plane, or the timeout of a pending one; nothing
 * while every EV is usable, nor for a down plane's or a denied EV.
 */
static void probe_wait_covers_due_and_pending(void)
{
	u32 wait = 12345;

	make_set(2, 2, 1);
	CHECK(!mrc_ev_probe_wait(&set, 0, 1000, &wait));
	CHECK_EQ(wait, 12345);
	CHECK(mrc_ev_on_loss(&set, 0, 100));
	CHECK_EQ(set.retired, 1);
	CHECK(mrc_ev_probe_wait(&set, 150, 1000, &wait));
	CHECK_EQ(wait, 50);	/* due at 100 + probe_interval_us */
	CHECK(mrc_ev_probe_wait(&set, 300, 1000, &wait));
	CHECK_EQ(wait, 0);	/* overdue: now */
	/* Pending: its timeout, as mrc_ev_probe_expire() would fail it. */
	CHECK_EQ(mrc_ev_next_probe(&set, 300), 0);
	CHECK(mrc_ev_probe_wait(&set, 400, 1000, &wait));
	CHECK_EQ(wait, 900);
	CHECK_EQ(mrc_ev_probe_expire(&set, 1299, 1000), 0);
	CHECK_EQ(mrc_ev_probe_expire(&set, 1300, 1000), 1);
	/* Failed: the next one after the backed-off interval. */
	CHECK(mrc_ev_probe_wait(&set, 1300, 1000, &wait));
	CHECK_EQ(wait, 200);
	/* The earliest of several EVs. */
	CHECK(mrc_ev_on_loss(&set, 2, 1400));
	CHECK(mrc_ev_probe_wait(&set, 1400, 1000, &wait));
	CHECK_EQ(wait, 100);
	/* A down plane is not probed: nothing to wait for on it. */
	mrc_ev_plane_set(&set, 0, MRC_EV_PLANE_DOWN, true, 1450);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 1450);
	CHECK_EQ(set.retired, 4);
	CHECK(!mrc_ev_probe_wait(&set, 1500, 1000, &wait));
	/* Up again: every EV of the plane is due at once. */
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, false, 1600);
	CHECK(mrc_ev_probe_wait(&set, 1700, 1000, &wait));
	CHECK_EQ(wait, 0);
	/* Denied EVs are not probed either; the count follows. */
	mrc_ev_deny(&set, 2);
	mrc_ev_deny(&set, 3);
	CHECK_EQ(set.retired, 2);
	CHECK(!mrc_ev_probe_wait(&set, 1700, 1000, &wait));
	mrc_ev_allow(&set, 3);
	CHECK_EQ(set.evs[3].state, MRC_EV_UNKNOWN);
	CHECK_EQ(set.retired, 2);
	/* Wrapping time. */
	make_set(1, 1, 0);
	CHECK(mrc_ev_on_loss(&set, 0, 0xffffff00u));
	CHECK(mrc_ev_probe_wait(&set, 0xffffff10u, 1000, &wait));
	CHECK_EQ(wait, 0x100 - 0x10 + 100 - 0x100);
	CHECK(mrc_ev_probe_wait(&set, 0x10, 1000, &wait));
	CHECK_EQ(wait, 0);
}

/* What the watcher heard, in order. */
static struct {
	u32 ev;
	u8 old_state, new_state, why;
} heard[16];
static u32 n_heard;

static void watcher(void *ctx, u32 ev, u8 old_state, u8 new_state, u8 why)
{
	CHECK(ctx == &set);
	/* Told after the change: the set is consistent already. */
	CHECK_EQ(set.evs[ev].state, new_state);
	if (n_heard < sizeof(heard) / sizeof(heard[0]))
		heard[n_heard] = (typeof(heard[0])){ ev, old_state, new_state,
						     why };
	n_heard++;
}

static bool heard_is(u32 i, u32 ev, u8 old_state, u8 new_state, u8 why)
{
	return i < n_heard && heard[i].ev == ev &&
	       heard[i].old_state == old_state &&
	       heard[i].new_state == new_state && heard[i].why == why;
}

static void watcher_hears_each_change_and_why(void)
{
	make_set(2, 2, 1);	/* plane 0: EVs 0, 1; plane 1: EVs 2, 3 */
	n_heard = 0;
	mrc_ev_set_watch(&set, watcher, &set);
	mrc_ev_on_ack(&set, 0, 1);
	CHECK(heard_is(0, 0, MRC_EV_UNKNOWN, MRC_EV_GOOD, MRC_EV_WHY_ACK));
	CHECK(mrc_ev_on_loss(&set, 0, 1000));
	CHECK(heard_is(1, 0, MRC_EV_GOOD, MRC_EV_ASSUMED_BAD,
		       MRC_EV_WHY_LOSS));
	/* Already bad: a second loss changes nothing, says nothing. */
	CHECK(mrc_ev_on_timeout(&set, 0, 1010));
	CHECK_EQ(n_heard, 2);
	CHECK_EQ(mrc_ev_next_probe(&set, 1100), 0);
	mrc_ev_probe_result(&set, 0, true, 1150);
	CHECK_EQ(n_heard, 2);	/* one success is not enough */
	CHECK_EQ(mrc_ev_next_probe(&set, 1150), 0);
	mrc_ev_probe_result(&set, 0, true, 1200);
	CHECK(heard_is(2, 0, MRC_EV_ASSUMED_BAD, MRC_EV_GOOD,
		       MRC_EV_WHY_PROBES));
	CHECK(mrc_ev_on_timeout(&set, 1, 1220));
	CHECK(heard_is(3, 1, MRC_EV_UNKNOWN, MRC_EV_ASSUMED_BAD,
		       MRC_EV_WHY_TIMEOUT));
	/* A plane down retires its EVs, each told once. */
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 1300);
	CHECK(heard_is(4, 2, MRC_EV_UNKNOWN, MRC_EV_ASSUMED_BAD,
		       MRC_EV_WHY_PLANE));
	CHECK(heard_is(5, 3, MRC_EV_UNKNOWN, MRC_EV_ASSUMED_BAD,
		       MRC_EV_WHY_PLANE));
	mrc_ev_deny(&set, 2);
	CHECK(heard_is(6, 2, MRC_EV_ASSUMED_BAD, MRC_EV_DENIED,
		       MRC_EV_WHY_DENY));
	/* Allowed on a plane still down: back to ASSUMED_BAD, for the plane. */
	mrc_ev_allow(&set, 2);
	CHECK(heard_is(7, 2, MRC_EV_DENIED, MRC_EV_ASSUMED_BAD,
		       MRC_EV_WHY_PLANE));
	mrc_ev_deny(&set, 0);
	mrc_ev_allow(&set, 0);
	CHECK(heard_is(9, 0, MRC_EV_DENIED, MRC_EV_UNKNOWN,
		       MRC_EV_WHY_ALLOW));
	CHECK_EQ(n_heard, 10);
	/* A new set forgets its watcher. */
	make_set(1, 2, 1);
	CHECK(set.watch == NULL);
	CHECK(mrc_ev_on_loss(&set, 0, 0));
	CHECK_EQ(n_heard, 10);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(init_rejects_bad_input),
	KTAP_CASE(init_groups_by_plane),
	KTAP_CASE(picks_alternate_planes),
	KTAP_CASE(balance_over_many_picks),
	KTAP_CASE(ack_makes_unknown_good),
	KTAP_CASE(loss_retires_at_once_and_avoids),
	KTAP_CASE(avoid_used_when_it_is_all),
	KTAP_CASE(floor_keeps_min_active),
	KTAP_CASE(probes_bring_back_after_successes),
	KTAP_CASE(probe_failure_backs_off),
	KTAP_CASE(probe_expiry_fails_unanswered),
	KTAP_CASE(probe_time_wraps),
	KTAP_CASE(deny_and_allow),
	KTAP_CASE(plane_down_removes_all_at_once),
	KTAP_CASE(plane_up_returns_only_after_probes),
	KTAP_CASE(no_usable_ev),
	KTAP_CASE(last_resort_when_nothing_is_usable),
	KTAP_CASE(stamps_record_changes_and_losses),
	KTAP_CASE(probe_wait_covers_due_and_pending),
	KTAP_CASE(watcher_hears_each_change_and_why),
};

KTAP_MAIN("ev", cases)
