/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Address handles: where a UD or GSI QP sends one datagram.
 *
 * Every AH, kernel or user, gets a handle in mdev->ahs (never 0): a send
 * queue slot names its destination by that handle (mrc-abi.h), for kernel
 * QPs as for user ones, so the send path is one. The send path copies the
 * address out of the table under its lock (mrc_ah_lookup()), and
 * destroy_ah takes the AH out of the table first, so no datagram ever
 * reads a freed AH. A handle only resolves for a QP of the AH's PD, so a
 * process cannot send through another one's AHs.
 */
#ifndef MRC_AH_H
#define MRC_AH_H

#include <rdma/ib_verbs.h>

#include "mrc_net_addr.h"

/**
 * struct mrc_av - an address vector, as the transport uses it
 * @saddr: source IP address (the AH's source GID)
 * @daddr: destination IP address (its destination GID)
 * @traffic_class: DSCP and ECN bits of the IP header
 * @hop_limit: from the GRH (the IP layer picks the TTL from the route)
 * @flow_label: from the GRH
 */
struct mrc_av {
	struct mrc_net_addr saddr;
	struct mrc_net_addr daddr;
	u32 flow_label;
	u8 traffic_class;
	u8 hop_limit;
};

struct mrc_ah {
	struct ib_ah ibah;
	struct mrc_av av;
	u32 handle;
};

static inline struct mrc_ah *to_mrc_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct mrc_ah, ibah);
}

/*
 * Checks an address vector (RoCEv2 GIDs of port 1, unicast destination of
 * the source's IP family) and converts it. -EINVAL when it is not one.
 */
int mrc_av_from_attr(const struct rdma_ah_attr *attr, struct mrc_av *av);

/*
 * Any context. Copies the address of AH @handle into *@av when the AH
 * exists and belongs to @pd; -EINVAL otherwise.
 */
int mrc_ah_lookup(struct mrc_dev *mdev, u32 handle, struct ib_pd *pd,
		  struct mrc_av *av);

#endif /* MRC_AH_H */
