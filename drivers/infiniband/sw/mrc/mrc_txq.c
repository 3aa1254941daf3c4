// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The local transmit budget of a QP (mrc_txq.h).
 */
#include <linux/log2.h>
#include <linux/net.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "mrc_clock.h"
#include "mrc_departure.h"
#include "mrc_txq.h"
#include "mrc_wire.h"

/* Budgets alive: module unload waits for none (mrc_txq_exit()). */
static atomic_t mrc_txq_live = ATOMIC_INIT(0);

struct mrc_txq *mrc_txq_create(struct mrc_qp *qp,
			       void (*wake)(struct mrc_qp *qp), u32 window,
			       int *err)
{
	struct mrc_txq *q;

	if (WARN_ON_ONCE(!is_power_of_2(window))) {
		*err = -EINVAL;
		return NULL;
	}
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q) {
		*err = -ENOMEM;
		return NULL;
	}
	/*
	 * Zeroed: no slot holds a record (mrc_departure.h). kmalloc'ed,
	 * not vmalloc'ed: the last packet's destructor may free it.
	 */
	q->departures = kcalloc(window, sizeof(*q->departures), GFP_KERNEL);
	if (!q->departures) {
		kfree(q);
		*err = -ENOMEM;
		return NULL;
	}
	/*
	 * Only an owner for skbs, never bound, connected or read from:
	 * init_net outlives every budget, whatever namespace the device
	 * sends in.
	 */
	*err = sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
				&q->sock);
	if (*err) {
		kfree(q->departures);
		kfree(q);
		return NULL;
	}
	q->departures_mask = window - 1;
	q->sock->sk->sk_user_data = q;
	refcount_set(&q->refs, 1);
	spin_lock_init(&q->lock);
	q->qp = qp;
	q->wake = wake;
	atomic_inc(&mrc_txq_live);
	return q;
}

static void mrc_txq_put(struct mrc_txq *q)
{
	if (!refcount_dec_and_test(&q->refs))
		return;
	kfree(q->departures);
	kfree(q);
	if (atomic_dec_and_test(&mrc_txq_live))
		wake_up_var(&mrc_txq_live);
}

void mrc_txq_detach(struct mrc_txq *q)
{
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	q->qp = NULL;
	spin_unlock_irqrestore(&q->lock, flags);
	/* Its struct sock lives on while queued skbs hold it. */
	sock_release(q->sock);
	q->sock = NULL;
	mrc_txq_put(q);
}

/* Records when the requester packet @skb left, against its PSN. */
static void mrc_txq_record_departure(struct mrc_txq *q, struct sk_buff *skb)
{
	u8 buf[MRC_BASE_HDR_LEN], *hdr;
	int off;
	u32 psn;

	if (!skb_transport_header_was_set(skb))
		return;
	off = skb_transport_offset(skb) + (int)sizeof(struct udphdr);
	if (off < 0)
		return;
	hdr = skb_header_pointer(skb, off, sizeof(buf), buf);
	if (hdr && mrc_peek_request_psn(hdr, sizeof(buf), &psn))
		atomic64_set(&q->departures[psn & q->departures_mask],
			     mrc_departure_record(psn, (u32)mrc_now_us()));
}

/*
 * The skb left our queues (freed, or orphaned by the receive path at the
 * far end of a veth). Runs in softirq or process context, never in hard
 * IRQ (skb_release_head_state() forbids it). Inside an RCU read section
 * so that module unload, which waits for the last budget and then for a
 * grace period, cannot unmap this code under its last instructions.
 */
static void mrc_txq_skb_gone(struct sk_buff *skb)
{
	struct sock *sk = skb->sk;
	struct mrc_txq *q = sk->sk_user_data;
	unsigned long flags;

	rcu_read_lock();
	mrc_txq_record_departure(q, skb);
	/* Fully ordered: pairs with the barrier in mrc_txq_full(). */
	if (atomic_dec_return(&q->queued) <= READ_ONCE(q->wake_at) &&
	    atomic_xchg(&q->throttled, 0)) {
		spin_lock_irqsave(&q->lock, flags);
		if (q->qp)
			q->wake(q->qp);
		spin_unlock_irqrestore(&q->lock, flags);
	}
	sock_put(sk);
	mrc_txq_put(q);
	rcu_read_unlock();
}

void mrc_txq_own(struct mrc_txq *q, struct sk_buff *skb)
{
	struct sock *sk = q->sock->sk;

	/* Built by us and never owned before (mrc_net_alloc_skb()). */
	if (WARN_ON_ONCE(skb->sk || skb->destructor))
		return;
	sock_hold(sk);
	refcount_inc(&q->refs);
	atomic_inc(&q->queued);
	skb->sk = sk;
	skb->destructor = mrc_txq_skb_gone;
}

bool mrc_txq_full(struct mrc_txq *q, u32 limit, u32 pending)
{
	if (!limit || atomic_read(&q->queued) + pending < limit)
		return false;
	/* Half drained: a sender then builds a batch, not a packet. */
	WRITE_ONCE(q->wake_at, limit / 2);
	atomic_set(&q->throttled, 1);
	/*
	 * Either a packet leaving after this sees the flag and kicks, or we
	 * see the count it lowered: no wakeup is lost. The count has to
	 * fall from at least @limit (the pending packets are owned right
	 * after) through @wake_at, so a packet that sees the flag comes.
	 */
	smp_mb__after_atomic();
	if (atomic_read(&q->queued) + pending < limit)
		return false;
	q->throttles++;
	return true;
}

void mrc_txq_exit(void)
{
	wait_var_event(&mrc_txq_live, !atomic_read(&mrc_txq_live));
	/* The last destructor may still be returning (mrc_txq_skb_gone()). */
	synchronize_rcu();
}
