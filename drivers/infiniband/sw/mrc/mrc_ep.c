// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Connectionless endpoint probes and port status updates (mrc_ep.h has the
 * lock rules).
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/route.h>
#include <net/inet_ecn.h>

#include "mrc.h"
#include "mrc_clock.h"
#include "mrc_ep.h"
#include "mrc_plane.h"
#include "mrc_stats.h"

static DEFINE_SPINLOCK(mrc_ep_lock);

/*
 * One answer, in the rate limiter's unit: a nanosecond at a rate of one
 * answer per second refills one unit.
 */
#define MRC_EP_ANSWER		((u64)NSEC_PER_SEC)

static unsigned int ep_reply_rate = MRC_EP_REPLY_RATE;
module_param(ep_reply_rate, uint, 0644);
MODULE_PARM_DESC(ep_reply_rate,
		 "EV probes of peers a device answers per second, after a burst of 1024 (0: none)");

void mrc_ep_dev_init(struct mrc_dev *mdev)
{
	INIT_LIST_HEAD(&mdev->ep.batches);
	spin_lock_init(&mdev->ep.rl_lock);
	mdev->ep.rl_credit = MRC_EP_REPLY_BURST * MRC_EP_ANSWER;
	mdev->ep.rl_last_ns = ktime_get_ns();
	spin_lock_init(&mdev->ep.ports_lock);
	/* 1: a set that never saw the table (0) applies it. */
	atomic_set(&mdev->ep.ports_gen, 1);
	mrc_peer_ports_init(&mdev->ep.ports);
}

void mrc_ep_dev_close(struct mrc_dev *mdev)
{
	struct mrc_ep_batch *b, *next;

	spin_lock_bh(&mrc_ep_lock);
	mdev->ep.closing = true;
	list_for_each_entry_safe(b, next, &mdev->ep.batches, node) {
		list_del_init(&b->node);
		b->dead = true;
		/* Under the lock: the waiter frees @b only after taking it. */
		wake_up(&b->wq);
	}
	spin_unlock_bh(&mrc_ep_lock);
}

struct mrc_ep_batch *mrc_ep_batch_alloc(u32 n_reqs, u8 opcode)
{
	struct mrc_ep_batch *b;

	if (!n_reqs || n_reqs > MRC_EP_MAX_REQS ||
	    (opcode != MRC_OP_EP_PROBE && opcode != MRC_OP_EP_PORT_STATUS))
		return NULL;
	b = kvzalloc(struct_size(b, reqs, n_reqs), GFP_KERNEL);
	if (!b)
		return NULL;
	b->answers = kvcalloc(n_reqs, sizeof(*b->answers), GFP_KERNEL);
	if (!b->answers) {
		kvfree(b);
		return NULL;
	}
	INIT_LIST_HEAD(&b->node);
	init_waitqueue_head(&b->wq);
	b->n_reqs = n_reqs;
	b->opcode = opcode;
	return b;
}

void mrc_ep_batch_free(struct mrc_ep_batch *batch)
{
	if (!batch)
		return;
	kvfree(batch->answers);
	kvfree(batch);
}

/* Module lock held: an id no listed batch of the device has. */
static u16 mrc_ep_batch_id(struct mrc_dev *mdev)
{
	struct mrc_ep_batch *b;
	bool taken;

	/* Fewer batches than ids wait at once: callers are admins, few. */
	do {
		u16 id = mdev->ep.next_batch++;

		taken = false;
		list_for_each_entry(b, &mdev->ep.batches, node)
			if (b->id == id)
				taken = true;
		if (!taken)
			return id;
	} while (true);
}

static int mrc_ep_send_one(struct mrc_dev *mdev, struct mrc_ep_batch *batch,
			   u32 i)
{
	struct mrc_ep_req *r = &batch->reqs[i];
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	int len, err;

	pkt.hdr.opcode = batch->opcode;
	r->ts_us = (u32)mrc_now_us();
	pkt.hdr.ts = r->ts_us;
	pkt.ep_probe.cookie = (u32)batch->id << 16 | i;
	pkt.ep_probe.ts = r->ts_us;
	pkt.ep_probe.plane = r->plane;
	if (batch->opcode == MRC_OP_EP_PORT_STATUS) {
		pkt.ep_probe.n_planes = r->n_ports;
		pkt.ep_probe.up_mask = r->up_mask;
	}
	len = (int)mrc_hdr_len(batch->opcode);
	skb = mrc_net_alloc_skb(mdev, &r->src, &r->dst, len);
	if (!skb)
		return -ENOMEM;
	if (mrc_encode(skb_put(skb, len), len, &pkt) != len) {
		kfree_skb(skb);
		return -EINVAL;
	}
	/*
	 * The answer may be back before the IP layer returns: the request is
	 * answerable from here, with its clock started.
	 */
	spin_lock_bh(&mrc_ep_lock);
	r->sent_ns = ktime_get_ns();
	r->deadline_ns = r->sent_ns + r->timeout_ns;
	r->sent = true;
	batch->n_sent++;
	spin_unlock_bh(&mrc_ep_lock);
	err = mrc_net_xmit_ev(mdev, skb, r->plane, &r->path, &r->src, &r->dst,
			      r->dscp << 2 | INET_ECN_NOT_ECT, NULL);
	if (err) {
		spin_lock_bh(&mrc_ep_lock);
		if (!r->answered) {
			r->sent = false;
			batch->n_sent--;
		}
		spin_unlock_bh(&mrc_ep_lock);
		return err;
	}
	mrc_stats_inc(mdev, batch->opcode == MRC_OP_EP_PROBE ?
		      MRC_CNT_EP_PROBES_SENT : MRC_CNT_EP_PORT_STATUS_SENT);
	return 0;
}

void mrc_ep_batch_start(struct mrc_dev *mdev, struct mrc_ep_batch *batch)
{
	u32 i;

	spin_lock_bh(&mrc_ep_lock);
	if (mdev->ep.closing) {
		/* Its caller found it just before its removal began. */
		batch->dead = true;
		spin_unlock_bh(&mrc_ep_lock);
		return;
	}
	batch->id = mrc_ep_batch_id(mdev);
	list_add_tail(&batch->node, &mdev->ep.batches);
	spin_unlock_bh(&mrc_ep_lock);

	for (i = 0; i < batch->n_reqs; i++)
		mrc_ep_send_one(mdev, batch, i);
}

/* Module lock held. */
static bool mrc_ep_batch_done(struct mrc_ep_batch *batch)
{
	return batch->dead || batch->n_answers == batch->n_sent;
}

static bool mrc_ep_batch_done_locked(struct mrc_ep_batch *batch)
{
	bool done;

	spin_lock_bh(&mrc_ep_lock);
	done = mrc_ep_batch_done(batch);
	spin_unlock_bh(&mrc_ep_lock);
	return done;
}

int mrc_ep_batch_wait(struct mrc_ep_batch *batch)
{
	u64 end = 0, now;
	unsigned long left;
	long ret = 0;
	int err = 0;
	u32 i;

	spin_lock_bh(&mrc_ep_lock);
	for (i = 0; i < batch->n_reqs; i++)
		if (batch->reqs[i].sent)
			end = max(end, batch->reqs[i].deadline_ns);
	spin_unlock_bh(&mrc_ep_lock);

	for (;;) {
		now = ktime_get_ns();
		if (now >= end)
			break;
		left = nsecs_to_jiffies(end - now) + 1;
		ret = wait_event_interruptible_timeout(batch->wq,
						       mrc_ep_batch_done_locked(batch),
						       left);
		if (ret < 0) {
			/* No restart: the probes went out already. */
			err = -EINTR;
			break;
		}
		if (ret > 0)
			break;
	}

	spin_lock_bh(&mrc_ep_lock);
	if (batch->dead)
		err = -ENODEV;
	else
		list_del_init(&batch->node);
	spin_unlock_bh(&mrc_ep_lock);
	return err;
}

/*
 * Whom a device answers: never a broadcast, multicast, loopback,
 * unspecified or IPv4-mapped address, which a forged probe would use to
 * make the answer a broadcast or bounce it inside the host. The answer
 * leaves through the device's netdev only, so a source not routed through
 * it gets none either.
 */
bool mrc_ep_addr_ok(const struct mrc_net_addr *a)
{
	int type;

	if (a->family == AF_INET)
		return !ipv4_is_multicast(a->v4) && !ipv4_is_lbcast(a->v4) &&
		       !ipv4_is_zeronet(a->v4) && !ipv4_is_loopback(a->v4);
	type = ipv6_addr_type(&a->v6);
	return (type & IPV6_ADDR_UNICAST) &&
	       !(type & (IPV6_ADDR_LOOPBACK | IPV6_ADDR_MAPPED));
}

/*
 * A probe's source, as the device's namespace sees it: besides
 * mrc_ep_addr_ok(), not an IPv4 subnet's broadcast address, which the
 * address alone does not tell.
 */
static bool mrc_ep_source_ok(struct mrc_dev *mdev,
			     const struct mrc_net_addr *a)
{
	unsigned int type;

	if (!mrc_ep_addr_ok(a))
		return false;
	if (a->family != AF_INET)
		return true;
	type = inet_addr_type_dev_table(dev_net(mdev->ndev), mdev->ndev, a->v4);
	return type == RTN_UNICAST || type == RTN_LOCAL;
}

/*
 * Whether the device may answer one more probe now: a token bucket of
 * MRC_EP_REPLY_BURST answers, refilled at ep_reply_rate per second.
 */
static bool mrc_ep_reply_allowed(struct mrc_dev *mdev)
{
	const u64 cap = MRC_EP_REPLY_BURST * MRC_EP_ANSWER;
	u32 rate = min_t(u32, READ_ONCE(ep_reply_rate), NSEC_PER_SEC);
	struct mrc_ep_dev *ep = &mdev->ep;
	u64 now = ktime_get_ns(), elapsed;
	bool ok = false;

	if (!rate)
		return false;
	spin_lock(&ep->rl_lock);
	elapsed = now - ep->rl_last_ns;
	/* Below the time a full refill takes, elapsed * rate < cap. */
	if (elapsed >= div_u64(cap, rate))
		ep->rl_credit = cap;
	else
		ep->rl_credit = min(cap, ep->rl_credit + elapsed * rate);
	ep->rl_last_ns = now;
	if (ep->rl_credit >= MRC_EP_ANSWER) {
		ep->rl_credit -= MRC_EP_ANSWER;
		ok = true;
	}
	spin_unlock(&ep->rl_lock);
	return ok;
}

/*
 * The plane to answer on: the request's when it is up here, or the first
 * up; of those, one the requester did not say is down (@avoid) if any.
 */
static int mrc_ep_reply_plane(struct mrc_dev *mdev, u8 want, u8 avoid)
{
	u8 up = mrc_planes_up_mask(mdev);

	if (up & ~avoid)
		up &= ~avoid;
	if (up & BIT(want))
		return want;
	return up ? __ffs(up) : -ENETDOWN;
}

/*
 * Answers @pkt, an EP_PROBE or EP_PORT_STATUS that arrived at @arrived_ns,
 * with its reply opcode: the cookie, timestamp and port fields echoed.
 */
static void mrc_ep_reply(struct mrc_dev *mdev, const struct mrc_pkt *pkt,
			 const struct mrc_rx_meta *meta, u64 arrived_ns,
			 u8 avoid)
{
	struct mrc_ev_path path = { .udp_sport = meta->udp_sport };
	u8 opcode = pkt->hdr.opcode + 1;
	struct mrc_pkt reply = {};
	struct sk_buff *skb;
	int len, plane;
	u64 svc;

	plane = mrc_ep_reply_plane(mdev, pkt->ep_probe.plane, avoid);
	if (plane < 0) {
		mrc_stats_inc(mdev, MRC_CNT_TX_ERRORS);
		return;
	}
	len = (int)mrc_hdr_len(opcode);
	skb = mrc_net_alloc_skb(mdev, &meta->daddr, &meta->saddr, len);
	if (!skb)
		return;
	reply.hdr.opcode = opcode;
	reply.hdr.ts = (u32)mrc_now_us();
	reply.ep_probe.cookie = pkt->ep_probe.cookie;
	reply.ep_probe.ts = pkt->ep_probe.ts;
	reply.ep_probe.plane = plane;
	reply.ep_probe.n_planes = pkt->ep_probe.n_planes;
	reply.ep_probe.up_mask = pkt->ep_probe.up_mask;
	svc = ktime_get_ns() - arrived_ns;
	reply.ep_probe.svc_ns = (u32)min_t(u64, svc, U32_MAX);
	if (mrc_encode(skb_put(skb, len), len, &reply) != len) {
		kfree_skb(skb);
		return;
	}
	/* As every control packet: the device's control DSCP, not ECT. */
	if (!mrc_net_xmit_ev(mdev, skb, plane, &path, &meta->daddr,
			     &meta->saddr,
			     READ_ONCE(mdev->settings.ctrl_dscp) << 2 |
			     INET_ECN_NOT_ECT, NULL))
		mrc_stats_inc(mdev, MRC_CNT_EP_REPLIES_SENT);
}

/* A request from a source we answer, within the rate: it may be served. */
static bool mrc_ep_rcv_request_ok(struct mrc_dev *mdev,
				  const struct mrc_rx_meta *meta)
{
	if (!mrc_ep_source_ok(mdev, &meta->saddr)) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_EP_SOURCE);
		return false;
	}
	if (!mrc_ep_reply_allowed(mdev)) {
		mrc_stats_inc(mdev, MRC_CNT_EP_REPLIES_LIMITED);
		return false;
	}
	return true;
}

static void mrc_ep_rcv_probe(struct mrc_dev *mdev, const struct mrc_pkt *pkt,
			     const struct mrc_rx_meta *meta, u64 arrived_ns)
{
	if (mrc_ep_rcv_request_ok(mdev, meta))
		mrc_ep_reply(mdev, pkt, meta, arrived_ns, 0);
}

/* Under ports_lock: the table changed. */
static void mrc_ep_ports_changed(struct mrc_dev *mdev)
{
	if (!atomic_inc_return(&mdev->ep.ports_gen))
		atomic_inc(&mdev->ep.ports_gen);
}

/*
 * A peer's port status: recorded by its source address only, so that it
 * changes nothing but the paths to that address; then answered. Checked
 * and counted against the answer rate before the table is touched, so
 * that a flood costs no more than the answers it gets. A status the table
 * has no room for is not answered: the sender sees it was not taken.
 */
static void mrc_ep_rcv_port_status(struct mrc_dev *mdev,
				   const struct mrc_pkt *pkt,
				   const struct mrc_rx_meta *meta,
				   u64 arrived_ns)
{
	const struct mrc_ep_probe *e = &pkt->ep_probe;
	union ib_gid peer;
	u8 down;
	int ret;

	if (!mrc_ep_rcv_request_ok(mdev, meta))
		return;
	down = mrc_peer_ports_down_mask(e->n_planes, e->up_mask);
	mrc_net_addr_to_gid(&meta->saddr, &peer);
	spin_lock(&mdev->ep.ports_lock);
	ret = mrc_peer_ports_update(&mdev->ep.ports, peer.raw, down);
	if (ret > 0)
		mrc_ep_ports_changed(mdev);
	spin_unlock(&mdev->ep.ports_lock);
	if (ret < 0) {
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_EP_PORTS_FULL);
		return;
	}
	mrc_stats_inc(mdev, MRC_CNT_EP_PORT_STATUS_APPLIED);
	/*
	 * A sender picks again under the new table at its next packet; the
	 * notify work brings the idle QPs' paths up to date too.
	 */
	if (ret > 0)
		mrc_planes_kick(mdev);
	mrc_ep_reply(mdev, pkt, meta, arrived_ns, down);
}

void mrc_ep_peer_ports_apply(struct mrc_dev *mdev, const union ib_gid *peer,
			     struct mrc_ev_set *set, u32 *seen, u32 now_us)
{
	/* Read before the table: a table at least this new is applied. */
	u32 gen = (u32)atomic_read(&mdev->ep.ports_gen);
	struct mrc_net_addr addr;
	unsigned long flags;
	union ib_gid key;
	u8 down;

	if (gen == *seen)
		return;
	/* The key as the receive path makes it, IPv4 mapped the same way. */
	mrc_net_addr_from_gid(peer, &addr);
	mrc_net_addr_to_gid(&addr, &key);
	/* qp->lock may be held with interrupts off (modify_qp to RTS). */
	spin_lock_irqsave(&mdev->ep.ports_lock, flags);
	down = mrc_peer_ports_lookup(&mdev->ep.ports, key.raw);
	spin_unlock_irqrestore(&mdev->ep.ports_lock, flags);
	mrc_peer_ports_apply(set, down, now_us);
	*seen = gen;
}

/* Module lock held: the request @cookie names, if it awaits this answer. */
static struct mrc_ep_req *mrc_ep_find(struct mrc_dev *mdev,
				      const struct mrc_pkt *pkt,
				      const struct mrc_rx_meta *meta,
				      struct mrc_ep_batch **batchp, u64 now)
{
	u32 cookie = pkt->ep_probe.cookie;
	struct mrc_ep_batch *b;
	struct mrc_ep_req *r;

	list_for_each_entry(b, &mdev->ep.batches, node) {
		if (b->id != cookie >> 16)
			continue;
		/* The reply of what the batch sent, to a request it has. */
		if (pkt->hdr.opcode != b->opcode + 1 ||
		    (cookie & 0xffff) >= b->n_reqs)
			return NULL;
		r = &b->reqs[cookie & 0xffff];
		/* From the address it went to, to the one it came from. */
		if (!r->sent || r->answered || r->ts_us != pkt->ep_probe.ts ||
		    !mrc_net_addr_equal(&r->dst, &meta->saddr) ||
		    !mrc_net_addr_equal(&r->src, &meta->daddr) ||
		    now > r->deadline_ns)
			return NULL;
		/* A status is answered with what the peer took. */
		if (b->opcode == MRC_OP_EP_PORT_STATUS &&
		    (pkt->ep_probe.n_planes != r->n_ports ||
		     pkt->ep_probe.up_mask != r->up_mask))
			return NULL;
		*batchp = b;
		return r;
	}
	return NULL;
}

static void mrc_ep_rcv_reply(struct mrc_dev *mdev, const struct mrc_pkt *pkt,
			     const struct mrc_rx_meta *meta, u64 now)
{
	struct mrc_ep_answer *a;
	struct mrc_ep_batch *b;
	struct mrc_ep_req *r;

	spin_lock(&mrc_ep_lock);
	r = mrc_ep_find(mdev, pkt, meta, &b, now);
	if (!r) {
		spin_unlock(&mrc_ep_lock);
		mrc_stats_inc(mdev, MRC_CNT_RX_DROP_EP_UNMATCHED);
		return;
	}
	r->answered = true;
	a = &b->answers[b->n_answers++];
	a->req_id = r->req_id;
	a->plane = pkt->ep_probe.plane;
	a->rtt_ns = now - r->sent_ns;
	/* A service time longer than the round trip is not believed. */
	if (pkt->ep_probe.svc_ns < a->rtt_ns) {
		a->rtt_ns -= pkt->ep_probe.svc_ns;
		a->svc_removed = true;
	}
	if (mrc_ep_batch_done(b))
		wake_up(&b->wq);
	spin_unlock(&mrc_ep_lock);
	mrc_stats_inc(mdev, pkt->hdr.opcode == MRC_OP_EP_PROBE_REPLY ?
		      MRC_CNT_EP_PROBES_ANSWERED :
		      MRC_CNT_EP_PORT_STATUS_ANSWERED);
}

void mrc_ep_rcv(struct mrc_dev *mdev, struct sk_buff *skb,
		const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta)
{
	u64 now = ktime_get_ns();

	switch (pkt->hdr.opcode) {
	case MRC_OP_EP_PROBE:
		mrc_ep_rcv_probe(mdev, pkt, meta, now);
		break;
	case MRC_OP_EP_PORT_STATUS:
		mrc_ep_rcv_port_status(mdev, pkt, meta, now);
		break;
	default:
		mrc_ep_rcv_reply(mdev, pkt, meta, now);
		break;
	}
	consume_skb(skb);
}
