/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The paths (EVs) of one RC queue pair: built at RTR from the EV profile
 * serving its peer (mrc_profile.h) or, without one, from the built-in UDP
 * source-port spraying; kept up to date with the device's planes and the
 * controller's denials; picked per packet by the EV core (mrc_ev.h).
 *
 * Locking: qp->lock guards the set's state (every call but init and
 * destroy). The EV array is allocated with the QP and its paths change only
 * at RTR, when the requester sends nothing, so a sender may read an EV's
 * plane and path after dropping the lock. Each EV keeps its routes
 * (mrc_net.h, struct mrc_net_route_cache), one for data and one for
 * control packets, which differ in DSCP; senders share them without
 * qp->lock.
 */
#ifndef MRC_QP_PATHS_H
#define MRC_QP_PATHS_H

#include "mrc_ev.h"

struct mrc_dev;
struct mrc_qp;
struct seq_file;
struct mrc_profile;
struct sk_buff;
struct sk_buff_head;
struct mrc_pkt;
struct mrc_rx_meta;
struct mrc_net_route_cache;
union ib_gid;

/* EVs per plane of the built-in spraying, before any profile. */
#define MRC_QP_DEFAULT_EVS_PER_PLANE	16u
/* Route caches of a QP: one for data and one for control per EV. */
#define MRC_QP_ROUTES			(2 * MRC_EV_MAX)

/*
 * An unacknowledged PLANE_STATE goes again after this, doubling up to the
 * maximum: a lost copy costs one interval, a dead peer little.
 */
#define MRC_PLANE_NOTIFY_FIRST_US	5000u
#define MRC_PLANE_NOTIFY_MAX_US		200000u

/**
 * struct mrc_plane_notice - the plane state a QP tells its peer
 * @down_mask: planes the peer must not send to us on, as last announced
 * @seq: that announcement's sequence number (0: none yet)
 * @acked: the peer confirmed @seq
 * @due_us: when the next copy may go
 * @interval_us: the wait after the next copy
 * @peer_seq: the highest sequence number of the peer's we applied
 * @peer_down_mask: the mask it carried
 */
struct mrc_plane_notice {
	u8 down_mask;
	u32 seq;
	bool acked;
	u32 due_us;
	u32 interval_us;
	u32 peer_seq;
	u8 peer_down_mask;
};

struct mrc_qp_paths {
	struct mrc_ev_set set;
	struct mrc_ev *evs;		/* MRC_EV_MAX, for the QP's life */
	struct mrc_net_route_cache *routes;	/* 2 per EV, as long */
	u16 *profile_index;		/* set index -> profile EV index */
	u32 probe_id;			/* the last PROBE's id */
	struct mrc_profile *profile;	/* NULL: built-in spraying */
	/*
	 * The profile the QP named at RESET to INIT (mrc_profile_bind()),
	 * or NULL: chosen by the peer's address. Set and cleared under
	 * qp->lock; unbound at RESET and in mrc_qp_paths_free().
	 */
	struct mrc_profile *bound;
	u32 plane_gen;			/* for mrc_planes_apply() */
	u32 port_gen;			/* for mrc_ep_peer_ports_apply() */
	int deny_gen;			/* the profile's, when last applied */
	bool ready;			/* set built: RTR and later */
	struct mrc_plane_notice notice;
};

int mrc_qp_paths_alloc(struct mrc_qp *qp);
void mrc_qp_paths_free(struct mrc_qp *qp);
/*
 * On the way to RTR, before the transition (process context, qp->lock not
 * held, the requester idle): the EVs towards @dgid.
 */
int mrc_qp_paths_build(struct mrc_qp *qp, const union ib_gid *dgid);

/*
 * Brings the EV set up to date before a pick elsewhere (the requester's
 * sender core): plane states, the peer's port status and the denials.
 * Caller holds qp->lock.
 */
void mrc_qp_paths_refresh(struct mrc_qp *qp, u32 now_us);

/*
 * Under qp->lock: planes and denials catch up; then the EV to send an
 * answer to the peer on: a usable one, or as a last resort a bad one on a
 * plane that is up (mrc_ev_pick_last_resort()).
 */
int mrc_qp_paths_pick(struct mrc_qp *qp, int avoid, u32 now_us);

/*
 * Sends @skb on EV @ev (from a pick) with TOS byte @tos (DSCP << 2 | ECN);
 * qp->lock need not be held.
 */
int mrc_qp_paths_xmit(struct mrc_qp *qp, struct sk_buff *skb, u32 ev, u8 tos);

/*
 * Under qp->lock, from the requester: a PROBE on EV @ev (the one its
 * sender core chose, mrc_sender_next_probe()), queued on @out to be sent
 * after the lock. Its reply goes back to the sender (mrc_req.h).
 */
void mrc_qp_paths_send_probe(struct mrc_qp *qp, struct sk_buff_head *out,
			     u32 ev, u32 now_us);

/*
 * debugfs: one line per EV of every RC QP of @mdev that has its paths:
 * "IBDEV QPN EV PLANE STATE SENT ACKED LOST PATH CHANGED_US LOST_US", the
 * last two the times (mrc_now_us()) of its last timed state change and of
 * its last loss, "-" for none (Documentation/paths.rst).
 */
void mrc_qp_paths_show(struct mrc_dev *mdev, struct seq_file *m);

/* A PROBE: answered with a PROBE_REPLY on any EV; softirq, no lock held. */
void mrc_qp_paths_rcv_probe(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			    const struct mrc_rx_meta *meta);

/*
 * Telling the peers which of our planes are down (PLANE_STATE, answered by
 * PLANE_STATE_ACK; Documentation/paths.rst, "Telling the peer"). The
 * planes' notify work (mrc_plane.h, ->notify_qps), process context:
 * on every connected QP of @mdev, when our planes changed since its last
 * announcement, or an announcement is unacknowledged and due, sends one on
 * a usable EV (so on a plane that is up); qp->lock not held. Returns true
 * while one of them awaits an ACK, with *@next_us the soonest copy due.
 */
bool mrc_qp_paths_notify_all(struct mrc_dev *mdev, u32 now_us, u32 *next_us);

/* A PLANE_STATE (applied, then acknowledged) or PLANE_STATE_ACK; softirq. */
void mrc_qp_paths_rcv_plane_state(struct mrc_qp *qp, const struct mrc_pkt *pkt,
				  const struct mrc_rx_meta *meta);

#endif /* MRC_QP_PATHS_H */
