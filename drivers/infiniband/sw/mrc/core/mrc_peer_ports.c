// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Peers' port status; see mrc_peer_ports.h.
 */
#include "mrc_peer_ports.h"

void mrc_peer_ports_init(struct mrc_peer_ports *t)
{
	memset(t, 0, sizeof(*t));
}

u8 mrc_peer_ports_down_mask(u8 n_ports, u8 up_mask)
{
	u32 all;

	if (!n_ports)
		return 0;
	if (n_ports > MRC_EV_MAX_PLANES)
		n_ports = MRC_EV_MAX_PLANES;
	all = (1u << n_ports) - 1;
	return (u8)(all & ~(u32)up_mask);
}

static int mrc_peer_ports_find(const struct mrc_peer_ports *t, const u8 *addr)
{
	u32 i;

	for (i = 0; i < t->n; i++)
		if (!memcmp(t->e[i].addr, addr, MRC_PEER_ADDR_LEN))
			return (int)i;
	return -1;
}

int mrc_peer_ports_update(struct mrc_peer_ports *t, const u8 *addr,
			  u8 down_mask)
{
	int i = mrc_peer_ports_find(t, addr);

	if (i < 0) {
		if (!down_mask)
			return 0;
		if (t->n >= MRC_PEER_PORTS_MAX)
			return -ENOSPC;
		memcpy(t->e[t->n].addr, addr, MRC_PEER_ADDR_LEN);
		t->e[t->n].down_mask = down_mask;
		t->n++;
		return 1;
	}
	if (t->e[i].down_mask == down_mask)
		return 0;
	if (down_mask) {
		t->e[i].down_mask = down_mask;
	} else {
		/* All up: the slot goes to the last entry. */
		t->e[i] = t->e[t->n - 1];
		t->n--;
	}
	return 1;
}

u8 mrc_peer_ports_lookup(const struct mrc_peer_ports *t, const u8 *addr)
{
	int i = mrc_peer_ports_find(t, addr);

	return i < 0 ? 0 : t->e[i].down_mask;
}

u8 mrc_peer_ports_apply(struct mrc_ev_set *set, u8 down_mask, u32 now_us)
{
	u8 changed = 0, p, before, on;

	for (p = 0; p < set->n_planes; p++) {
		before = set->plane_flags[p] & MRC_EV_PLANE_PEER_PORT_DOWN;
		on = down_mask & (1u << p);
		if (!before == !on)
			continue;
		mrc_ev_plane_set(set, p, MRC_EV_PLANE_PEER_PORT_DOWN, on,
				 now_us);
		changed |= 1u << p;
	}
	return changed;
}
