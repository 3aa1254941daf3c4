// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc-api-bench --api mrc|verbs --mode write_bw|wimm_rate|lat [OPTIONS]
 *               DEV_A IP_A DEV_B IP_B
 *
 * RDMA WRITE bandwidth, WRITE with immediate message rate and WRITE with
 * immediate ping-pong latency between two devices of this host (one
 * process opens both ends, as mrc-api-probe does), through the OCP MRC API
 * (--api mrc: MRC QPs, mrc.h) or through plain verbs (--api verbs: RC QPs
 * of the same devices). Both go through one loop; only the calls that
 * post, poll and wait differ, so that the figures compare the APIs.
 *
 *   write_bw   A WRITEs ITERS messages of SIZE bytes (default 65536) to B,
 *              WINDOW in flight; prints "# write_bw MBps N" (10^6 B/s).
 *   wimm_rate  A WRITEs with immediate ITERS messages of SIZE bytes
 *              (default 8) to B, WINDOW in flight, B's receives posted up
 *              front; prints "# wimm_rate Mmsg N" (10^6 messages/s).
 *   lat        A and B ping-pong ITERS WRITEs with immediate of SIZE bytes
 *              (default 8), each waiting for its receive by sleeping on
 *              the completion channel (--poll: by busy polling); prints
 *              "# lat_us N", half the median round trip, and the average.
 *
 * Message i comes from the sender's pattern at an offset that depends on i
 * and lands at i * SIZE in the receiver's buffer, so that once the run is
 * over every byte of every message is checked where it landed (and every
 * immediate and byte count as its receive completes, in RC order). Exits
 * 1 on a mismatch, a failed completion or anything refused, 2 on bad
 * arguments.
 *
 * Options: -s SIZE, -n ITERS, -w WINDOW (sends in flight; the MRC QP's
 * max_wimm is set to it), --poll, --seed SEED, --timeout SECONDS (the
 * whole run; default 300), --no-trim-nak (--api mrc: both QPs get
 * MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED, so a responder answers the
 * trimmed packets it receives with nothing).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mrc.h>

#include "mrc_api_util.h"
#include "probe_util.h"

/*
 * Message i is read from the sender's pattern at (i % SHIFTS) * 8: a
 * message that lands in the place of another shows, unless the two are a
 * multiple of SHIFTS apart.
 */
#define SHIFTS		8191u
#define SHIFT_STEP	8u
/* The receiving buffer holds every message of the run. */
#define MAX_DST		(256ul << 20)
#define MAX_RQ		8192u
#define LAT_SQ		64u
#define PSN		0x100

enum mode { WRITE_BW, WIMM_RATE, LAT };

static bool use_mrc, use_poll, no_trim_nak;
static enum mode mode;
static uint32_t size, window, sig;
static uint64_t iters;

struct end {
	const char *name;
	struct ibv_context *vctx;
	struct mrc_context *mctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	uint8_t *buf;		/* the pattern, then the messages received */
	size_t src_len, dst_len;
	union {
		struct ibv_comp_channel *v;
		struct mrc_comp_channel *m;
	} ch;
	union {
		struct ibv_cq *v;
		struct mrc_cq *m;
	} scq, rcq;
	union {
		struct ibv_qp *v;
		struct mrc_qp *m;
	} qp;
	uint32_t qpn, sq_depth, rq_depth;
	int gid_index;
	union ibv_gid gid;
	enum ibv_mtu mtu;
	bool armed;
	/* Sends posted, and retired by a signaled completion. */
	uint64_t sent, send_done;
	uint64_t recv_posted, received;
};

static int fail(const struct end *e, const char *what, int err)
{
	fprintf(stderr, "mrc-api-bench: %s: %s: %s\n", e->name, what,
		strerror(err));
	return -1;
}

static void on_alarm(int sig_num)
{
	static const char msg[] = "mrc-api-bench: the run timed out\n";

	(void)sig_num;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static void fill_pattern(uint8_t *p, size_t len, uint64_t seed)
{
	uint64_t s = seed | 1;

	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(rnd(&s) >> 56);
}

/* ---- the calls that differ between the APIs ---- */

static int post_send(struct end *e, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return use_mrc ? mrc_post_send(e->qp.m, wr, &bad) :
			 ibv_post_send(e->qp.v, wr, &bad);
}

static int post_recv(struct end *e, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad;

	if (use_mrc)
		return mrc_post_recv(e->qp.m, wr, &bad) ? errno : 0;
	return ibv_post_recv(e->qp.v, wr, &bad);
}

static int poll_send_cq(struct end *e, int n, struct ibv_wc *wc)
{
	return use_mrc ? mrc_poll_cq(e->scq.m, n, wc) :
			 ibv_poll_cq(e->scq.v, n, wc);
}

static int poll_recv_cq(struct end *e, int n, struct ibv_wc *wc)
{
	return use_mrc ? mrc_poll_cq(e->rcq.m, n, wc) :
			 ibv_poll_cq(e->rcq.v, n, wc);
}

static int arm_recv_cq(struct end *e)
{
	return use_mrc ? mrc_req_notify_cq(e->rcq.m, 0) :
			 ibv_req_notify_cq(e->rcq.v, 0);
}

/* Sleeps until the receive CQ's next event, and acknowledges it. */
static int wait_cq_event(struct end *e)
{
	void *cq_ctx;

	if (use_mrc) {
		struct mrc_cq *cq;

		if (mrc_get_cq_event(e->ch.m, &cq, &cq_ctx))
			return errno;
		mrc_ack_cq_events(cq, 1);
	} else {
		struct ibv_cq *cq;

		if (ibv_get_cq_event(e->ch.v, &cq, &cq_ctx))
			return errno;
		ibv_ack_cq_events(cq, 1);
	}
	return 0;
}

/* ---- set-up ---- */

static int open_end(struct end *e, const char *dev, const char *ip)
{
	struct ibv_port_attr port;
	int cqe_s, cqe_r, err;

	e->name = dev;
	e->vctx = probe_open_device(dev);
	if (!e->vctx)
		return -1;
	e->gid_index = probe_find_gid(e->vctx, ip, &e->gid);
	if (e->gid_index < 0) {
		fprintf(stderr, "mrc-api-bench: %s has no GID for %s\n", dev, ip);
		return -1;
	}
	if (ibv_query_port(e->vctx, 1, &port))
		return fail(e, "ibv_query_port", errno);
	e->mtu = port.active_mtu;

	e->src_len = size + (size_t)SHIFTS * SHIFT_STEP;
	e->dst_len = iters * size;
	e->buf = aligned_alloc(4096, (e->src_len + e->dst_len + 4095) & ~4095ul);
	e->pd = ibv_alloc_pd(e->vctx);
	if (!e->buf || !e->pd)
		return fail(e, "buffer or PD", ENOMEM);
	memset(e->buf + e->src_len, 0, e->dst_len);
	e->mr = ibv_reg_mr(e->pd, e->buf, e->src_len + e->dst_len,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!e->mr)
		return fail(e, "ibv_reg_mr", errno);

	e->sq_depth = mode == LAT ? LAT_SQ : window;
	e->rq_depth = mode == WRITE_BW ? 1 : iters < MAX_RQ ? iters : MAX_RQ;
	cqe_s = e->sq_depth;
	cqe_r = e->rq_depth;
	if (use_mrc) {
		struct mrc_context_attr ca = { MRC_API_CURRENT_VERSION, 0 };
		struct mrc_qp_init_attr ia;

		e->mctx = mrc_create_context(e->vctx, &ca);
		if (!e->mctx)
			return fail(e, "mrc_create_context", errno);
		err = mrc_create_comp_channel(e->mctx, &e->ch.m);
		if (err)
			return fail(e, "mrc_create_comp_channel", err);
		e->scq.m = mrc_create_cq(e->mctx, cqe_s, NULL, NULL, 0);
		e->rcq.m = mrc_create_cq(e->mctx, cqe_r, NULL, e->ch.m, 0);
		if (!e->scq.m || !e->rcq.m)
			return fail(e, "mrc_create_cq", errno);
		memset(&ia, 0, sizeof(ia));
		ia.send_cq = e->scq.m;
		ia.recv_cq = e->rcq.m;
		ia.pd = e->pd;
		ia.cap.max_send_wr = e->sq_depth;
		ia.cap.max_recv_wr = e->rq_depth;
		ia.cap.max_send_sge = 1;
		ia.cap.max_recv_sge = 1;
		ia.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
		e->qp.m = mrc_create_qp(e->mctx, &ia);
		if (!e->qp.m)
			return fail(e, "mrc_create_qp", errno);
		if (mrc_get_qpn(e->qp.m, &e->qpn))
			return fail(e, "mrc_get_qpn", errno);
	} else {
		struct ibv_qp_init_attr ia;

		e->ch.v = ibv_create_comp_channel(e->vctx);
		if (!e->ch.v)
			return fail(e, "ibv_create_comp_channel", errno);
		e->scq.v = ibv_create_cq(e->vctx, cqe_s, NULL, NULL, 0);
		e->rcq.v = ibv_create_cq(e->vctx, cqe_r, NULL, e->ch.v, 0);
		if (!e->scq.v || !e->rcq.v)
			return fail(e, "ibv_create_cq", errno);
		memset(&ia, 0, sizeof(ia));
		ia.send_cq = e->scq.v;
		ia.recv_cq = e->rcq.v;
		ia.qp_type = IBV_QPT_RC;
		ia.cap.max_send_wr = e->sq_depth;
		ia.cap.max_recv_wr = e->rq_depth;
		ia.cap.max_send_sge = 1;
		ia.cap.max_recv_sge = 1;
		e->qp.v = ibv_create_qp(e->pd, &ia);
		if (!e->qp.v)
			return fail(e, "ibv_create_qp", errno);
		e->qpn = e->qp.v->qp_num;
	}
	return 0;
}

/* The same timeout (67 ms) and retries whatever the API. */
static int connect_verbs(struct end *e, const struct end *peer)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	if (ibv_modify_qp(e->qp.v, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return fail(e, "modify to INIT", errno);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = e->mtu < peer->mtu ? e->mtu : peer->mtu;
	a.dest_qp_num = peer->qpn;
	a.rq_psn = PSN;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = e->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(e->qp.v, &a, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return fail(e, "modify to RTR", errno);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = PSN;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(e->qp.v, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		return fail(e, "modify to RTS", errno);
	return 0;
}

static int connect_end(struct end *e, const struct end *peer)
{
	struct mrc_conn c;

	if (!use_mrc)
		return connect_verbs(e, peer);
	memset(&c, 0, sizeof(c));
	c.dest_qpn = peer->qpn;
	c.dgid = peer->gid;
	c.sgid_index = e->gid_index;
	c.mtu = e->mtu < peer->mtu ? e->mtu : peer->mtu;
	c.psn = PSN;
	c.mpr = 8;
	c.mpr_dest = 8;
	c.max_wimm = e->sq_depth;
	c.max_wimm_dest = peer->sq_depth;
	c.timeout = 16;
	c.linear_cnt = 7;
	if (no_trim_nak)
		c.cap = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED;
	return mrc_util_connect(e->qp.m, &c, "mrc-api-bench");
}

static int close_end(struct end *e)
{
	int bad = 0;

	if (use_mrc) {
		bad |= e->qp.m && mrc_destroy_qp(e->qp.m);
		bad |= e->scq.m && mrc_destroy_cq(e->scq.m);
		bad |= e->rcq.m && mrc_destroy_cq(e->rcq.m);
		bad |= e->ch.m && mrc_destroy_comp_channel(e->ch.m);
		bad |= e->mctx && mrc_destroy_context(e->mctx);
	} else {
		bad |= e->qp.v && ibv_destroy_qp(e->qp.v);
		bad |= e->scq.v && ibv_destroy_cq(e->scq.v);
		bad |= e->rcq.v && ibv_destroy_cq(e->rcq.v);
		bad |= e->ch.v && ibv_destroy_comp_channel(e->ch.v);
	}
	bad |= e->mr && ibv_dereg_mr(e->mr);
	bad |= e->pd && ibv_dealloc_pd(e->pd);
	bad |= e->vctx && ibv_close_device(e->vctx);
	free(e->buf);
	return bad ? -1 : 0;
}

/* ---- the loop ---- */

static uint8_t *src_of(const struct end *e, uint64_t i)
{
	return e->buf + (i % SHIFTS) * SHIFT_STEP;
}

static uint8_t *dst_of(const struct end *e, uint64_t i)
{
	return e->buf + e->src_len + i * size;
}

/* Message @i from @e to @to; every sig-th and the last one signaled. */
static int send_one(struct end *e, const struct end *to, uint64_t i,
		    enum ibv_wr_opcode op)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)src_of(e, i),
		.length = size,
		.lkey = e->mr->lkey,
	};
	struct ibv_send_wr w;
	int err;

	memset(&w, 0, sizeof(w));
	w.wr_id = i;
	w.sg_list = &sge;
	w.num_sge = 1;
	w.opcode = op;
	if ((i + 1) % sig == 0 || i + 1 == iters)
		w.send_flags = IBV_SEND_SIGNALED;
	w.imm_data = htonl((uint32_t)i);
	w.wr.rdma.remote_addr = (uintptr_t)dst_of(to, i);
	w.wr.rdma.rkey = to->mr->rkey;
	err = post_send(e, &w);
	if (err)
		return fail(e, "post send", err);
	e->sent++;
	return 0;
}

/* Takes what the send CQ holds; a completion retires every older send. */
static int reap_sends(struct end *e)
{
	struct ibv_wc wc[16];
	int n = poll_send_cq(e, 16, wc);

	if (n < 0)
		return fail(e, "poll send CQ", EIO);
	for (int k = 0; k < n; k++) {
		if (wc[k].status != IBV_WC_SUCCESS) {
			fprintf(stderr, "mrc-api-bench: %s: send %llu: %s\n",
				e->name, (unsigned long long)wc[k].wr_id,
				ibv_wc_status_str(wc[k].status));
			return -1;
		}
		if (wc[k].opcode != IBV_WC_RDMA_WRITE ||
		    wc[k].wr_id < e->send_done || wc[k].wr_id >= e->sent) {
			fprintf(stderr, "mrc-api-bench: %s: send completion opcode %d wr_id %llu, %llu..%llu outstanding\n",
				e->name, wc[k].opcode,
				(unsigned long long)wc[k].wr_id,
				(unsigned long long)e->send_done,
				(unsigned long long)e->sent - 1);
			return -1;
		}
		e->send_done = wc[k].wr_id + 1;
	}
	return n;
}

/* Receives, @e's next ones, up to its queue depth or the run's end. */
static int refill_recvs(struct end *e)
{
	struct ibv_recv_wr r;
	int err;

	memset(&r, 0, sizeof(r));
	while (e->recv_posted < iters &&
	       e->recv_posted - e->received < e->rq_depth) {
		r.wr_id = e->recv_posted;
		err = post_recv(e, &r);
		if (err)
			return fail(e, "post receive", err);
		e->recv_posted++;
	}
	return 0;
}

/* A receive completion: RC delivers in order, so it is @e's next. */
static int check_recv(struct end *e, const struct ibv_wc *wc)
{
	uint64_t want = e->received;

	if (wc->status != IBV_WC_SUCCESS) {
		fprintf(stderr, "mrc-api-bench: %s: receive %llu: %s\n", e->name,
			(unsigned long long)want, ibv_wc_status_str(wc->status));
		return -1;
	}
	if (wc->opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
	    !(wc->wc_flags & IBV_WC_WITH_IMM) || wc->wr_id != want ||
	    ntohl(wc->imm_data) != (uint32_t)want || wc->byte_len != size) {
		fprintf(stderr, "mrc-api-bench: %s: receive %llu: opcode %d flags %#x wr_id %llu imm %u byte_len %u\n",
			e->name, (unsigned long long)want, wc->opcode,
			wc->wc_flags, (unsigned long long)wc->wr_id,
			ntohl(wc->imm_data), wc->byte_len);
		return -1;
	}
	e->received++;
	if (e->recv_posted - e->received < e->rq_depth / 2)
		return refill_recvs(e);
	return 0;
}

/*
 * Empties @e's receive CQ. Receives are reposted by the count taken here:
 * completions left in the CQ would be receives the program believes
 * posted and the device has used up, and the sender would meet RNR NAKs.
 */
static int reap_recvs(struct end *e)
{
	struct ibv_wc wc[16];
	int n, total = 0;

	do {
		n = poll_recv_cq(e, 16, wc);
		if (n < 0)
			return fail(e, "poll receive CQ", EIO);
		for (int k = 0; k < n; k++)
			if (check_recv(e, &wc[k]))
				return -1;
		total += n;
	} while (n == 16);
	return total;
}

/*
 * @e's next receive. Sleeping on the channel: poll, arm, poll again (what
 * completed before the arming raises no event), then sleep; an event can
 * be stale, for a completion an earlier poll took, hence the loop.
 */
static int wait_recv(struct end *e)
{
	struct ibv_wc wc;
	int n, err;

	for (;;) {
		n = poll_recv_cq(e, 1, &wc);
		if (n < 0)
			return fail(e, "poll receive CQ", EIO);
		if (n)
			return check_recv(e, &wc);
		if (use_poll) {
			sched_yield();
			continue;
		}
		if (!e->armed) {
			err = arm_recv_cq(e);
			if (err)
				return fail(e, "arm the receive CQ", err);
			e->armed = true;
			continue;
		}
		err = wait_cq_event(e);
		if (err)
			return fail(e, "completion event", err);
		e->armed = false;
	}
}

/* Waits until no more than @left of @e's sends are outstanding. */
static int drain_sends(struct end *e, uint64_t left)
{
	while (e->sent - e->send_done > left) {
		int n = reap_sends(e);

		if (n < 0)
			return -1;
		if (!n)
			sched_yield();
	}
	return 0;
}

static int run_stream(struct end *a, struct end *b)
{
	enum ibv_wr_opcode op = mode == WRITE_BW ? IBV_WR_RDMA_WRITE :
					IBV_WR_RDMA_WRITE_WITH_IMM;
	uint64_t want_recv = mode == WIMM_RATE ? iters : 0;

	while (a->send_done < iters || b->received < want_recv) {
		int n, progress = 0;

		while (a->sent < iters && a->sent - a->send_done < window) {
			if (send_one(a, b, a->sent, op))
				return -1;
			progress = 1;
		}
		n = reap_sends(a);
		if (n < 0)
			return -1;
		progress |= n;
		if (want_recv) {
			n = reap_recvs(b);
			if (n < 0)
				return -1;
			progress |= n;
		}
		if (!progress)
			sched_yield();
	}
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static int run_lat(struct end *a, struct end *b, double *median, double *avg)
{
	double *rtt = malloc(iters * sizeof(*rtt)), sum = 0;

	if (!rtt)
		return fail(a, "latency samples", ENOMEM);
	for (uint64_t i = 0; i < iters; i++) {
		double t0 = probe_now();

		if (send_one(a, b, i, IBV_WR_RDMA_WRITE_WITH_IMM) ||
		    wait_recv(b) ||
		    send_one(b, a, i, IBV_WR_RDMA_WRITE_WITH_IMM) ||
		    wait_recv(a)) {
			free(rtt);
			return -1;
		}
		rtt[i] = probe_now() - t0;
		sum += rtt[i];
		/* Room for the next sends; sig leaves completions on the way. */
		if (drain_sends(a, a->sq_depth - 2 * sig) ||
		    drain_sends(b, b->sq_depth - 2 * sig)) {
			free(rtt);
			return -1;
		}
	}
	qsort(rtt, iters, sizeof(*rtt), cmp_double);
	*median = rtt[iters / 2] / 2;
	*avg = sum / iters / 2;
	free(rtt);
	return drain_sends(a, 0) || drain_sends(b, 0) ? -1 : 0;
}

/* Every byte of every message @to received from @from, and @from's pattern. */
static int check_bytes(const struct end *from, const struct end *to,
		       uint64_t seed, unsigned long long *checked)
{
	uint8_t *want = malloc(from->src_len);

	if (!want)
		return fail(from, "pattern", ENOMEM);
	fill_pattern(want, from->src_len, seed);
	if (memcmp(want, from->buf, from->src_len)) {
		fprintf(stderr, "mrc-api-bench: %s: the source pattern changed\n",
			from->name);
		free(want);
		return -1;
	}
	for (uint64_t i = 0; i < iters; i++) {
		const uint8_t *got = dst_of(to, i);
		const uint8_t *exp = want + (i % SHIFTS) * SHIFT_STEP;

		if (memcmp(got, exp, size)) {
			uint32_t k = 0;

			while (got[k] == exp[k])
				k++;
			fprintf(stderr, "mrc-api-bench: %s -> %s message %llu byte %u of %u: %#x, expected %#x\n",
				from->name, to->name, (unsigned long long)i, k,
				size, got[k], exp[k]);
			free(want);
			return -1;
		}
	}
	*checked += iters * size;
	free(want);
	return 0;
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s --api mrc|verbs --mode write_bw|wimm_rate|lat [-s SIZE] [-n ITERS]\n"
		"       [-w WINDOW] [--poll] [--seed SEED] [--timeout SECONDS] [--no-trim-nak]\n"
		"       DEV_A IP_A DEV_B IP_B\n",
		argv0);
	exit(2);
}

static unsigned long long number(const char *s, const char *argv0)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		usage(argv0);
	return v;
}

int main(int argc, char **argv)
{
	const char *api = NULL, *mode_name = NULL;
	struct end a = { 0 }, b = { 0 };
	unsigned long long checked = 0, seed = 0x5eed, timeout = 300;
	double t0, t1, median = 0, avg = 0;
	bool sized = false;
	int i, status = 1;

	size = 0;
	iters = 1000;
	window = 16;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *opt = argv[i];

		if (!strcmp(opt, "--poll")) {
			use_poll = true;
			continue;
		}
		if (!strcmp(opt, "--no-trim-nak")) {
			no_trim_nak = true;
			continue;
		}
		if (i + 1 >= argc)
			usage(argv[0]);
		if (!strcmp(opt, "--api"))
			api = argv[++i];
		else if (!strcmp(opt, "--mode"))
			mode_name = argv[++i];
		else if (!strcmp(opt, "-s"))
			size = number(argv[++i], argv[0]), sized = true;
		else if (!strcmp(opt, "-n"))
			iters = number(argv[++i], argv[0]);
		else if (!strcmp(opt, "-w"))
			window = number(argv[++i], argv[0]);
		else if (!strcmp(opt, "--seed"))
			seed = number(argv[++i], argv[0]);
		else if (!strcmp(opt, "--timeout"))
			timeout = number(argv[++i], argv[0]);
		else
			usage(argv[0]);
	}
	if (argc - i != 4 || !api || !mode_name)
		usage(argv[0]);
	if (!strcmp(api, "mrc"))
		use_mrc = true;
	else if (strcmp(api, "verbs") || no_trim_nak)
		usage(argv[0]);
	if (!strcmp(mode_name, "write_bw"))
		mode = WRITE_BW;
	else if (!strcmp(mode_name, "wimm_rate"))
		mode = WIMM_RATE;
	else if (!strcmp(mode_name, "lat"))
		mode = LAT;
	else
		usage(argv[0]);
	if (!sized)
		size = mode == WRITE_BW ? 65536 : 8;
	if (!size || size > (1u << 30) || !iters || !window ||
	    window > MAX_RQ || iters > MAX_DST || iters * size > MAX_DST) {
		fprintf(stderr, "mrc-api-bench: want 0 < SIZE, 0 < WINDOW <= %u, and ITERS * SIZE <= %lu\n",
			MAX_RQ, MAX_DST);
		return 2;
	}
	sig = mode == LAT ? 16 : (window + 1) / 2;
	seed = seed ? seed : 1;
	signal(SIGALRM, on_alarm);
	alarm(timeout);

	if (open_end(&a, argv[i], argv[i + 1]) ||
	    open_end(&b, argv[i + 2], argv[i + 3]))
		goto out;
	fill_pattern(a.buf, a.src_len, seed);
	fill_pattern(b.buf, b.src_len, ~seed);
	if (connect_end(&a, &b) || connect_end(&b, &a))
		goto out;
	if (mode != WRITE_BW && (refill_recvs(&b) || refill_recvs(&a)))
		goto out;
	printf("# api %s mode %s size %u iters %llu window %u %s mtu %d\n",
	       api, mode_name, size, (unsigned long long)iters,
	       mode == LAT ? 1 : window,
	       use_poll || mode != LAT ? "polling" : "events",
	       128 << a.mtu);

	t0 = probe_now();
	if (mode == LAT ? run_lat(&a, &b, &median, &avg) : run_stream(&a, &b))
		goto out;
	t1 = probe_now();

	if (check_bytes(&a, &b, seed, &checked) ||
	    (mode == LAT && check_bytes(&b, &a, ~seed, &checked)))
		goto out;
	printf("# checked %llu bytes in %llu messages\n", checked,
	       (unsigned long long)(mode == LAT ? 2 * iters : iters));
	if (mode == WRITE_BW)
		printf("# write_bw MBps %.2f\n", iters * size / (t1 - t0) / 1e6);
	else if (mode == WIMM_RATE)
		printf("# wimm_rate Mmsg %.4f\n", iters / (t1 - t0) / 1e6);
	else
		printf("# lat_us %.2f\n# lat_avg_us %.2f\n", median * 1e6,
		       avg * 1e6);
	status = 0;
out:
	if (close_end(&a) | close_end(&b)) {
		fprintf(stderr, "mrc-api-bench: teardown failed\n");
		status = 1;
	}
	return status;
}
