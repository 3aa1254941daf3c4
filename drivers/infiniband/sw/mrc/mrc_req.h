/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The requester of an RC QP: it takes send work requests off the send
 * queue, cuts them into packets, sends and retransmits them, and completes
 * them when acknowledged (Documentation/datapath.rst). Everything here is
 * guarded by qp->lock.
 *
 * One sender at a time: the send task (@task, mrc_task.h) has one runner,
 * the send work or a user task ringing the doorbell; it builds packets
 * under qp->lock, drops the lock to hand them to the IP layer, and runs
 * again when kicked meanwhile (or hands over to the send work after a
 * burst), so packets leave in the order they were built and no two CPUs
 * interleave one QP's packets.
 */
#ifndef MRC_REQ_H
#define MRC_REQ_H

#include <linux/hrtimer.h>
#include <rdma/mrc-abi.h>

#include "mrc_nscc.h"
#include "mrc_param.h"
#include "mrc_sender.h"
#include "mrc_task.h"

struct mrc_dev;
struct mrc_qp;
struct seq_file;
struct sk_buff;
struct mrc_pkt;
struct mrc_rx_meta;

/* PSNs a requester may have outstanding: the responder's window. */
#define MRC_REQ_WINDOW		MRC_RX_WINDOW
/* Every this many packets of a message also asks for an ACK. */
#define MRC_ACK_INTERVAL	8
/*
 * PSNs in flight at most, until congestion control (NSCC) sizes the window
 * from what the network says: enough to fill a path, few enough not to
 * overflow a receiving netdev's backlog in one burst.
 */
#define MRC_REQ_FIXED_CWND	256
/*
 * The adaptive RTO (mrc_rto.h; Documentation/reliability.rst) stays
 * between the QP's timeout attribute T and this many times T: the range
 * IB allows the transport timer.
 */
#define MRC_REQ_RTO_MAX_FACTOR	4
/*
 * In the exponential retry stage the RTO doubles past that, up to this
 * many times T: an outage of seconds is ridden out with a handful of
 * retransmissions, and the first after it comes at most this late (a
 * path that comes back through probes restarts the sender at once).
 */
#define MRC_REQ_RTO_EXP_MAX_FACTOR	64
/* Packets one run of the send task sends before yielding the CPU. */
#define MRC_REQ_BURST		64
/*
 * A READ asks for its data a segment of at most this many MTUs at a time,
 * and for the next segment once the last one has arrived: READ responses,
 * which nobody acknowledges, are bounded like the requests the window
 * bounds, and a lost response costs re-asking for the rest of its segment
 * only.
 */
#define MRC_READ_SEGMENT_PKTS	64

/* A send work request the kernel has copied out of the send queue. */
struct mrc_send_entry {
	struct mrc_send_wqe wqe;
	union {
		struct mrc_sge sge[MRC_MAX_SGE];
		u8 inline_data[MRC_MAX_INLINE_DATA];
	};
	u32 length;		/* bytes of the message */
	u32 npkts;		/* PSNs it takes when posted to the sender */
	bool posted;		/* to the sender core, as message @msg */
	u32 msg;
	u32 msn;
	u8 opcode;		/* MRC_OP_* */
	u8 status;		/* enum ib_wc_status once known */
	bool local;		/* REG_MR or LOCAL_INV: no packets */
	bool local_done;	/* ... and executed */
	bool response_done;	/* READ data or atomic result arrived */
	u32 read_received;	/* READ bytes placed so far */
	unsigned long *read_map; /* READ: which response packets arrived */
	u32 read_offset;	/* READ: the segment being read, */
	u32 read_end;		/* ... [read_offset, read_end), */
	u32 read_ask_end;	/* ... of which the last request asked up to */
	u32 read_psn;		/* READ: PSN of the last request */
	u32 read_trims;		/* ... its responses that came trimmed */
	bool read_again;	/* READ: the rest is to be re-asked */
	bool read_answered;	/* READ/atomic: its last request answered */
	u64 requested_at;	/* READ/atomic: (re)requested or progressed */
	u32 rerequests;
};

struct mrc_req_state {
	struct mrc_send_entry *entries;	/* one per send queue slot */
	/*
	 * The protocol's decisions (core/mrc_sender.h): the SACK tracker over
	 * @slots, the RTO, the retries, EV blame, NSCC over @cc. Its messages
	 * (@msgs, one per send queue slot) are the entries, the cookie the
	 * send queue index.
	 */
	struct mrc_sender sender;
	struct mrc_tx_slot *slots;	/* MRC_REQ_WINDOW */
	u32 *pkts;			/* MRC_REQ_WINDOW: packet of a PSN */
	struct mrc_sender_msg *msgs;	/* one per send queue slot */
	struct mrc_sender_stats counted; /* of sender.stats, in counters */
	u32 next_msn_recv;		/* RSN: SEND*, WRITE_IMM */
	u32 next_msn_rdatomic;		/* READ_REQ, ATOMIC_* */
	u32 next_msn_write;		/* WRITE */
	u32 mtu;			/* payload bytes per packet */
	u32 rnr_retries;
	u64 rnr_until_us;		/* no sending before this */
	u32 send_index;			/* next send queue index to post */
	/*
	 * READs and atomics posted to the sender and not completed: the
	 * passes that look for one among the outstanding entries skip the
	 * look when there is none. Never below the true count; RESET may
	 * leave it above, until RTS zeroes it.
	 */
	u32 rd_atomic_posted;
	u8 rto_timeout;			/* qp->timeout the bounds are from */
	u64 timer_due_us;		/* when @timer was set to fire */
	u64 response_at_us;		/* the last READ/atomic response */
	/*
	 * Congestion control: the device's CC settings as of RTR, and the
	 * NSCC window from RTS when @cc_enabled (else the fixed window).
	 */
	bool cc_enabled;
	bool cc_rtt_from_build;		/* not from departure (settings) */
	u32 least_wait_us;		/* settings: 0, the timer's resolution */
	struct mrc_nscc_params cc_params;
	struct mrc_nscc cc;
	u64 local_wait_us;		/* smoothed build-to-departure wait */
	struct mrc_task task;		/* builds and transmits */
	struct hrtimer timer;
	bool started;			/* sender initialised at RTS */
	bool stopping;			/* destroy: no more timers */
};

int mrc_req_init(struct mrc_qp *qp);
void mrc_req_cleanup(struct mrc_qp *qp);
/*
 * On the way to RTR (process context, qp->lock not held): copies the
 * device's congestion control settings for the QP.
 */
void mrc_req_prepare(struct mrc_qp *qp);
/* The QP entered RTS: start PSNs, MTU, path. Caller holds qp->lock. */
void mrc_req_start(struct mrc_qp *qp);
/*
 * Something to do: new work requests, an ACK, a timer. Any context but a
 * hard IRQ handler (mrc_task_kick()).
 */
void mrc_req_kick(struct mrc_qp *qp);
/*
 * New send work requests were posted; the caller holds no lock. A user
 * QP's doorbell sends at once in the calling task; others kick the work.
 */
void mrc_req_doorbell(struct mrc_qp *qp);
/* ACK, NAK, READ_RESP, ATOMIC_RESP for this QP; softirq. */
void mrc_req_rcv(struct mrc_qp *qp, struct sk_buff *skb,
		 const struct mrc_pkt *pkt, const struct mrc_rx_meta *meta);
/*
 * A PROBE_REPLY for this QP, answering one of its requester's probes
 * (mrc_qp_paths_send_probe()); softirq, no lock held.
 */
void mrc_req_rcv_probe_reply(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			     const struct mrc_rx_meta *meta);
/*
 * debugfs: one line per RC QP of @mdev that reached RTS: "IBDEV QPN CC
 * CWND INFLIGHT SRTT RTTVAR RTO BACKOFF TXQ THROTTLES WAIT" (see
 * mrc_debugfs.c).
 */
void mrc_req_show(struct mrc_dev *mdev, struct seq_file *m);

#endif /* MRC_REQ_H */
