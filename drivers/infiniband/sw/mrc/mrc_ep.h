/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Connectionless endpoint operations: the controller's EV probes
 * (MRC_CTL_CMD_EP_PROBE, Documentation/controller.rst). A device sends an
 * EP_PROBE from one of its GIDs to a peer's address over a chosen plane
 * and EV; the peer's device itself (no QP) answers with an EP_PROBE_REPLY
 * that echoes the probe's cookie and timestamp, and the prober measures
 * the round trip. Documentation/wire-format.rst has the packets.
 *
 * Port status updates (MRC_CTL_CMD_EP_PORT_STATUS) go the same way, as
 * EP_PORT_STATUS with the sender's port up mask: the peer's device records
 * it by the sender's address (core/mrc_peer_ports.h), its connections to
 * that address stop using the planes said down, and it answers with an
 * EP_PORT_STATUS_REPLY that echoes the mask.
 *
 * Lock rules: one module-wide spinlock (BH) guards every device's list of
 * batches, the batches' answers and their dead flags, so that a caller
 * waiting on a batch holds no device reference (unregistration does not
 * wait for it) and device removal can wake it without the caller touching
 * the device again. A batch is owned by its caller; it is on its device's
 * list from mrc_ep_batch_start() until mrc_ep_batch_wait() or device
 * removal unlinks it, and the receive path touches it only there, under
 * the lock. The answer rate limiter has a spinlock of its own per device.
 * The peers' port table has one too, taken in softirq or, under qp->lock
 * (which modify_qp holds with interrupts off), with interrupts off; its
 * generation is bumped under it after every change.
 */
#ifndef MRC_EP_H
#define MRC_EP_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "mrc_net.h"
#include "mrc_peer_ports.h"

struct mrc_dev;

/*
 * Requests in one batch: their netlink nest (at most 104 bytes each) must
 * fit an attribute's 16-bit length.
 */
#define MRC_EP_MAX_REQS		512
/* Longest wait for one request's answer. */
#define MRC_EP_TIMEOUT_MAX_NS	(10ULL * NSEC_PER_SEC)
/*
 * Answers a device sends in a burst at most, then at the ep_reply_rate
 * module parameter's rate (per second, default 10000; 0: none): enough
 * for controllers probing every EV of their profiles, too few to make the
 * device a useful reflector.
 */
#define MRC_EP_REPLY_BURST	1024u
#define MRC_EP_REPLY_RATE	10000u

/**
 * struct mrc_ep_dev - a device's probe state (in struct mrc_dev)
 * @batches: batches waiting for answers (module lock)
 * @next_batch: the id the next batch tries (module lock)
 * @closing: its removal began: no batch is listed any more (module lock)
 * @rl_lock: guards the rate limiter
 * @rl_credit: answers banked, in billionths of an answer, at most a burst
 * @rl_last_ns: when the credit was last brought up to date
 * @ports_lock: guards @ports
 * @ports_gen: bumped on every change of @ports, never 0, for
 *	mrc_ep_peer_ports_apply()
 * @ports: the peers that said a port of theirs is down
 */
struct mrc_ep_dev {
	struct list_head batches;
	u16 next_batch;
	bool closing;
	spinlock_t rl_lock;	/* the rate limiter's, softirq only */
	u64 rl_credit;
	u64 rl_last_ns;
	spinlock_t ports_lock;	/* softirq, or interrupts off */
	atomic_t ports_gen;
	struct mrc_peer_ports ports;
};

/**
 * struct mrc_ep_req - one probe of a batch
 * @req_id: the caller's id, reported with its answer
 * @src: the prober's address (one of the device's GIDs)
 * @dst: the peer's address
 * @plane: the plane it leaves on
 * @path: the EV: UDP source port or SRv6 uSIDs
 * @dscp: DSCP of the probe (0..63)
 * @timeout_ns: how long its answer is awaited, from its departure
 * @deadline_ns: departure + @timeout_ns (ktime_get_ns())
 * @sent_ns: its departure
 * @ts_us: the timestamp it carries, which the answer must echo
 * @n_ports: EP_PORT_STATUS: the device's planes when it was asked
 * @up_mask: EP_PORT_STATUS: the planes it says are up, which the answer
 *	must echo
 * @sent: it left (the IP layer took it)
 * @answered: its answer arrived
 */
struct mrc_ep_req {
	u16 req_id;
	struct mrc_net_addr src;
	struct mrc_net_addr dst;
	u8 plane;
	struct mrc_ev_path path;
	u8 dscp;
	u64 timeout_ns;
	u64 deadline_ns;
	u64 sent_ns;
	u32 ts_us;
	u8 n_ports;
	u8 up_mask;
	bool sent;
	bool answered;
};

/**
 * struct mrc_ep_answer - one answer, in arrival order
 * @req_id: the request's id
 * @plane: the plane the answer came back on, as the responder sent it
 * @rtt_ns: the round trip, the responder's service time removed when
 *	@svc_removed
 * @svc_removed: the responder reported its service time, and it is out
 */
struct mrc_ep_answer {
	u16 req_id;
	u8 plane;
	u64 rtt_ns;
	bool svc_removed;
};

/**
 * struct mrc_ep_batch - a caller's probes and their answers
 * @node: on the device's @batches while it can be answered
 * @wq: the caller waits here
 * @id: the high half of its probes' cookies, unique on the device
 * @opcode: what it sends: MRC_OP_EP_PROBE or MRC_OP_EP_PORT_STATUS
 * @dead: the device went away (module lock)
 * @n_reqs: entries of @reqs
 * @n_sent: of which sent
 * @n_answers: entries of @answers (module lock)
 * @answers: @n_reqs slots
 * @reqs: the requests
 */
struct mrc_ep_batch {
	struct list_head node;
	wait_queue_head_t wq;
	u16 id;
	u8 opcode;
	bool dead;
	u32 n_reqs;
	u32 n_sent;
	u32 n_answers;
	struct mrc_ep_answer *answers;
	struct mrc_ep_req reqs[];
};

/*
 * Whether @a is an address a device answers probes from, and probes: a
 * unicast address (not broadcast, multicast, loopback, unspecified or
 * IPv4-mapped IPv6).
 */
bool mrc_ep_addr_ok(const struct mrc_net_addr *a);

/* At device creation, before it can receive. */
void mrc_ep_dev_init(struct mrc_dev *mdev);
/*
 * As soon as the device's unregistration begins (mrc_removal.c), and again
 * in dealloc_driver for a device that never finished registering: wakes
 * every waiting caller with -ENODEV and fails later batches the same way.
 */
void mrc_ep_dev_close(struct mrc_dev *mdev);

/*
 * Process context: a batch of @n_reqs (<= MRC_EP_MAX_REQS) requests of
 * @opcode (MRC_OP_EP_PROBE or MRC_OP_EP_PORT_STATUS). NULL when out of
 * memory or for bad arguments.
 */
struct mrc_ep_batch *mrc_ep_batch_alloc(u32 n_reqs, u8 opcode);
void mrc_ep_batch_free(struct mrc_ep_batch *batch);

/*
 * Process context, with a registration reference on @mdev: lists @batch on
 * the device and sends its probes, or marks it dead if the device's
 * removal has begun. A probe the IP layer refused (no route,
 * plane down) is never answered. The caller may drop its reference on
 * @mdev afterwards, then calls mrc_ep_batch_wait() once.
 */
void mrc_ep_batch_start(struct mrc_dev *mdev, struct mrc_ep_batch *batch);

/*
 * Process context, no lock held: waits until every sent probe is answered
 * or the last deadline passed, then takes @batch off its device. 0, -EINTR
 * (a signal; the answers so far are kept) or -ENODEV (the device went away).
 */
int mrc_ep_batch_wait(struct mrc_ep_batch *batch);

/*
 * Under the set's lock (qp->lock), any context: when the peers' port
 * table changed since *@seen, makes @set's MRC_EV_PLANE_PEER_PORT_DOWN
 * flags what the table says of @peer (none when it has no entry), and
 * stores the generation in *@seen (0: never applied). Cheap when nothing
 * changed (one atomic read).
 */
void mrc_ep_peer_ports_apply(struct mrc_dev *mdev, const union ib_gid *peer,
			     struct mrc_ev_set *set, u32 *seen, u32 now_us);

/*
 * mrc_recv.c: an EP_PROBE, EP_PORT_STATUS or a reply for @mdev
 * (mrc_rcv()'s rules).
 */
void mrc_ep_rcv(struct mrc_dev *mdev, struct sk_buff *skb,
		const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta);

#endif /* MRC_EP_H */
