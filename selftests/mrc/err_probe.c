// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * err-probe: verbs error paths between two mrc devices, for error_paths.sh.
 * One process drives both ends: the rdma subsystem's shared namespace mode
 * shows every device to every namespace, and each device sends from its
 * own namespace. A is the requester, B the responder; each case checks the
 * exact completion status and, where memory is involved, B's bytes.
 *
 *   err-probe DEV_A GID_A DEV_B GID_B CASE
 *     bad-rkey        an RDMA WRITE with an rkey B never gave out
 *     out-of-bounds   WRITEs before, across the end of and past B's MR
 *     foreign-lkey    an lkey of another PD: IBV_WC_LOC_PROT_ERR at A
 *     wrong-state     posting in RESET, INIT and RTR: EINVAL, nothing runs
 *     flush-on-err    sends stuck in RNR and receives, then ERR: every WR
 *                     flushed, in order
 *     destroy-busy    destroying QPs and CQs with work outstanding
 *     traffic         good WRITEs and SENDs with their bytes checked (the
 *                     connection still works)
 *     live            a checked WRITE and SEND, then "qpn_a N qpn_b N
 *                     rkey_b N va_b N epsn_b N" and "ready"; waits for a
 *                     line on stdin (hostile packets meanwhile), then B's
 *                     memory must be untouched and traffic must work
 *   err-probe DEV_A GID_A DEV_B GID_B stream SECONDS
 *                     WRITEs without end; prints "ready" after the first
 *                     completes (for a SIGKILL from the script)
 *   err-probe DEV hold
 *                     a context with PD, CQ, QP and MR; prints "ready",
 *                     then waits for IBV_EVENT_DEVICE_FATAL (exit 0) or
 *                     SIGTERM (exit 3)
 *
 * GID_x is the GID index of the device's IPv4 address.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

static int failures;

#define EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			failures++;					\
			fprintf(stderr, "%s:%d: %s: ", __FILE__,	\
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fprintf(stderr, "\n");				\
		}							\
	} while (0)

#define BUF_LEN		8192
#define QUEUE_DEPTH	32
/* What B's buffer holds before every case: a write must not change it. */
#define B_PATTERN	0x5a
#define A_PATTERN	0xa5
/* Completions under emulation may take seconds (RTO, RNR timers). */
#define POLL_SECONDS	30

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	int gid_index;
	union ibv_gid gid;
};

/* Nothing more arrives on @cq within @ms milliseconds. */
static bool cq_stays_empty(struct ibv_cq *cq, int ms)
{
	struct ibv_wc wc;
	double end = probe_now() + ms / 1000.0;

	while (probe_now() < end) {
		if (ibv_poll_cq(cq, 1, &wc)) {
			fprintf(stderr, "unexpected completion wr_id %llu %s\n",
				(unsigned long long)wc.wr_id,
				ibv_wc_status_str(wc.status));
			return false;
		}
		usleep(1000);
	}
	return true;
}

static int setup_side(struct side *s, const char *dev, int gid_index)
{
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = QUEUE_DEPTH, .max_recv_wr = QUEUE_DEPTH,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};

	s->ctx = probe_open_device(dev);
	if (!s->ctx)
		return -1;
	s->gid_index = gid_index;
	if (gid_index >= 0 && ibv_query_gid(s->ctx, 1, gid_index, &s->gid)) {
		fprintf(stderr, "%s: no GID %d\n", dev, gid_index);
		return -1;
	}
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 4 * QUEUE_DEPTH, NULL, NULL, 0);
	s->buf = aligned_alloc(4096, BUF_LEN);
	if (!s->pd || !s->cq || !s->buf)
		return -1;
	s->mr = ibv_reg_mr(s->pd, s->buf, BUF_LEN,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ);
	init.send_cq = s->cq;
	init.recv_cq = s->cq;
	s->qp = ibv_create_qp(s->pd, &init);
	if (!s->mr || !s->qp) {
		fprintf(stderr, "%s: MR or QP: %s\n", dev, strerror(errno));
		return -1;
	}
	return 0;
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	return ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

static int to_rtr(struct side *s, const struct side *peer)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = peer->qp->qp_num,
		.rq_psn = 0,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 1,
		.ah_attr = {
			.is_global = 1,
			.port_num = 1,
			.grh = { .dgid = peer->gid,
				 .sgid_index = (uint8_t)s->gid_index,
				 .hop_limit = 64 },
		},
	};

	return ibv_modify_qp(s->qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			     IBV_QP_MIN_RNR_TIMER);
}

static int to_rts(struct ibv_qp *qp, uint8_t rnr_retry)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = rnr_retry,
		.sq_psn = 0,
		.max_rd_atomic = 1,
	};

	return ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* A to RTS towards B, B to RTS towards A. */
static int connect_pair(struct side *a, struct side *b, uint8_t rnr_retry)
{
	if (to_init(a->qp) || to_init(b->qp) || to_rtr(a, b) ||
	    to_rtr(b, a) || to_rts(a->qp, rnr_retry) ||
	    to_rts(b->qp, rnr_retry)) {
		fprintf(stderr, "connecting: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static enum ibv_qp_state qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init))
		return (enum ibv_qp_state)-1;
	return attr.qp_state;
}

/* Every byte of B's buffer still holds the pattern; says where not. */
static bool b_untouched(const struct side *b)
{
	for (int i = 0; i < BUF_LEN; i++)
		if (b->buf[i] != B_PATTERN) {
			fprintf(stderr, "B's byte %d is 0x%02x, not 0x%02x\n",
				i, b->buf[i], B_PATTERN);
			return false;
		}
	return true;
}

/* One signalled RDMA WRITE from A; its completion status, or -1. */
static int write_status(struct side *a, uint32_t lkey, uint64_t raddr,
			uint32_t rkey, uint32_t len, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf, .length = len,
			       .lkey = lkey };
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;
	struct ibv_wc wc;
	int err;

	err = ibv_post_send(a->qp, &wr, &bad);
	if (err) {
		fprintf(stderr, "post_send: %s\n", strerror(err));
		return -1;
	}
	if (probe_poll(a->cq, &wc, 1, POLL_SECONDS) != 1) {
		fprintf(stderr, "no completion for wr_id %llu\n",
			(unsigned long long)wr_id);
		return -1;
	}
	EXPECT(wc.wr_id == wr_id, "wr_id %llu", (unsigned long long)wc.wr_id);
	EXPECT(wc.qp_num == a->qp->qp_num, "qp_num %u", wc.qp_num);
	printf("write len %u to 0x%llx rkey 0x%x: %s\n", len,
	       (unsigned long long)raddr, rkey, ibv_wc_status_str(wc.status));
	return wc.status;
}

static void expect_error_state(struct side *s, const char *who)
{
	enum ibv_qp_state state = qp_state(s->qp);

	/* A failed RC request moves the requester's QP to ERR. */
	EXPECT(state == IBV_QPS_ERR, "%s QP in state %d after the error",
	       who, state);
}

static void case_bad_rkey(struct side *a, struct side *b)
{
	uint32_t rkey = b->mr->rkey ^ 0x80;	/* another key byte */
	int status;

	status = write_status(a, a->mr->lkey, (uintptr_t)b->buf, rkey, 64, 1);
	EXPECT(status == IBV_WC_REM_ACCESS_ERR, "status %s",
	       status < 0 ? "none" : ibv_wc_status_str(status));
	expect_error_state(a, "A");
	EXPECT(b_untouched(b), "B's memory changed");
	/* The responder reports nothing: no receive was consumed. */
	EXPECT(cq_stays_empty(b->cq, 200), "B's CQ");
}

static void case_out_of_bounds(struct side *a, struct side *b)
{
	static const struct {
		const char *what;
		int64_t offset;
		uint32_t len;
	} cases[] = {
		{ "before the start", -8, 64 },
		{ "across the end", BUF_LEN - 8, 64 },
		{ "past the end", BUF_LEN, 8 },
	};

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status;

		printf("# %s\n", cases[i].what);
		status = write_status(a, a->mr->lkey,
				      (uintptr_t)b->buf + cases[i].offset,
				      b->mr->rkey, cases[i].len, 10 + i);
		EXPECT(status == IBV_WC_REM_ACCESS_ERR, "%s: status %s",
		       cases[i].what,
		       status < 0 ? "none" : ibv_wc_status_str(status));
		expect_error_state(a, "A");
		EXPECT(b_untouched(b), "%s: B's memory changed",
		       cases[i].what);
		/* Both QPs afresh for the next case. */
		if (ibv_modify_qp(a->qp, &(struct ibv_qp_attr){
					  .qp_state = IBV_QPS_RESET },
				  IBV_QP_STATE) ||
		    ibv_modify_qp(b->qp, &(struct ibv_qp_attr){
					  .qp_state = IBV_QPS_RESET },
				  IBV_QP_STATE) ||
		    connect_pair(a, b, 7)) {
			EXPECT(0, "reconnect: %s", strerror(errno));
			return;
		}
		/* Drain what the resets flushed, if anything. */
		while (ibv_poll_cq(a->cq, 1, &(struct ibv_wc){}) > 0)
			;
		while (ibv_poll_cq(b->cq, 1, &(struct ibv_wc){}) > 0)
			;
	}
}

static void case_foreign_lkey(struct side *a, struct side *b)
{
	struct ibv_pd *other = ibv_alloc_pd(a->ctx);
	uint8_t *buf = aligned_alloc(4096, 4096);
	struct ibv_mr *mr;
	int status;

	mr = other && buf ? ibv_reg_mr(other, buf, 4096,
				       IBV_ACCESS_LOCAL_WRITE) : NULL;
	EXPECT(mr, "MR in another PD: %s", strerror(errno));
	if (!mr)
		return;
	status = write_status(a, mr->lkey, (uintptr_t)b->buf, b->mr->rkey,
			      64, 20);
	EXPECT(status == IBV_WC_LOC_PROT_ERR, "status %s",
	       status < 0 ? "none" : ibv_wc_status_str(status));
	expect_error_state(a, "A");
	EXPECT(b_untouched(b), "B's memory changed");
	EXPECT(ibv_dereg_mr(mr) == 0, "dereg");
	EXPECT(ibv_dealloc_pd(other) == 0, "dealloc PD");
	free(buf);
}

static void case_wrong_state(struct side *a, struct side *b)
{
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf, .length = 16,
			       .lkey = a->mr->lkey };
	struct ibv_send_wr swr = {
		.wr_id = 30, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = (uintptr_t)b->buf,
			     .rkey = b->mr->rkey },
	}, *bad_swr;
	struct ibv_recv_wr rwr = { .wr_id = 31, .sg_list = &sge,
				   .num_sge = 1 }, *bad_rwr;
	int err;

	/* RESET: neither queue takes work. */
	bad_swr = NULL;
	err = ibv_post_send(a->qp, &swr, &bad_swr);
	printf("send in RESET: %s\n", strerror(err));
	EXPECT(err == EINVAL && bad_swr == &swr, "send in RESET: %d", err);
	bad_rwr = NULL;
	err = ibv_post_recv(a->qp, &rwr, &bad_rwr);
	printf("receive in RESET: %s\n", strerror(err));
	EXPECT(err == EINVAL && bad_rwr == &rwr, "recv in RESET: %d", err);

	/* INIT and RTR: receives yes, sends no. */
	EXPECT(to_init(a->qp) == 0 && to_init(b->qp) == 0, "INIT");
	bad_swr = NULL;
	err = ibv_post_send(a->qp, &swr, &bad_swr);
	printf("send in INIT: %s\n", strerror(err));
	EXPECT(err == EINVAL && bad_swr == &swr, "send in INIT: %d", err);
	EXPECT(to_rtr(a, b) == 0 && to_rtr(b, a) == 0, "RTR");
	bad_swr = NULL;
	err = ibv_post_send(a->qp, &swr, &bad_swr);
	printf("send in RTR: %s\n", strerror(err));
	EXPECT(err == EINVAL && bad_swr == &swr, "send in RTR: %d", err);
	EXPECT(cq_stays_empty(a->cq, 200), "refused sends completed");
	EXPECT(b_untouched(b), "a refused send wrote B");

	/* A state change the QP cannot make: RTR straight back to INIT. */
	err = ibv_modify_qp(a->qp, &(struct ibv_qp_attr){
				    .qp_state = IBV_QPS_INIT },
			    IBV_QP_STATE);
	printf("RTR to INIT: %s\n", strerror(err));
	EXPECT(err == EINVAL, "RTR to INIT: %d", err);

	/* And the same QPs work once in RTS. */
	EXPECT(to_rts(a->qp, 7) == 0 && to_rts(b->qp, 7) == 0, "RTS");
	err = write_status(a, a->mr->lkey, (uintptr_t)b->buf, b->mr->rkey, 16,
			   32);
	EXPECT(err == IBV_WC_SUCCESS, "write in RTS: %d", err);
	EXPECT(!memcmp(a->buf, b->buf, 16), "bytes written in RTS");
}

/*
 * B posts no receive and A's rnr_retry is 7 (retry for ever): A's SENDs
 * stay outstanding against a live peer. Then A goes to ERR: every send and
 * every receive A had posted completes with IBV_WC_WR_FLUSH_ERR, in order.
 */
static void case_flush_on_err(struct side *a, struct side *b)
{
	enum { SENDS = 8, RECVS = 5 };
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf, .length = 256,
			       .lkey = a->mr->lkey };
	struct ibv_send_wr swr[SENDS], *bad_swr;
	struct ibv_recv_wr rwr[RECVS], *bad_rwr;
	struct ibv_wc wc[SENDS + RECVS];
	int got, sends = 0, recvs = 0;

	if (connect_pair(a, b, 7)) {
		EXPECT(0, "connect");
		return;
	}
	for (int i = 0; i < RECVS; i++)
		rwr[i] = (struct ibv_recv_wr){
			.wr_id = 500 + i, .sg_list = &sge, .num_sge = 1,
			.next = i + 1 < RECVS ? &rwr[i + 1] : NULL,
		};
	for (int i = 0; i < SENDS; i++)
		swr[i] = (struct ibv_send_wr){
			.wr_id = 400 + i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
			.next = i + 1 < SENDS ? &swr[i + 1] : NULL,
		};
	EXPECT(ibv_post_recv(a->qp, rwr, &bad_rwr) == 0, "receives");
	EXPECT(ibv_post_send(a->qp, swr, &bad_swr) == 0, "sends");
	/* Long enough for several RNR rounds: nothing may complete. */
	EXPECT(cq_stays_empty(a->cq, 1000), "A completed during RNR");

	EXPECT(ibv_modify_qp(a->qp, &(struct ibv_qp_attr){
				     .qp_state = IBV_QPS_ERR },
			     IBV_QP_STATE) == 0, "to ERR");
	got = probe_poll(a->cq, wc, SENDS + RECVS, POLL_SECONDS);
	EXPECT(got == SENDS + RECVS, "%d of %d flushed", got, SENDS + RECVS);
	for (int i = 0; i < got; i++) {
		bool is_send = wc[i].opcode == IBV_WC_SEND;
		uint64_t want = is_send ? 400u + sends++ : 500u + recvs++;

		EXPECT(wc[i].status == IBV_WC_WR_FLUSH_ERR,
		       "wr_id %llu: %s", (unsigned long long)wc[i].wr_id,
		       ibv_wc_status_str(wc[i].status));
		EXPECT(wc[i].wr_id == want, "wr_id %llu, not %llu",
		       (unsigned long long)wc[i].wr_id,
		       (unsigned long long)want);
		EXPECT(is_send || wc[i].opcode == IBV_WC_RECV, "opcode %d",
		       wc[i].opcode);
		EXPECT(wc[i].qp_num == a->qp->qp_num, "qp_num %u",
		       wc[i].qp_num);
	}
	printf("flushed %d sends and %d receives\n", sends, recvs);
	EXPECT(sends == SENDS && recvs == RECVS, "sends %d receives %d",
	       sends, recvs);
	EXPECT(cq_stays_empty(a->cq, 200), "more than flushed");
	EXPECT(cq_stays_empty(b->cq, 200), "B completed a receive it lacked");
}

/*
 * Destroying with work outstanding: A's QP with SENDs stuck in RNR, B's
 * with receives posted. The destroys succeed, then the CQs (a CQ with a
 * QP on it would be refused: EBUSY), and nothing leaks (the script checks
 * `rdma resource`).
 */
static void case_destroy_busy(struct side *a, struct side *b)
{
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf, .length = 256,
			       .lkey = a->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND }, *bad_swr;
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *bad_rwr;
	int err;

	if (connect_pair(a, b, 7)) {
		EXPECT(0, "connect");
		return;
	}
	for (int i = 0; i < 8; i++) {
		wr.wr_id = 600 + i;
		EXPECT(ibv_post_send(a->qp, &wr, &bad_swr) == 0, "send %d", i);
	}
	EXPECT(cq_stays_empty(a->cq, 300), "A completed during RNR");
	/* B's QP takes receives only now: its ring is not empty either. */
	EXPECT(ibv_modify_qp(b->qp, &(struct ibv_qp_attr){
				     .qp_state = IBV_QPS_ERR },
			     IBV_QP_STATE) == 0, "B to ERR");

	err = ibv_destroy_cq(a->cq);
	printf("destroying A's CQ under its QP: %s\n", strerror(err));
	EXPECT(err == EBUSY, "CQ in use destroyed: %d", err);

	EXPECT(ibv_destroy_qp(a->qp) == 0, "destroy A's busy QP");
	a->qp = NULL;
	for (int i = 0; i < 4; i++)
		ibv_post_recv(b->qp, &rwr, &bad_rwr);
	EXPECT(ibv_destroy_qp(b->qp) == 0, "destroy B's QP");
	b->qp = NULL;
	EXPECT(ibv_destroy_cq(a->cq) == 0, "destroy A's CQ");
	EXPECT(ibv_destroy_cq(b->cq) == 0, "destroy B's CQ");
	a->cq = NULL;
	b->cq = NULL;
}

/* Good WRITEs and SENDs, every byte checked at B. */
static void case_traffic(struct side *a, struct side *b)
{
	struct ibv_sge ssge = { .addr = (uintptr_t)a->buf, .lkey = a->mr->lkey };
	struct ibv_sge rsge = { .addr = (uintptr_t)b->buf, .length = BUF_LEN,
				.lkey = b->mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 700, .sg_list = &rsge,
				   .num_sge = 1 }, *bad_rwr;
	struct ibv_send_wr swr = { .wr_id = 701, .sg_list = &ssge,
				   .num_sge = 1, .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED }, *bad_swr;
	struct ibv_wc wc;
	int status;

	for (int i = 0; i < BUF_LEN; i++)
		a->buf[i] = (uint8_t)(i * 7 + 3);
	status = write_status(a, a->mr->lkey, (uintptr_t)b->buf + 100,
			      b->mr->rkey, 5000, 702);
	EXPECT(status == IBV_WC_SUCCESS, "write: %d", status);
	EXPECT(!memcmp(b->buf + 100, a->buf, 5000), "written bytes differ");
	for (int i = 0; i < 100; i++)
		EXPECT(b->buf[i] == B_PATTERN, "byte %d before the write", i);
	for (int i = 5100; i < BUF_LEN; i++)
		if (b->buf[i] != B_PATTERN) {
			EXPECT(0, "byte %d after the write changed", i);
			break;
		}

	memset(b->buf, B_PATTERN, BUF_LEN);
	for (int i = 0; i < BUF_LEN; i++)
		a->buf[i] = (uint8_t)(i * 13 + 1);
	ssge.length = 3000;
	EXPECT(ibv_post_recv(b->qp, &rwr, &bad_rwr) == 0, "receive");
	EXPECT(ibv_post_send(a->qp, &swr, &bad_swr) == 0, "send");
	EXPECT(probe_poll(a->cq, &wc, 1, POLL_SECONDS) == 1 &&
	       wc.status == IBV_WC_SUCCESS,
	       "send completion");
	EXPECT(probe_poll(b->cq, &wc, 1, POLL_SECONDS) == 1 &&
	       wc.status == IBV_WC_SUCCESS &&
	       wc.wr_id == 700 && wc.byte_len == 3000 &&
	       wc.opcode == IBV_WC_RECV, "receive completion %s len %u",
	       ibv_wc_status_str(wc.status), wc.byte_len);
	EXPECT(!memcmp(b->buf, a->buf, 3000), "sent bytes differ");
	printf("write of 5000 and send of 3000 bytes arrived intact\n");
}

/*
 * A live connection for hostile packets: one 64-byte WRITE (PSN 0) and one
 * 64-byte SEND (PSN 1) checked, so B expects PSN 2 next; then the numbers
 * a forger needs, "ready", and a wait for a line on stdin while the script
 * sends. Then B's buffer must be untouched and the connection must still
 * carry checked traffic.
 */
static void run_live(struct side *a, struct side *b)
{
	struct ibv_sge rsge = { .addr = (uintptr_t)b->buf, .length = 64,
				.lkey = b->mr->lkey };
	struct ibv_sge ssge = { .addr = (uintptr_t)a->buf, .length = 64,
				.lkey = a->mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 800, .sg_list = &rsge,
				   .num_sge = 1 }, *bad_rwr;
	struct ibv_send_wr swr = { .wr_id = 801, .sg_list = &ssge,
				   .num_sge = 1, .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED }, *bad_swr;
	struct ibv_wc wc;
	char line[16];
	int status;

	for (int i = 0; i < 64; i++)
		a->buf[i] = (uint8_t)(i + 1);
	status = write_status(a, a->mr->lkey, (uintptr_t)b->buf, b->mr->rkey,
			      64, 802);
	EXPECT(status == IBV_WC_SUCCESS && !memcmp(a->buf, b->buf, 64),
	       "first write");
	memset(b->buf, B_PATTERN, BUF_LEN);
	EXPECT(ibv_post_recv(b->qp, &rwr, &bad_rwr) == 0, "receive");
	EXPECT(ibv_post_send(a->qp, &swr, &bad_swr) == 0, "send");
	EXPECT(probe_poll(a->cq, &wc, 1, POLL_SECONDS) == 1 &&
	       wc.status == IBV_WC_SUCCESS,
	       "send completion");
	EXPECT(probe_poll(b->cq, &wc, 1, POLL_SECONDS) == 1 &&
	       wc.status == IBV_WC_SUCCESS &&
	       wc.byte_len == 64, "receive completion");
	EXPECT(!memcmp(a->buf, b->buf, 64), "sent bytes");
	memset(b->buf, B_PATTERN, BUF_LEN);
	if (failures)
		return;

	printf("qpn_a %u qpn_b %u rkey_b %u va_b %llu epsn_b 2\n",
	       a->qp->qp_num, b->qp->qp_num, b->mr->rkey,
	       (unsigned long long)(uintptr_t)b->buf);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		printf("stdin closed\n");

	EXPECT(b_untouched(b), "a hostile packet wrote B's memory");
	EXPECT(qp_state(a->qp) == IBV_QPS_RTS, "A's QP left RTS");
	EXPECT(qp_state(b->qp) == IBV_QPS_RTS, "B's QP left RTS");
	EXPECT(cq_stays_empty(a->cq, 100) && cq_stays_empty(b->cq, 100),
	       "a hostile packet completed something");
	case_traffic(a, b);
}

/* WRITEs of the whole buffer for SECONDS, for a SIGKILL meanwhile. */
static void run_stream(struct side *a, struct side *b, int seconds)
{
	uint32_t len = BUF_LEN;
	double end = probe_now() + seconds;
	long done = 0;
	int status;

	if (connect_pair(a, b, 7)) {
		EXPECT(0, "connect");
		return;
	}
	while (probe_now() < end) {
		status = write_status(a, a->mr->lkey, (uintptr_t)b->buf,
				      b->mr->rkey, len, done);
		if (status != IBV_WC_SUCCESS) {
			EXPECT(0, "write %ld: %d", done, status);
			return;
		}
		if (!done++) {
			printf("ready\n");
			fflush(stdout);
		}
	}
	printf("%ld writes\n", done);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* Holds a context until the device goes (exit 0) or SIGTERM (exit 3). */
static int run_hold(const char *dev)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct ibv_async_event event;
	struct side s = {};
	struct pollfd pfd;
	struct ibv_recv_wr rwr = { .wr_id = 1 }, *bad;

	if (setup_side(&s, dev, -1) || to_init(s.qp))
		return 1;
	ibv_post_recv(s.qp, &rwr, &bad);
	sigaction(SIGTERM, &sa, NULL);
	printf("ready\n");
	fflush(stdout);
	pfd = (struct pollfd){ .fd = s.ctx->async_fd, .events = POLLIN };
	while (!stop) {
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (ibv_get_async_event(s.ctx, &event))
			continue;
		printf("async event: %s\n",
		       ibv_event_type_str(event.event_type));
		ibv_ack_async_event(&event);
		if (event.event_type == IBV_EVENT_DEVICE_FATAL)
			break;
	}
	/* After a disassociation the destroys must still succeed. */
	EXPECT(ibv_destroy_qp(s.qp) == 0, "destroy QP");
	EXPECT(ibv_dereg_mr(s.mr) == 0, "dereg MR");
	EXPECT(ibv_destroy_cq(s.cq) == 0, "destroy CQ");
	EXPECT(ibv_dealloc_pd(s.pd) == 0, "dealloc PD");
	EXPECT(ibv_close_device(s.ctx) == 0, "close");
	printf("released everything\n");
	if (failures)
		return 1;
	return stop ? 3 : 0;
}

static void teardown(struct side *s)
{
	if (s->qp)
		EXPECT(ibv_destroy_qp(s->qp) == 0, "destroy QP");
	if (s->mr)
		EXPECT(ibv_dereg_mr(s->mr) == 0, "dereg MR");
	if (s->cq)
		EXPECT(ibv_destroy_cq(s->cq) == 0, "destroy CQ");
	if (s->pd)
		EXPECT(ibv_dealloc_pd(s->pd) == 0, "dealloc PD");
	if (s->ctx)
		EXPECT(ibv_close_device(s->ctx) == 0, "close");
	free(s->buf);
}

int main(int argc, char **argv)
{
	struct side a = {}, b = {};
	const char *what;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[2], "hold"))
		return run_hold(argv[1]);
	if (argc < 6) {
		fprintf(stderr, "usage: %s DEV_A GID_A DEV_B GID_B CASE [SECONDS]\n"
			"       %s DEV hold\n", argv[0], argv[0]);
		return 2;
	}
	what = argv[5];
	if (setup_side(&a, argv[1], atoi(argv[2])) ||
	    setup_side(&b, argv[3], atoi(argv[4])))
		return 1;
	memset(a.buf, A_PATTERN, BUF_LEN);
	memset(b.buf, B_PATTERN, BUF_LEN);

	if (!strcmp(what, "wrong-state"))
		case_wrong_state(&a, &b);
	else if (!strcmp(what, "flush-on-err"))
		case_flush_on_err(&a, &b);
	else if (!strcmp(what, "destroy-busy"))
		case_destroy_busy(&a, &b);
	else if (!strcmp(what, "stream"))
		run_stream(&a, &b, argc > 6 ? atoi(argv[6]) : 60);
	else if (connect_pair(&a, &b, 7))
		EXPECT(0, "connect");
	else if (!strcmp(what, "bad-rkey"))
		case_bad_rkey(&a, &b);
	else if (!strcmp(what, "out-of-bounds"))
		case_out_of_bounds(&a, &b);
	else if (!strcmp(what, "foreign-lkey"))
		case_foreign_lkey(&a, &b);
	else if (!strcmp(what, "traffic"))
		case_traffic(&a, &b);
	else if (!strcmp(what, "live"))
		run_live(&a, &b);
	else
		EXPECT(0, "unknown case %s", what);

	teardown(&a);
	teardown(&b);
	if (failures) {
		printf("%s: %d failures\n", what, failures);
		return 1;
	}
	printf("%s: as expected\n", what);
	return 0;
}
