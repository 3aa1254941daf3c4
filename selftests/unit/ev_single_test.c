// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of spraying off (mrc_ev_single.c): one connection keeps to one
 * EV, connections spread over the EVs, a retired EV is left and returned
 * to, and the avoid and nothing-usable rules match mrc_ev_pick()'s.
 */
#include "ktap.h"
#include "ev_set_fixture.h"
#include "mrc_ev_single.h"

static struct mrc_ev evs[MRC_EV_MAX];
static struct mrc_ev_set set;

static void make_set(u8 planes, u32 per_plane)
{
	ev_set_fixture(&set, evs, planes, per_plane);
}

static u32 evs_used(void)
{
	u32 i, n = 0;

	for (i = 0; i < set.n_evs; i++)
		n += set.evs[i].sent != 0;
	return n;
}

static void one_connection_keeps_one_ev(void)
{
	u32 key = mrc_ev_single_key(17, 18), i;
	int first;

	make_set(2, 16);
	first = mrc_ev_pick_single(&set, key, -1);
	CHECK(first >= 0);
	for (i = 0; i < 999; i++)
		CHECK_EQ(mrc_ev_pick_single(&set, key, -1), first);
	CHECK_EQ(evs_used(), 1);
	CHECK_EQ(set.evs[first].sent, 1000);
}

static void key_depends_on_both_qpns(void)
{
	CHECK_EQ(mrc_ev_single_key(17, 18), mrc_ev_single_key(17, 18));
	CHECK(mrc_ev_single_key(17, 18) != mrc_ev_single_key(18, 17));
	CHECK(mrc_ev_single_key(17, 18) != mrc_ev_single_key(17, 19));
	CHECK(mrc_ev_single_key(17, 18) != mrc_ev_single_key(16, 18));
}

/*
 * Consecutive QPNs, as a host creates them, land on many EVs: 512
 * connections over 32 EVs use them all, none with more than 3x its share.
 */
static void connections_spread_over_evs(void)
{
	u32 count[32] = { 0 }, qpn, i, max = 0, used = 0;

	make_set(2, 16);
	for (qpn = 17; qpn < 17 + 512; qpn++) {
		int ev = mrc_ev_pick_single(&set,
					    mrc_ev_single_key(qpn, qpn + 1000),
					    -1);

		CHECK(ev >= 0 && ev < 32);
		if (ev >= 0 && ev < 32)
			count[ev]++;
	}
	for (i = 0; i < 32; i++) {
		used += count[i] != 0;
		if (count[i] > max)
			max = count[i];
	}
	printf("# 512 connections on 32 EVs: %u used, busiest %u (mean 16)\n",
	       used, max);
	CHECK_EQ(used, 32);
	CHECK(max <= 48);
}

static void retired_ev_is_left_then_returned_to(void)
{
	u32 key = mrc_ev_single_key(40, 41), i;
	int first, second;

	make_set(2, 8);
	first = mrc_ev_pick_single(&set, key, -1);
	CHECK(first >= 0);
	CHECK(mrc_ev_on_loss(&set, (u32)first, 0));
	CHECK_EQ(set.evs[first].state, MRC_EV_ASSUMED_BAD);
	second = mrc_ev_pick_single(&set, key, -1);
	CHECK(second >= 0 && second != first);
	/* It stays on its second EV while the first is out. */
	for (i = 0; i < 100; i++)
		CHECK_EQ(mrc_ev_pick_single(&set, key, -1), second);
	CHECK_EQ(set.evs[first].sent, 1);
	/* Probes bring the first back, and the connection returns to it. */
	for (i = 0; i < MRC_EV_DEFAULT_PROBES_TO_GOOD; i++) {
		u32 now = 1000000 * (i + 1);

		CHECK_EQ(mrc_ev_next_probe(&set, now), first);
		mrc_ev_probe_result(&set, (u32)first, true, now);
	}
	CHECK_EQ(set.evs[first].state, MRC_EV_GOOD);
	CHECK_EQ(mrc_ev_pick_single(&set, key, -1), first);
}

/* Connections that lose the same EV do not all move to the same other. */
static void failover_spreads(void)
{
	u32 qpn, count[32] = { 0 }, i, used = 0, moved = 0;
	int victim;

	make_set(2, 16);
	victim = mrc_ev_pick_single(&set, mrc_ev_single_key(17, 1017), -1);
	CHECK(victim >= 0);
	if (victim < 0)
		return;
	mrc_ev_deny(&set, (u32)victim);
	for (qpn = 17; qpn < 17 + 2048; qpn++) {
		u32 key = mrc_ev_single_key(qpn, qpn + 1000);
		int ev;

		/* Only the connections whose own EV is the victim. */
		if ((((u64)key * set.n_evs) >> 32) != (u32)victim)
			continue;
		ev = mrc_ev_pick_single(&set, key, -1);
		CHECK(ev >= 0 && ev != victim);
		if (ev >= 0 && ev < 32)
			count[ev]++;
		moved++;
	}
	for (i = 0; i < 32; i++)
		used += count[i] != 0;
	printf("# %u connections off a denied EV went to %u others\n", moved,
	       used);
	CHECK(moved >= 32);
	CHECK(used >= 16);
}

static void avoid_and_nothing_usable(void)
{
	u32 key = mrc_ev_single_key(7, 8), i;
	int first, ev;

	make_set(1, 4);
	first = mrc_ev_pick_single(&set, key, -1);
	CHECK(first >= 0);
	/* A retransmission avoiding its EV goes elsewhere... */
	ev = mrc_ev_pick_single(&set, key, first);
	CHECK(ev >= 0 && ev != first);
	/* ...unless nothing else is usable. */
	for (i = 0; i < 4; i++)
		if ((int)i != first)
			mrc_ev_deny(&set, i);
	CHECK_EQ(mrc_ev_pick_single(&set, key, first), first);
	mrc_ev_deny(&set, (u32)first);
	CHECK_EQ(mrc_ev_pick_single(&set, key, -1), -EHOSTUNREACH);
	CHECK_EQ(mrc_ev_pick_single(&set, key, first), -EHOSTUNREACH);
}

static void plane_down_moves_to_other_plane(void)
{
	u32 key = mrc_ev_single_key(99, 100);
	int first, ev;

	make_set(2, 4);
	first = mrc_ev_pick_single(&set, key, -1);
	CHECK(first >= 0);
	if (first < 0)
		return;
	mrc_ev_plane_set(&set, set.evs[first].plane, MRC_EV_PLANE_DOWN, true,
			 0);
	ev = mrc_ev_pick_single(&set, key, -1);
	CHECK(ev >= 0);
	if (ev >= 0)
		CHECK(set.evs[ev].plane != set.evs[first].plane);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(one_connection_keeps_one_ev),
	KTAP_CASE(key_depends_on_both_qpns),
	KTAP_CASE(connections_spread_over_evs),
	KTAP_CASE(retired_ev_is_left_then_returned_to),
	KTAP_CASE(failover_spreads),
	KTAP_CASE(avoid_and_nothing_usable),
	KTAP_CASE(plane_down_moves_to_other_plane),
};

KTAP_MAIN("ev_single", cases)
