// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The paths of an RC queue pair; see mrc_qp_paths.h.
 */
#include <linux/hash.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/inet_ecn.h>
#include <rdma/mrc-ctl.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_ctl_events.h"
#include "mrc_ep.h"
#include "mrc_ev_single.h"
#include "mrc_net.h"
#include "mrc_qp.h"
#include "mrc_qp_paths.h"
#include "mrc_stats.h"
#include "mrc_xmit.h"

int mrc_qp_paths_alloc(struct mrc_qp *qp)
{
	struct mrc_qp_paths *paths = &qp->paths;

	paths->evs = kvcalloc(MRC_EV_MAX, sizeof(*paths->evs), GFP_KERNEL);
	paths->routes = kvcalloc(MRC_QP_ROUTES, sizeof(*paths->routes),
				 GFP_KERNEL);
	paths->profile_index = kvcalloc(MRC_EV_MAX,
					sizeof(*paths->profile_index),
					GFP_KERNEL);
	if (!paths->evs || !paths->routes || !paths->profile_index) {
		mrc_qp_paths_free(qp);
		return -ENOMEM;
	}
	return 0;
}

/* The controller's reason for a change the EV core made. */
static u8 mrc_qp_paths_reason(u8 why)
{
	switch (why) {
	case MRC_EV_WHY_LOSS:
		return MRC_CTL_EV_REASON_LOSS;
	case MRC_EV_WHY_TIMEOUT:
		return MRC_CTL_EV_REASON_TIMEOUT;
	case MRC_EV_WHY_PLANE:
		return MRC_CTL_EV_REASON_PLANE_DOWN;
	case MRC_EV_WHY_DENY:
		return MRC_CTL_EV_REASON_DENIED;
	case MRC_EV_WHY_ALLOW:
		return MRC_CTL_EV_REASON_ALLOWED;
	default:
		return MRC_CTL_EV_REASON_PROBES;
	}
}

static void mrc_qp_paths_event(struct mrc_qp *qp, u32 index, u8 state,
			       u8 reason)
{
	mrc_ctl_event(to_mrc_dev(qp->ibqp.device), qp->paths.profile, index,
		      (const struct in6_addr *)qp->path.dgid.raw,
		      qp->ibqp.qp_num, state, reason);
}

/*
 * The set's watcher, under qp->lock: keeps the profile's view of its EVs,
 * which is bad while one connection or more holds the EV ASSUMED_BAD.
 * Denials and allowances are the controller's own; EV_SET reports those
 * once for the profile, not once per connection.
 */
static void mrc_qp_paths_ev_changed(void *ctx, u32 ev, u8 old_state,
				    u8 new_state, u8 why)
{
	struct mrc_qp *qp = ctx;
	struct mrc_profile *profile = qp->paths.profile;
	u32 index;

	if (!profile)
		return;
	index = qp->paths.profile_index[ev];
	if (new_state == MRC_EV_ASSUMED_BAD) {
		if (atomic_inc_return(&profile->bad_qps[index]) == 1)
			mrc_qp_paths_event(qp, index, MRC_CTL_EV_ASSUMED_BAD,
					   mrc_qp_paths_reason(why));
	} else if (old_state == MRC_EV_ASSUMED_BAD) {
		if (atomic_dec_and_test(&profile->bad_qps[index]) &&
		    new_state != MRC_EV_DENIED)
			mrc_qp_paths_event(qp, index, MRC_CTL_EV_GOOD,
					   mrc_qp_paths_reason(why));
	}
}

/*
 * The set is going away (rebuilt or freed): its bad EVs stop counting
 * against the profile. An EV no connection holds bad any more is unknown
 * to the profile, not restored. Caller holds qp->lock or owns the QP.
 */
static void mrc_qp_paths_release(struct mrc_qp *qp)
{
	struct mrc_qp_paths *paths = &qp->paths;
	struct mrc_profile *profile = paths->profile;
	u32 i, index;

	if (!paths->ready || !profile)
		return;
	for (i = 0; i < paths->set.n_evs; i++) {
		if (paths->set.evs[i].state != MRC_EV_ASSUMED_BAD)
			continue;
		index = paths->profile_index[i];
		if (atomic_dec_and_test(&profile->bad_qps[index]))
			mrc_qp_paths_event(qp, index, MRC_CTL_EV_UNKNOWN,
					   MRC_CTL_EV_REASON_RELEASED);
	}
}

/* The routes of paths that may be gone; no sender uses them at the time. */
static void mrc_qp_paths_flush_routes(struct mrc_qp_paths *paths)
{
	u32 i;

	for (i = 0; paths->routes && i < MRC_QP_ROUTES; i++)
		mrc_net_route_cache_flush(&paths->routes[i]);
}

void mrc_qp_paths_free(struct mrc_qp *qp)
{
	struct mrc_qp_paths *paths = &qp->paths;

	if (paths->evs && paths->profile_index)
		mrc_qp_paths_release(qp);
	mrc_qp_paths_flush_routes(paths);
	kvfree(paths->evs);
	kvfree(paths->routes);
	kvfree(paths->profile_index);
	paths->evs = NULL;
	paths->routes = NULL;
	paths->profile_index = NULL;
	mrc_profile_put(paths->profile);
	paths->profile = NULL;
	mrc_profile_unbind(paths->bound);
	paths->bound = NULL;
	paths->ready = false;
}

/*
 * The built-in spraying: the same source ports on every plane, distinct
 * within the QP (an odd stride is a bijection modulo 2^14) and spread
 * across QPs by a hash of the QPN. ECMP fabrics hash on the port.
 */
static u32 mrc_qp_default_descs(struct mrc_qp *qp, u8 n_planes,
				struct mrc_ev_desc *descs)
{
	u32 base = hash_32(qp->ibqp.qp_num, 14), n = 0, i;
	u8 p;

	for (p = 0; p < n_planes; p++)
		for (i = 0; i < MRC_QP_DEFAULT_EVS_PER_PLANE; i++) {
			descs[n].plane = p;
			descs[n].path.udp_sport =
				0xc000 | ((base + i * 997) & 0x3fff);
			n++;
		}
	return n;
}

/*
 * The profile's EVs that lead to the peer over a plane the device has,
 * grouped by plane (the order mrc_ev_set_init() keeps). At most MRC_EV_MAX:
 * a bigger profile is sampled evenly.
 */
static u32 mrc_qp_profile_descs(struct mrc_qp *qp, const union ib_gid *dgid,
				const struct mrc_profile *profile,
				u8 n_planes, struct mrc_ev_desc *descs)
{
	u32 step = DIV_ROUND_UP(profile->num_evs, MRC_EV_MAX), n = 0, i;
	u8 p;

	for (p = 0; p < n_planes; p++)
		for (i = 0; i < profile->num_evs; i += step) {
			const struct mrc_ev_value *ev = &profile->evs[i];
			struct mrc_ev_desc *d = &descs[n];

			if (ev->plane != p || n == MRC_EV_MAX)
				continue;
			if (mrc_ev_profile_path(ev, dgid->raw, &d->path))
				continue;
			d->plane = p;
			qp->paths.profile_index[n++] = i;
		}
	return n;
}

/* Caller holds qp->lock. */
static void mrc_qp_paths_apply_denials(struct mrc_qp *qp)
{
	struct mrc_qp_paths *paths = &qp->paths;
	const struct mrc_profile *profile = paths->profile;
	int gen;
	u32 i;

	if (!profile)
		return;
	gen = atomic_read(&profile->deny_gen);
	if (gen == paths->deny_gen)
		return;
	smp_rmb();	/* the bitmap as of that generation */
	paths->deny_gen = gen;
	for (i = 0; i < paths->set.n_evs; i++) {
		bool denied = test_bit(paths->profile_index[i],
				       profile->denied);

		if (denied && paths->set.evs[i].state != MRC_EV_DENIED)
			mrc_ev_deny(&paths->set, i);
		else if (!denied && paths->set.evs[i].state == MRC_EV_DENIED)
			mrc_ev_allow(&paths->set, i);
	}
}

int mrc_qp_paths_build(struct mrc_qp *qp, const union ib_gid *dgid)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_qp_paths *paths = &qp->paths;
	struct mrc_profile *profile;
	struct mrc_ev_params params;
	struct mrc_ev_desc *descs;
	u8 n_planes = max_t(u8, mrc_planes_count(mdev), 1);
	bool named;
	u32 n = 0;
	int err;

	descs = kvcalloc(MRC_EV_MAX, sizeof(*descs), GFP_KERNEL);
	if (!descs)
		return -ENOMEM;

	mrc_ev_params_default(&params);
	spin_lock_bh(&qp->lock);
	profile = paths->bound;
	named = profile;
	if (profile)
		kref_get(&profile->ref);
	spin_unlock_bh(&qp->lock);
	if (!profile)
		profile = mrc_profile_for_peer(mdev,
					       (const struct in6_addr *)dgid->raw);
	if (profile) {
		n = mrc_qp_profile_descs(qp, dgid, profile, n_planes, descs);
		/*
		 * A profile the QP named is the one it asked for: without an
		 * EV towards this peer it cannot go on, rather than quietly
		 * spray on paths the controller did not give it.
		 */
		if (!n && named) {
			mrc_profile_put(profile);
			kvfree(descs);
			return -EINVAL;
		}
		if (!n) {
			dev_warn_ratelimited(&mdev->ib_dev.dev,
					     "QP %u: no EV of profile %u leads to its peer; spraying on UDP ports\n",
					     qp->ibqp.qp_num, profile->id);
			mrc_profile_put(profile);
			profile = NULL;
		} else {
			params.min_active = clamp_t(u32, profile->min_active,
						    1, n);
		}
	}
	if (!profile)
		n = mrc_qp_default_descs(qp, n_planes, descs);
	/* Each route is checked against its flow; these just go sooner. */
	mrc_qp_paths_flush_routes(paths);

	spin_lock_bh(&qp->lock);
	/* A failed build leaves no set: the old one is released. */
	mrc_qp_paths_release(qp);
	paths->ready = false;
	err = mrc_ev_set_init(&paths->set, paths->evs, n, n_planes, descs,
			      &params);
	if (!err) {
		mrc_ev_set_watch(&paths->set, mrc_qp_paths_ev_changed, qp);
		swap(paths->profile, profile);
		paths->plane_gen = 0;
		paths->port_gen = 0;
		paths->deny_gen = 0;
		/* A profile's denials as they stand now. */
		if (paths->profile)
			paths->deny_gen = atomic_read(&paths->profile->deny_gen) - 1;
		/* The peer starts out thinking all our planes are up. */
		memset(&paths->notice, 0, sizeof(paths->notice));
		paths->notice.acked = true;
		paths->ready = true;
	}
	spin_unlock_bh(&qp->lock);

	/* A plane already down must be announced to this peer too. */
	if (!err)
		mrc_planes_kick(mdev);
	mrc_profile_put(profile);	/* the old one, or an unused one */
	kvfree(descs);
	return err;
}

void mrc_qp_paths_refresh(struct mrc_qp *qp, u32 now_us)
{
	struct mrc_qp_paths *paths = &qp->paths;

	if (!paths->ready)
		return;
	mrc_planes_apply(to_mrc_dev(qp->ibqp.device), &paths->set,
			 &paths->plane_gen, now_us);
	mrc_ep_peer_ports_apply(to_mrc_dev(qp->ibqp.device), &qp->path.dgid,
				&paths->set, &paths->port_gen, now_us);
	mrc_qp_paths_apply_denials(qp);
}

int mrc_qp_paths_pick(struct mrc_qp *qp, int avoid, u32 now_us)
{
	struct mrc_qp_paths *paths = &qp->paths;
	int ev;

	if (!paths->ready)
		return -EHOSTUNREACH;
	mrc_qp_paths_refresh(qp, now_us);
	/*
	 * Spraying off (mrcctl dev DEV set spray off): one EV per QP, by a
	 * hash of both QPNs, as ECMP places a flow. Read on every pick, so
	 * it takes effect at once on live QPs too.
	 */
	if (READ_ONCE(to_mrc_dev(qp->ibqp.device)->settings.single_path))
		ev = mrc_ev_pick_single(&paths->set,
					mrc_ev_single_key(qp->ibqp.qp_num,
							  qp->dest_qpn),
					avoid);
	else
		ev = mrc_ev_pick(&paths->set, avoid);
	/*
	 * What is picked here answers the peer (ACKs, NAKs, responses,
	 * PROBE_REPLYs): it cannot wait for our own probes, which only our
	 * requester's traffic sends.
	 */
	return ev >= 0 ? ev : mrc_ev_pick_last_resort(&paths->set);
}

int mrc_qp_paths_xmit(struct mrc_qp *qp, struct sk_buff *skb, u32 ev, u8 tos)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	const struct mrc_ev *e = &qp->paths.evs[ev];
	struct mrc_net_addr src, dst;
	/* Data is ECN-capable, control is not (mrc_xmit.c). */
	bool data = (tos & INET_ECN_MASK) != INET_ECN_NOT_ECT;

	mrc_net_addr_from_gid(&qp->path.sgid, &src);
	mrc_net_addr_from_gid(&qp->path.dgid, &dst);
	return mrc_net_xmit_ev(mdev, skb, e->plane, &e->path, &src, &dst, tos,
			       &qp->paths.routes[2 * ev + data]);
}

void mrc_qp_paths_send_probe(struct mrc_qp *qp, struct sk_buff_head *out,
			     u32 ev, u32 now_us)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	u8 *unused;

	pkt.hdr.opcode = MRC_OP_PROBE;
	pkt.probe.id = ++qp->paths.probe_id;
	pkt.probe.ts = now_us;
	pkt.probe.ev = ev;
	/* Unsent for lack of memory, the probe times out like a lost one. */
	skb = mrc_qp_new_packet(qp, &pkt, 0, &unused, ev);
	if (skb) {
		__skb_queue_tail(out, skb);
		mrc_stats_inc(mdev, MRC_CNT_PROBES_SENT);
	}
}

void mrc_qp_paths_rcv_probe(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			    const struct mrc_rx_meta *meta)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct sk_buff *skb = NULL;
	struct mrc_pkt reply = {};
	u8 *unused;

	spin_lock_bh(&qp->lock);
	if (!qp->paths.ready || !mrc_qp_from_peer(qp, pkt, meta)) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_BAD_SOURCE_QP);
	} else {
		/* The probe tested its path; the reply may take any. */
		reply.hdr.opcode = MRC_OP_PROBE_REPLY;
		reply.probe = pkt->probe;
		skb = mrc_qp_new_packet(qp, &reply, 0, &unused,
					MRC_QP_EV_ANY);
	}
	spin_unlock_bh(&qp->lock);
	if (skb)
		mrc_qp_send_packet(qp, skb);
}

static bool mrc_qp_paths_time_reached(u32 now_us, u32 t_us)
{
	return (s32)(now_us - t_us) >= 0;
}

/* States in which the QP talks to its peer. */
static bool mrc_qp_paths_connected(const struct mrc_qp *qp)
{
	return qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS ||
	       qp->state == IB_QPS_SQD || qp->state == IB_QPS_SQE;
}

/* Caller holds qp->lock: the planes the peer must not send to us on. */
static u8 mrc_qp_paths_down_mask(const struct mrc_ev_set *set)
{
	u8 mask = 0, p;

	for (p = 0; p < set->n_planes; p++)
		if (set->plane_flags[p] & MRC_EV_PLANE_DOWN)
			mask |= 1u << p;
	return mask;
}

/* Returns true while @qp's announcement awaits its ACK, due again *@next_us. */
static bool mrc_qp_paths_notify(struct mrc_qp *qp, u32 now_us, u32 *next_us)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_qp_paths *paths = &qp->paths;
	struct mrc_plane_notice *n = &paths->notice;
	struct mrc_ev_set *set = &paths->set;
	struct sk_buff *skb = NULL;
	struct mrc_pkt pkt = {};
	bool pending, lost;
	u32 all, planes_lost;
	u8 *unused;
	u8 down;

	spin_lock_bh(&qp->lock);
	if (!paths->ready || qp->state == IB_QPS_RESET ||
	    qp->state == IB_QPS_ERR) {
		spin_unlock_bh(&qp->lock);
		return false;
	}
	/*
	 * Our own EVs on a dead plane, and those on a plane the peer said is
	 * down at its end, retire now, not at the next send.
	 */
	planes_lost = set->planes_lost;
	mrc_planes_apply(mdev, set, &paths->plane_gen, now_us);
	mrc_ep_peer_ports_apply(mdev, &qp->path.dgid, set, &paths->port_gen,
				now_us);
	lost = set->planes_lost != planes_lost;
	down = mrc_qp_paths_down_mask(set);
	if (down != n->down_mask) {
		n->down_mask = down;
		if (!++n->seq)		/* 0 is "none yet" to the peer */
			n->seq = 1;
		n->acked = false;
		n->due_us = now_us;
		n->interval_us = MRC_PLANE_NOTIFY_FIRST_US;
	}
	pending = !n->acked;
	all = (1u << set->n_planes) - 1;
	if (pending && (!mrc_qp_paths_connected(qp) || down == all)) {
		/* Not yet connected, or no plane to say it on: wait. */
		*next_us = now_us + MRC_PLANE_NOTIFY_FIRST_US;
	} else if (pending && mrc_qp_paths_time_reached(now_us, n->due_us)) {
		pkt.hdr.opcode = MRC_OP_PLANE_STATE;
		pkt.plane_state.seq = n->seq;
		pkt.plane_state.n_planes = set->n_planes;
		pkt.plane_state.down_mask = down;
		/* On a usable EV: a plane that is up, spread over them. */
		skb = mrc_qp_new_packet(qp, &pkt, 0, &unused, MRC_QP_EV_ANY);
		n->due_us = now_us + n->interval_us;
		n->interval_us = min(n->interval_us * 2, MRC_PLANE_NOTIFY_MAX_US);
		*next_us = n->due_us;
	} else {
		*next_us = n->due_us;
	}
	spin_unlock_bh(&qp->lock);
	/* What was in flight on the plane goes again now, not at the RTO. */
	if (lost)
		mrc_req_kick(qp);
	if (skb) {
		mrc_qp_send_packet(qp, skb);
		mrc_stats_inc(mdev, MRC_CNT_PLANE_STATE_SENT);
	}
	return pending;
}

bool mrc_qp_paths_notify_all(struct mrc_dev *mdev, u32 now_us, u32 *next_us)
{
	bool pending = false;
	struct mrc_qp *qp;
	unsigned long qpn;
	void *entry;
	u32 due_us;

	xa_for_each(&mdev->qps, qpn, entry) {
		qp = mrc_qp_get(mdev, qpn);
		if (!qp)
			continue;
		if (!mrc_qp_is_ud(qp) && mrc_qp_paths_notify(qp, now_us, &due_us)) {
			if (!pending || (s32)(due_us - *next_us) < 0)
				*next_us = due_us;
			pending = true;
		}
		mrc_qp_put(qp);
	}
	return pending;
}

/*
 * Caller holds qp->lock. Plane indices mean the same plane at both ends
 * (the fabric's plane p joins port p of every host), so the peer's plane p
 * is our plane p; planes the peer does not have stay as they are.
 */
static void mrc_qp_paths_apply_peer_planes(struct mrc_qp *qp,
					   const struct mrc_plane_state *s,
					   u32 now_us)
{
	struct mrc_ev_set *set = &qp->paths.set;
	u8 p;

	for (p = 0; p < set->n_planes && p < s->n_planes; p++)
		mrc_ev_plane_set(set, p, MRC_EV_PLANE_PEER_DENIED,
				 s->down_mask & (1u << p), now_us);
	qp->paths.notice.peer_seq = s->seq;
	qp->paths.notice.peer_down_mask = s->down_mask;
}

void mrc_qp_paths_rcv_plane_state(struct mrc_qp *qp, const struct mrc_pkt *pkt,
				  const struct mrc_rx_meta *meta)
{
	struct mrc_dev *mdev = to_mrc_dev(qp->ibqp.device);
	struct mrc_qp_paths *paths = &qp->paths;
	struct mrc_plane_notice *n = &paths->notice;
	const struct mrc_plane_state *s = &pkt->plane_state;
	struct sk_buff *skb = NULL;
	struct mrc_pkt reply = {};
	bool applied = false, lost = false;
	u32 planes_lost;
	u8 *unused;

	spin_lock_bh(&qp->lock);
	planes_lost = paths->set.planes_lost;
	if (!paths->ready || !mrc_qp_from_peer(qp, pkt, meta)) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_BAD_SOURCE_QP);
	} else if (pkt->hdr.opcode == MRC_OP_PLANE_STATE) {
		/* Copies and late ones change nothing but are acknowledged. */
		if ((s32)(s->seq - n->peer_seq) > 0) {
			mrc_qp_paths_apply_peer_planes(qp, s,
						       (u32)mrc_now_us());
			applied = true;
			lost = paths->set.planes_lost != planes_lost;
		}
		reply.hdr.opcode = MRC_OP_PLANE_STATE_ACK;
		reply.plane_state = *s;
		skb = mrc_qp_new_packet(qp, &reply, 0, &unused,
					MRC_QP_EV_ANY);
	} else if (!n->acked && s->seq == n->seq) {
		n->acked = true;
	}
	spin_unlock_bh(&qp->lock);
	if (applied)
		mrc_stats_inc(mdev, MRC_CNT_PLANE_STATE_APPLIED);
	if (lost)
		mrc_req_kick(qp);
	if (skb)
		mrc_qp_send_packet(qp, skb);
}

static const char *const mrc_ev_state_names[] = {
	[MRC_EV_GOOD] = "GOOD",
	[MRC_EV_ASSUMED_BAD] = "ASSUMED_BAD",
	[MRC_EV_DENIED] = "DENIED",
	[MRC_EV_UNKNOWN] = "UNKNOWN",
};

static void mrc_qp_paths_show_qp(struct mrc_qp *qp, struct seq_file *m)
{
	const struct mrc_ev_set *set = &qp->paths.set;
	u32 i, k;

	spin_lock_bh(&qp->lock);
	for (i = 0; qp->paths.ready && i < set->n_evs; i++) {
		const struct mrc_ev *e = &set->evs[i];

		seq_printf(m, "%s %u %u %u %s %llu %llu %llu ",
			   dev_name(&qp->ibqp.device->dev), qp->ibqp.qp_num,
			   i, e->plane,
			   e->state < ARRAY_SIZE(mrc_ev_state_names) ?
			   mrc_ev_state_names[e->state] : "?",
			   e->sent, e->acked, e->lost);
		if (!e->path.n_usids)
			seq_printf(m, "udp:%u", e->path.udp_sport);
		for (k = 0; k < e->path.n_usids; k++)
			seq_printf(m, "%s%x", k ? "," : "usids:",
				   e->path.usids[k]);
		/* mrc_now_us(): CLOCK_MONOTONIC in us, modulo 2^32. */
		if (e->changed)
			seq_printf(m, " %u", e->changed_us);
		else
			seq_puts(m, " -");
		if (e->lost)
			seq_printf(m, " %u\n", e->lost_us);
		else
			seq_puts(m, " -\n");
	}
	spin_unlock_bh(&qp->lock);
}

void mrc_qp_paths_show(struct mrc_dev *mdev, struct seq_file *m)
{
	struct mrc_qp *qp;
	unsigned long qpn;
	void *entry;

	xa_for_each(&mdev->qps, qpn, entry) {
		qp = mrc_qp_get(mdev, qpn);
		if (!qp)
			continue;
		if (!mrc_qp_is_ud(qp))
			mrc_qp_paths_show_qp(qp, m);
		mrc_qp_put(qp);
	}
}
