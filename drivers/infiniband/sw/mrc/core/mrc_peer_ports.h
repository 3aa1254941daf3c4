/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Peers' port status (EP_PORT_STATUS, Documentation/paths.rst "A peer's
 * ports"): a peer's controller tells our device which of the peer's ports
 * are down, so that our connections to that peer stop spraying onto the
 * planes that end there before their own losses tell them. The device
 * keeps the last status of each peer that has a port down, by address,
 * and each connection to such a peer flags those planes of its EV set
 * MRC_EV_PLANE_PEER_PORT_DOWN.
 *
 * Plain C; the caller serialises each table and each set.
 */
#ifndef MRC_PEER_PORTS_H
#define MRC_PEER_PORTS_H

#include "mrc_core_types.h"
#include "mrc_ev.h"

/*
 * Peers with a port down that a device remembers: a status from one more
 * is refused (not answered), so that forged sources cannot make the table
 * grow. A status with every port up frees its peer's entry.
 */
#define MRC_PEER_PORTS_MAX	64u
/* Addresses are 16 bytes: IPv6, or IPv4-mapped IPv6. */
#define MRC_PEER_ADDR_LEN	16u

/**
 * struct mrc_peer_port_entry - one peer with a port down
 * @addr: the peer's address
 * @down_mask: bit p set: the peer's plane (port p + 1) is down; never 0
 */
struct mrc_peer_port_entry {
	u8 addr[MRC_PEER_ADDR_LEN];
	u8 down_mask;
};

/**
 * struct mrc_peer_ports - the peers of one device that have a port down
 * @n: entries in use, @e[0 .. n - 1], in no order
 * @e: the entries
 */
struct mrc_peer_ports {
	u32 n;
	struct mrc_peer_port_entry e[MRC_PEER_PORTS_MAX];
};

void mrc_peer_ports_init(struct mrc_peer_ports *t);

/*
 * The planes a status of @n_ports ports with @up_mask up says are down:
 * the sender's ports not in the mask. Planes the sender does not have are
 * not down by its word: bits of @up_mask at or beyond @n_ports, and ports
 * beyond MRC_EV_MAX_PLANES, are ignored.
 */
u8 mrc_peer_ports_down_mask(u8 n_ports, u8 up_mask);

/*
 * Records that @addr's planes in @down_mask are down, and no others
 * (0: all up, which forgets @addr). Returns 1 when that changed what
 * the table says of @addr, 0 when not, -ENOSPC when @addr is new, has a
 * port down and the table is full (nothing recorded).
 */
int mrc_peer_ports_update(struct mrc_peer_ports *t, const u8 *addr,
			  u8 down_mask);

/* The planes of @addr that are down: 0 when the table has no entry. */
u8 mrc_peer_ports_lookup(const struct mrc_peer_ports *t, const u8 *addr);

/*
 * Makes @set agree with a peer's @down_mask: MRC_EV_PLANE_PEER_PORT_DOWN
 * set on each of its planes in the mask and cleared on the others, with
 * mrc_ev_plane_set()'s effects (the EVs of a newly flagged plane retire at
 * once; those of a plane with no flag left come back through probes).
 * Returns the planes whose flag changed.
 */
u8 mrc_peer_ports_apply(struct mrc_ev_set *set, u8 down_mask, u32 now_us);

#endif /* MRC_PEER_PORTS_H */
