/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-device counters, shown by `rdma statistic show link DEV/1` and in
 * /sys/class/infiniband/DEV/ports/1/hw_counters. Documentation/counters.rst
 * says what each one counts.
 *
 * Every counter is declared here, in one enum, also those that no code
 * increments yet: later code only calls mrc_stats_inc()/mrc_stats_add().
 * The counters are per CPU, so the receive path on many CPUs shares no cache
 * line; a read sums them.
 */
#ifndef MRC_STATS_H
#define MRC_STATS_H

#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include <rdma/ib_verbs.h>

#include "mrc_wire.h"

struct mrc_dev;

enum mrc_counter {
	MRC_CNT_RX_PACKETS,		/* handed to the protocol (mrc_rcv()) */
	MRC_CNT_RX_BYTES,		/* their UDP payload bytes */
	MRC_CNT_TX_PACKETS,		/* accepted by the IP layer */
	MRC_CNT_TX_BYTES,		/* their UDP payload bytes */
	MRC_CNT_TX_ERRORS,		/* mrc_net_xmit() failed */
	MRC_CNT_RX_DROP_BAD_CHECKSUM,	/* IPv4 without UDP checksum */
	MRC_CNT_RX_DROP_NO_DEVICE,	/* per namespace, see counters.rst */
	MRC_CNT_RX_DROP_BAD_ADDRESS,	/* not unicast to one of our GIDs */
	MRC_CNT_RX_DROP_NO_MEMORY,	/* pulling the headers failed */
	/* One per enum mrc_drop_reason but MRC_DROP_NONE, in its order. */
	MRC_CNT_RX_DROP_WIRE,
	MRC_CNT_RX_DROP_NO_QP = MRC_CNT_RX_DROP_WIRE + MRC_DROP_REASON_COUNT - 1,
	MRC_CNT_RX_DROP_QP_STATE,	/* the QP cannot take it */
	MRC_CNT_RX_DROP_BAD_SOURCE_QP,	/* not from the QP's peer QP/address */
	MRC_CNT_RX_DROP_OUT_OF_WINDOW,	/* PSN outside the receive window */
	/* Reliability: the requester and responder (mrc_req.c, mrc_resp.c). */
	MRC_CNT_RETRANSMITS,
	MRC_CNT_OUT_OF_ORDER,
	MRC_CNT_DUPLICATES,
	MRC_CNT_TIMEOUTS,
	MRC_CNT_TRIMS,
	/* Datagrams (mrc_ud.c) a UD or GSI QP refused. */
	MRC_CNT_RX_DROP_BAD_QKEY,	/* Q_Key is not the QP's */
	MRC_CNT_RX_DROP_NO_RECV,	/* no receive posted */
	MRC_CNT_RX_DROP_RECV_TOO_SMALL,	/* GRH + payload exceed the buffer */
	MRC_CNT_RX_DROP_UD_TRIMMED,	/* cut by a switch */
	/* Paths (mrc_qp_paths.c, mrc_req.c). */
	MRC_CNT_EV_RETIRED,		/* an EV made ASSUMED_BAD by a loss */
	MRC_CNT_PROBES_SENT,
	MRC_CNT_PROBES_ANSWERED,	/* PROBE_REPLYs received */
	MRC_CNT_PROBES_LOST,		/* no reply in time */
	/* Retransmissions by cause, and congestion control (mrc_req.c). */
	MRC_CNT_RETRANSMITS_TRIM,	/* for a TRIMMED NAK */
	MRC_CNT_RETRANSMITS_LOSS,	/* SACKs showed it lost */
	MRC_CNT_RETRANSMITS_TIMEOUT,	/* unacknowledged for an RTO */
	MRC_CNT_RETRANSMITS_RNR,	/* after an RNR wait */
	MRC_CNT_CC_DECREASES,		/* NSCC cut the window */
	MRC_CNT_CC_QUICK_ADAPTS,	/* of which quick adapt */
	MRC_CNT_CC_EV_SWITCHES,		/* ECN or trim moved new packets */
	MRC_CNT_TIMER_LATE,		/* RTO timer ran late: looked again */
	MRC_CNT_PLANE_STATE_SENT,	/* PLANE_STATEs sent, copies included */
	MRC_CNT_PLANE_STATE_APPLIED,	/* a peer's new plane state applied */
	MRC_CNT_EV_CHARGES_CANCELLED,	/* late NAK(trimmed): EV not charged */
	MRC_CNT_PATH_BACK_RESTARTS,	/* a path came back to a stalled QP */
	MRC_CNT_UC_MSGS_DROPPED,	/* UC: a message cut short by a gap */
	MRC_CNT_UC_PKTS_DISCARDED,	/* UC: packets of no message taken */
	/* The controller's connectionless probes (mrc_ep.c). */
	MRC_CNT_EP_PROBES_SENT,
	MRC_CNT_EP_PROBES_ANSWERED,	/* EP_PROBE_REPLYs matched in time */
	MRC_CNT_EP_REPLIES_SENT,	/* EP_PROBEs of peers answered */
	MRC_CNT_EP_REPLIES_LIMITED,	/* not answered: over the rate */
	MRC_CNT_RX_DROP_EP_SOURCE,	/* EP_PROBE from an unusable source */
	MRC_CNT_RX_DROP_EP_UNMATCHED,	/* a reply no probe awaits (late) */
	MRC_CNT_EXP_TIMEOUTS,		/* RTOs in the exponential stage */
	/* The controller's port status updates (mrc_ep.c). */
	MRC_CNT_EP_PORT_STATUS_SENT,
	MRC_CNT_EP_PORT_STATUS_ANSWERED, /* replies matched in time */
	MRC_CNT_EP_PORT_STATUS_APPLIED,	/* peers' statuses taken (answered) */
	MRC_CNT_RX_DROP_EP_PORTS_FULL,	/* a status from one peer too many */
	/* In flight on a plane that went down, sent again at once. */
	MRC_CNT_RETRANSMITS_PLANE,
	/* Trims not NAKed: the QP's peer takes none (MRC_QP_F_NO_TRIM_NAK). */
	MRC_CNT_TRIMS_UNANSWERED,
	MRC_CNT_NUM
};

struct mrc_pcpu_stats {
	u64_stats_t cnt[MRC_CNT_NUM];
	struct u64_stats_sync syncp;
};

/* The counter of a decode failure; @reason is not MRC_DROP_NONE. */
static inline enum mrc_counter mrc_cnt_wire_drop(enum mrc_drop_reason reason)
{
	return MRC_CNT_RX_DROP_WIRE + reason - 1;
}

/*
 * Any context. The device's counters exist from mrc_net_dev_init() until
 * dealloc_driver: callers hold a device reference or an object of the
 * device.
 */
void mrc_stats_add(struct mrc_dev *mdev, enum mrc_counter cnt, u64 val);

static inline void mrc_stats_inc(struct mrc_dev *mdev, enum mrc_counter cnt)
{
	mrc_stats_add(mdev, cnt, 1);
}

void mrc_stats_init(void);
int mrc_stats_dev_alloc(struct mrc_dev *mdev);
void mrc_stats_dev_free(struct mrc_dev *mdev);
u64 mrc_stats_read(struct mrc_dev *mdev, enum mrc_counter cnt);

extern const struct ib_device_ops mrc_stats_ops;

#endif /* MRC_STATS_H */
