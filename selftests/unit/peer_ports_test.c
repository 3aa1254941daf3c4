// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the peers' port status (mrc_peer_ports.c): which planes a
 * status says are down, the device's table of peers (bounded, keyed by
 * address, forgetting a peer whose ports are all up), and which EVs of a
 * connection go down and come back when it is applied.
 */
#include "ktap.h"
#include "ev_set_fixture.h"
#include "mrc_peer_ports.h"

static struct mrc_ev evs[MRC_EV_MAX];
static struct mrc_ev_set set;
static struct mrc_peer_ports table;

static void make_set(u8 planes, u32 per_plane)
{
	ev_set_fixture(&set, evs, planes, per_plane);
}

/* An address: IPv4-mapped 192.0.2.@host. */
static void addr_of(u8 host, u8 *a)
{
	memset(a, 0, MRC_PEER_ADDR_LEN);
	a[10] = 0xff;
	a[11] = 0xff;
	a[12] = 192;
	a[14] = 2;
	a[15] = host;
}

/* The planes of the set on which some EV is usable. */
static u8 usable_planes(void)
{
	u8 mask = 0;
	u32 i;

	for (i = 0; i < set.n_evs; i++)
		if (mrc_ev_usable(&set, i))
			mask |= 1u << set.evs[i].plane;
	return mask;
}

static u32 count_on_plane(u8 plane, u8 state)
{
	u32 i, n = 0;

	for (i = 0; i < set.n_evs; i++)
		n += set.evs[i].plane == plane && set.evs[i].state == state;
	return n;
}

static void down_mask_from_status(void)
{
	CHECK_EQ(mrc_peer_ports_down_mask(2, 0x1), 0x2);
	CHECK_EQ(mrc_peer_ports_down_mask(2, 0x3), 0);
	CHECK_EQ(mrc_peer_ports_down_mask(8, 0x81), 0x7e);
	CHECK_EQ(mrc_peer_ports_down_mask(4, 0x5), 0xa);
	/* Bits beyond the sender's ports say nothing. */
	CHECK_EQ(mrc_peer_ports_down_mask(2, 0xfd), 0x2);
	CHECK_EQ(mrc_peer_ports_down_mask(0, 0), 0);
	CHECK_EQ(mrc_peer_ports_down_mask(200, 0x7f), 0x80);
}

static void table_keyed_by_address(void)
{
	u8 a[MRC_PEER_ADDR_LEN], b[MRC_PEER_ADDR_LEN];

	mrc_peer_ports_init(&table);
	addr_of(1, a);
	addr_of(2, b);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0);
	/* All up about a peer it does not know: nothing to record. */
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0), 0);
	CHECK_EQ(table.n, 0);
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0x2), 1);
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0x2), 0);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0x2);
	/* Another peer's word is its own. */
	CHECK_EQ(mrc_peer_ports_lookup(&table, b), 0);
	CHECK_EQ(mrc_peer_ports_update(&table, b, 0x1), 1);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0x2);
	CHECK_EQ(mrc_peer_ports_lookup(&table, b), 0x1);
	/* A later status replaces the earlier, not adds to it. */
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0x4), 1);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0x4);
	/* All up forgets the peer, and only that one. */
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0), 1);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0);
	CHECK_EQ(mrc_peer_ports_lookup(&table, b), 0x1);
	CHECK_EQ(table.n, 1);
	/* IPv4-mapped 192.0.2.1 is not ::192.0.2.1. */
	a[10] = 0;
	a[11] = 0;
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0);
}

static void table_is_bounded(void)
{
	u8 a[MRC_PEER_ADDR_LEN];
	u32 i;

	mrc_peer_ports_init(&table);
	for (i = 0; i < MRC_PEER_PORTS_MAX; i++) {
		addr_of((u8)i, a);
		a[13] = 1;
		CHECK_EQ(mrc_peer_ports_update(&table, a, 0x1), 1);
	}
	CHECK_EQ(table.n, MRC_PEER_PORTS_MAX);
	/* One more peer with a port down: refused, nothing recorded. */
	addr_of(200, a);
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0x1), -ENOSPC);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0);
	/* Its "all up" needs no room; known peers still update. */
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0), 0);
	addr_of(5, a);
	a[13] = 1;
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0x3), 1);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0x3);
	/* A peer that comes back up makes room. */
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0), 1);
	addr_of(200, a);
	CHECK_EQ(mrc_peer_ports_update(&table, a, 0x1), 1);
	CHECK_EQ(mrc_peer_ports_lookup(&table, a), 0x1);
	/* Every other entry survived the swap. */
	for (i = 0; i < MRC_PEER_PORTS_MAX; i++) {
		addr_of((u8)i, a);
		a[13] = 1;
		CHECK_EQ(mrc_peer_ports_lookup(&table, a), i == 5 ? 0 : 0x1);
	}
}

/* Port 2 (plane 1) down: its EVs retire at once, the others carry on. */
static void apply_down_then_up(void)
{
	u32 i;
	int ev;

	make_set(2, 8);
	CHECK_EQ(mrc_peer_ports_apply(&set, 0x2, 1000), 0x2);
	CHECK_EQ(count_on_plane(1, MRC_EV_ASSUMED_BAD), 8);
	CHECK_EQ(count_on_plane(0, MRC_EV_UNKNOWN), 8);
	CHECK_EQ(usable_planes(), 0x1);
	CHECK_EQ(set.plane_flags[1], MRC_EV_PLANE_PEER_PORT_DOWN);
	/* Every pick avoids plane 1, and nothing probes it. */
	for (i = 0; i < 100; i++) {
		ev = mrc_ev_pick(&set, -1);
		CHECK(ev >= 0 && set.evs[ev].plane == 0);
	}
	CHECK_EQ(mrc_ev_next_probe(&set, 1000000), -ENOENT);
	/* The same status again changes nothing. */
	CHECK_EQ(mrc_peer_ports_apply(&set, 0x2, 2000), 0);
	/* All up: plane 1's EVs are probed at once, and come back by probes. */
	CHECK_EQ(mrc_peer_ports_apply(&set, 0, 3000), 0x2);
	CHECK_EQ(set.plane_flags[1], 0);
	CHECK_EQ(usable_planes(), 0x1);
	for (i = 0; i < 8 * MRC_EV_DEFAULT_PROBES_TO_GOOD; i++) {
		ev = mrc_ev_next_probe(&set, 3000 + 2 * i);
		CHECK(ev >= 0 && set.evs[ev].plane == 1);
		if (ev < 0)
			break;
		CHECK(mrc_ev_probe_result(&set, (u32)ev, true, 3001 + 2 * i));
	}
	CHECK_EQ(count_on_plane(1, MRC_EV_GOOD), 8);
	CHECK_EQ(usable_planes(), 0x3);
}

/*
 * The peer's port status is a reason of its own: our carrier coming back,
 * or the peer QP's PLANE_STATE clearing its denial, does not undo it, and
 * its clearing does not undo theirs.
 */
static void apply_keeps_other_reasons(void)
{
	make_set(4, 4);
	mrc_ev_plane_set(&set, 2, MRC_EV_PLANE_PEER_DENIED, true, 10);
	CHECK_EQ(mrc_peer_ports_apply(&set, 0x6, 20), 0x6);
	CHECK_EQ(set.plane_flags[2],
		 MRC_EV_PLANE_PEER_DENIED | MRC_EV_PLANE_PEER_PORT_DOWN);
	mrc_ev_plane_set(&set, 2, MRC_EV_PLANE_PEER_DENIED, false, 30);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, true, 30);
	mrc_ev_plane_set(&set, 1, MRC_EV_PLANE_DOWN, false, 40);
	CHECK_EQ(usable_planes(), 0x9);
	CHECK_EQ(mrc_ev_next_probe(&set, 50), -ENOENT);
	/* Port 2 back up; port 3 (plane 2) still down. */
	CHECK_EQ(mrc_peer_ports_apply(&set, 0x4, 60), 0x2);
	CHECK_EQ(set.plane_flags[1], 0);
	CHECK_EQ(set.plane_flags[2], MRC_EV_PLANE_PEER_PORT_DOWN);
	CHECK_EQ(count_on_plane(1, MRC_EV_ASSUMED_BAD), 4);
	CHECK_EQ(count_on_plane(2, MRC_EV_ASSUMED_BAD), 4);
	CHECK(set.evs[mrc_ev_next_probe(&set, 60)].plane == 1);
	/* Our own plane down under it: clearing the peer's leaves ours. */
	mrc_ev_plane_set(&set, 2, MRC_EV_PLANE_DOWN, true, 70);
	CHECK_EQ(mrc_peer_ports_apply(&set, 0, 80), 0x4);
	CHECK_EQ(set.plane_flags[2], MRC_EV_PLANE_DOWN);
	CHECK_EQ(set.plane_flags[3], 0);
	CHECK_EQ(count_on_plane(3, MRC_EV_UNKNOWN), 4);
}

/* Planes the set lacks are left out; a denied EV stays denied. */
static void apply_edges(void)
{
	u32 i;

	make_set(2, 4);
	mrc_ev_deny(&set, 0);
	CHECK_EQ(mrc_peer_ports_apply(&set, 0xfc, 5), 0);
	CHECK_EQ(usable_planes(), 0x3);
	CHECK_EQ(mrc_peer_ports_apply(&set, 0x1, 5), 0x1);
	CHECK_EQ(set.evs[0].state, MRC_EV_DENIED);
	CHECK_EQ(count_on_plane(0, MRC_EV_ASSUMED_BAD), 3);
	CHECK_EQ(mrc_peer_ports_apply(&set, 0, 6), 0x1);
	mrc_ev_allow(&set, 0);
	for (i = 0; i < set.n_evs; i++)
		if (set.evs[i].plane == 0)
			CHECK(set.evs[i].state == MRC_EV_ASSUMED_BAD ||
			      set.evs[i].state == MRC_EV_UNKNOWN);
	/* The whole peer down (a status the codec refuses): nothing usable. */
	CHECK_EQ(mrc_peer_ports_apply(&set, 0x3, 7), 0x3);
	CHECK_EQ(mrc_ev_pick(&set, -1), -EHOSTUNREACH);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(down_mask_from_status),
	KTAP_CASE(table_keyed_by_address),
	KTAP_CASE(table_is_bounded),
	KTAP_CASE(apply_down_then_up),
	KTAP_CASE(apply_keeps_other_reasons),
	KTAP_CASE(apply_edges),
};

KTAP_MAIN("peer_ports", cases)
