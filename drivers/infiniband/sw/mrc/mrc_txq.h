/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The local transmit budget of a QP: how many of its packets still sit in
 * this host's own transmit queues (a plane port's qdisc and driver).
 *
 * A NIC sends a QP's packets at its port's rate and keeps the rest of the
 * window in host memory, unsent. A soft device that handed its whole
 * window to the netdev would park it in the port's qdisc instead: the
 * queue would count as network delay in every RTT sample, a marking port
 * would mark it as congestion of the fabric, and packets of two planes
 * whose queues differ would overtake each other by far more than the
 * reorder tolerance. So the QP's senders, the requester and the READ
 * responder, stop handing new packets down once the QP has the device's
 * txq_packets queued locally (mrc_settings.h), and are kicked again as the
 * queue drains, as TCP Small Queues does for a socket. The READ responder
 * has the same reason and one more: a burst of responses larger than a
 * device's or a veth peer's backlog is dropped before it leaves the host.
 *
 * A packet leaves our queues when its skb is freed or orphaned: a driver's
 * transmit completion, or the receive path of the namespace at the far end
 * of a veth. Its skb is owned by the budget's own kernel socket, which
 * fq, Linux's pacing qdisc, needs to see: it orphans a packet without a
 * socket as it enqueues it, which would count the packet as gone before
 * it waited at all.
 *
 * Lifetime: the budget is refcounted (the QP's reference, plus one per
 * packet queued) and outlives its QP while packets are queued; a packet
 * leaving then kicks nobody. Module unload waits until every budget is
 * gone (mrc_txq_exit()), since the skb destructor is module code.
 *
 * As each packet leaves, the budget also records when, against its PSN
 * (mrc_departure.h): the requester takes that wait out of the RTT samples
 * it gives congestion control. A slot per PSN of the requester's window.
 *
 * The budget knows neither sender: the QP passes the function that wakes
 * them (mrc_qp.c), called under @lock from the destructor.
 *
 * Locking: @lock (any context but hard IRQ: it is taken from skb
 * destructors) guards @qp. The count and the throttled flag are atomics;
 * see mrc_txq_full() for their ordering. A departure record is one
 * atomic64_t, written by the destructor and read by the ACK path with no
 * lock: a record is checked against the sample it serves.
 */
#ifndef MRC_TXQ_H
#define MRC_TXQ_H

#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct mrc_qp;
struct sk_buff;
struct socket;

struct mrc_txq {
	refcount_t refs;
	atomic_t queued;	/* the QP's packets in local queues */
	atomic_t throttled;	/* a sender waits for them to drain */
	int wake_at;		/* ... down to this many */
	spinlock_t lock;	/* guards @qp */
	struct mrc_qp *qp;	/* NULL once the QP is being destroyed */
	void (*wake)(struct mrc_qp *qp);	/* it may send again */
	struct socket *sock;	/* owner of the queued skbs; never bound */
	u64 throttles;		/* times a sender stopped (debugfs) */
	atomic64_t *departures;	/* by PSN: mrc_departure_record() */
	u32 departures_mask;	/* slots - 1 */
};

/*
 * A budget for @qp recording departures of a window of @window PSNs (a
 * power of two); NULL without memory or socket (errno in *@err). @wake
 * runs when a throttled @qp's packets have drained (mrc_txq_full()), in
 * softirq or process context, and must not sleep.
 */
struct mrc_txq *mrc_txq_create(struct mrc_qp *qp,
			       void (*wake)(struct mrc_qp *qp), u32 window,
			       int *err);

/*
 * The QP is being destroyed: from now on no packet leaving kicks it, and
 * the budget goes with its last packet. Process context.
 */
void mrc_txq_detach(struct mrc_txq *q);

/*
 * Counts @skb as queued locally until it is freed or orphaned. Call right
 * before handing it to the IP layer or the netdev.
 */
void mrc_txq_own(struct mrc_txq *q, struct sk_buff *skb);

/*
 * Whether @limit packets (0: no limit) are queued locally, counting
 * @pending ones built and about to be owned (mrc_txq_own()). When true,
 * the packet whose leaving halves the queue wakes the QP's senders. Under
 * qp->lock.
 */
bool mrc_txq_full(struct mrc_txq *q, u32 limit, u32 pending);

static inline u32 mrc_txq_queued(const struct mrc_txq *q)
{
	return atomic_read(&q->queued);
}

/* The last departure recorded in @psn's slot (mrc_departure_wait()). */
static inline u64 mrc_txq_departure(struct mrc_txq *q, u32 psn)
{
	return atomic64_read(&q->departures[psn & q->departures_mask]);
}

/* Module unload: waits for the last budget (and skb destructor). */
void mrc_txq_exit(void);

#endif /* MRC_TXQ_H */
