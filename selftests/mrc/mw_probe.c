// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mw-probe: memory windows between two mrc devices, for mw.sh. One process
 * drives both ends, as err-probe does (shared rdma netns mode). A is the
 * requester; B owns the memory: an MR with local write and MW bind rights
 * only, so that the peer reaches it through a window or not at all. The
 * window covers [WIN_OFF, WIN_OFF + WIN_LEN) of B's buffer.
 *
 *   mw-probe DEV_A GID_A DEV_B GID_B CASE
 *     type2-bytes     a type 2 window bound by a BIND_MW work request:
 *                     A WRITEs through it and B's bytes (and only those
 *                     of the window) change; A READs them back; the MR
 *                     cannot be deregistered while the window is bound
 *     type1-bytes     the same through a type 1 window (ibv_bind_mw())
 *     outside-before  a WRITE starting one byte before the window,
 *     outside-after   one ending past it, and
 *     mr-rkey         one with the MR's own rkey: IBV_WC_REM_ACCESS_ERR,
 *                     B untouched
 *     read-only       a READ-only window refuses a WRITE
 *     local-inv       after B's LOCAL_INV, a WRITE fails
 *     send-inv        A's SEND_WITH_INV invalidates B's window (B's
 *                     receive says so); a WRITE after it fails
 *     dealloc         after B deallocates the window, a WRITE fails
 *     type1-unbind    after a zero-length bind, a WRITE fails
 *     wrong-pd        binding a type 2 window of another PD on B's QP:
 *                     IBV_WC_MW_BIND_ERR, and the window stays unbound
 *     no-bind-right   binding to an MR without MW_BIND: IBV_WC_MW_BIND_ERR
 *     hold            binds a type 2 and a type 1 window, checks a WRITE
 *                     through each, prints "ready" and sleeps (mw.sh
 *                     kills it: ib_core must free the MR after the
 *                     windows bound to it)
 *
 * GID_x is the GID index of the device's IPv4 address.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#define WIN_OFF		1024
#define WIN_LEN		2048
#define QUEUE_DEPTH	16
#define B_PATTERN	0x5a
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

static int setup_side(struct side *s, const char *dev, int gid_index,
		      int mr_access)
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
	if (ibv_query_gid(s->ctx, 1, gid_index, &s->gid)) {
		fprintf(stderr, "%s: no GID %d\n", dev, gid_index);
		return -1;
	}
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 4 * QUEUE_DEPTH, NULL, NULL, 0);
	s->buf = aligned_alloc(4096, BUF_LEN);
	if (!s->pd || !s->cq || !s->buf)
		return -1;
	s->mr = ibv_reg_mr(s->pd, s->buf, BUF_LEN, mr_access);
	init.send_cq = s->cq;
	init.recv_cq = s->cq;
	s->qp = ibv_create_qp(s->pd, &init);
	if (!s->mr || !s->qp) {
		fprintf(stderr, "%s: MR or QP: %s\n", dev, strerror(errno));
		return -1;
	}
	return 0;
}

static int modify(struct side *s, const struct side *peer,
		  enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = {
		.qp_state = state,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = peer->qp->qp_num,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 1,
		.ah_attr = {
			.is_global = 1,
			.port_num = 1,
			.grh = { .dgid = peer->gid,
				 .sgid_index = (uint8_t)s->gid_index,
				 .hop_limit = 64 },
		},
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	int mask = IBV_QP_STATE;

	if (state == IBV_QPS_INIT)
		mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
	else if (state == IBV_QPS_RTR)
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			IBV_QP_MIN_RNR_TIMER;
	else
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
	return ibv_modify_qp(s->qp, &attr, mask);
}

static int connect_pair(struct side *a, struct side *b)
{
	if (modify(a, b, IBV_QPS_INIT) || modify(b, a, IBV_QPS_INIT) ||
	    modify(a, b, IBV_QPS_RTR) || modify(b, a, IBV_QPS_RTR) ||
	    modify(a, b, IBV_QPS_RTS) || modify(b, a, IBV_QPS_RTS)) {
		fprintf(stderr, "connecting: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* The one completion of @s's last request: its status, or -1. */
static int one_completion(struct side *s, uint64_t wr_id, struct ibv_wc *wc)
{
	if (probe_poll(s->cq, wc, 1, POLL_SECONDS) != 1) {
		fprintf(stderr, "no completion for wr_id %llu\n",
			(unsigned long long)wr_id);
		return -1;
	}
	EXPECT(wc->wr_id == wr_id, "wr_id %llu, expected %llu",
	       (unsigned long long)wc->wr_id, (unsigned long long)wr_id);
	return wc->status;
}

static int post(struct side *s, struct ibv_send_wr *wr, struct ibv_wc *wc)
{
	struct ibv_send_wr *bad;
	int err;

	err = ibv_post_send(s->qp, wr, &bad);
	if (err) {
		fprintf(stderr, "post_send: %s\n", strerror(err));
		return -1;
	}
	return one_completion(s, wr->wr_id, wc);
}

/* An RDMA WRITE or READ of @len bytes of A's buffer at @off. */
static int rdma(struct side *a, enum ibv_wr_opcode op, uint32_t off,
		uint32_t len, uint64_t raddr, uint32_t rkey)
{
	static uint64_t wr_id = 100;
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf + off,
			       .length = len, .lkey = a->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = ++wr_id, .sg_list = &sge, .num_sge = 1,
		.opcode = op, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	};
	struct ibv_wc wc;
	int status = post(a, &wr, &wc);

	printf("%s len %u to 0x%llx rkey 0x%x: %s\n",
	       op == IBV_WR_RDMA_WRITE ? "write" : "read", len,
	       (unsigned long long)raddr, rkey,
	       status < 0 ? "none" : ibv_wc_status_str(wc.status));
	return status;
}

/* A type 2 bind by a work request on @s's QP: the status; *rkey, new key. */
static int bind_type2(struct side *s, struct ibv_mw *mw, struct ibv_mr *mr,
		      uint64_t addr, uint64_t len, int access, uint32_t *rkey)
{
	struct ibv_send_wr wr = {
		.wr_id = 7, .opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_wc wc;
	int status;

	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		.mr = mr, .addr = addr, .length = len,
		.mw_access_flags = (unsigned int)access,
	};
	status = post(s, &wr, &wc);
	if (status >= 0) {
		EXPECT(wc.opcode == IBV_WC_BIND_MW, "bind opcode %d",
		       wc.opcode);
		printf("bind type 2 rkey 0x%x: %s\n", wr.bind_mw.rkey,
		       ibv_wc_status_str(wc.status));
	}
	*rkey = wr.bind_mw.rkey;
	return status;
}

/* A type 1 bind (ibv_bind_mw()): the status; mw->rkey is the new key. */
static int bind_type1(struct side *s, struct ibv_mw *mw, uint64_t addr,
		      uint64_t len, int access)
{
	struct ibv_mw_bind bind = {
		.wr_id = 8, .send_flags = IBV_SEND_SIGNALED,
		.bind_info = { .mr = s->mr, .addr = addr, .length = len,
			       .mw_access_flags = (unsigned int)access },
	};
	struct ibv_wc wc;
	int err, status;

	err = ibv_bind_mw(s->qp, mw, &bind);
	if (err) {
		fprintf(stderr, "ibv_bind_mw: %s\n", strerror(err));
		return -1;
	}
	status = one_completion(s, 8, &wc);
	if (status >= 0)
		printf("bind type 1 rkey 0x%x len %llu: %s\n", mw->rkey,
		       (unsigned long long)len, ibv_wc_status_str(wc.status));
	return status;
}

static uint64_t win_addr(const struct side *b)
{
	return (uintptr_t)b->buf + WIN_OFF;
}

/* B's bytes: the window's hold @in (A's pattern), the rest B_PATTERN. */
static bool b_holds(const struct side *b, int in)
{
	for (int i = 0; i < BUF_LEN; i++) {
		int want = i >= WIN_OFF && i < WIN_OFF + WIN_LEN ?
			   in : B_PATTERN;

		if (b->buf[i] != want) {
			fprintf(stderr, "B's byte %d is 0x%02x, not 0x%02x\n",
				i, b->buf[i], want);
			return false;
		}
	}
	return true;
}

/* WRITE A's pattern over the whole window, READ it back, check both. */
static void bytes_through(struct side *a, struct side *b, uint32_t rkey)
{
	for (int i = 0; i < WIN_LEN; i++)
		a->buf[i] = (uint8_t)(i * 7 + 3);
	EXPECT(rdma(a, IBV_WR_RDMA_WRITE, 0, WIN_LEN, win_addr(b), rkey) ==
	       IBV_WC_SUCCESS, "WRITE through the window");
	EXPECT(!memcmp(b->buf + WIN_OFF, a->buf, WIN_LEN),
	       "B's window does not hold what A wrote");
	EXPECT(b->buf[WIN_OFF - 1] == B_PATTERN &&
	       b->buf[WIN_OFF + WIN_LEN] == B_PATTERN,
	       "bytes around the window changed");
	/* Half of it, from inside, into A's second half. */
	memset(a->buf + 4096, 0, 4096);
	EXPECT(rdma(a, IBV_WR_RDMA_READ, 4096, WIN_LEN / 2,
		    win_addr(b) + WIN_LEN / 4, rkey) == IBV_WC_SUCCESS,
	       "READ through the window");
	EXPECT(!memcmp(a->buf + 4096, b->buf + WIN_OFF + WIN_LEN / 4,
		       WIN_LEN / 2), "READ did not bring B's bytes");
}

/* A WRITE through @rkey at @addr fails with a remote access error. */
static void write_refused(struct side *a, struct side *b, uint64_t addr,
			  uint32_t len, uint32_t rkey, const char *what)
{
	int status = rdma(a, IBV_WR_RDMA_WRITE, 0, len, addr, rkey);

	EXPECT(status == IBV_WC_REM_ACCESS_ERR, "%s: status %d", what, status);
	EXPECT(b_holds(b, B_PATTERN), "%s: B's memory changed", what);
}

static void case_type2_bytes(struct side *a, struct side *b)
{
	struct ibv_mw *mw = ibv_alloc_mw(b->pd, IBV_MW_TYPE_2);
	uint32_t rkey;

	if (!mw) {
		EXPECT(0, "alloc_mw: %s", strerror(errno));
		return;
	}
	EXPECT(bind_type2(b, mw, b->mr, win_addr(b), WIN_LEN,
			  IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
			  &rkey) == IBV_WC_SUCCESS, "bind");
	EXPECT((rkey >> 8) == (mw->rkey >> 8), "rkey index changed");
	bytes_through(a, b, rkey);
	EXPECT(ibv_dereg_mr(b->mr) == EBUSY,
	       "dereg of an MR with a bound window did not fail with EBUSY");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

static void case_type1_bytes(struct side *a, struct side *b)
{
	struct ibv_mw *mw = ibv_alloc_mw(b->pd, IBV_MW_TYPE_1);
	uint32_t old;

	if (!mw) {
		EXPECT(0, "alloc_mw: %s", strerror(errno));
		return;
	}
	old = mw->rkey;
	EXPECT(bind_type1(b, mw, win_addr(b), WIN_LEN,
			  IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ) ==
	       IBV_WC_SUCCESS, "bind");
	EXPECT(mw->rkey != old && (mw->rkey >> 8) == (old >> 8),
	       "rkey 0x%x after bind, 0x%x before", mw->rkey, old);
	bytes_through(a, b, mw->rkey);
	memset(b->buf, B_PATTERN, BUF_LEN);
	/* The key of before the bind never reaches the window. */
	write_refused(a, b, win_addr(b), 8, old, "old key");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

/* A bound type 2 window over the test range; NULL if that failed. */
static struct ibv_mw *bound_window(struct side *b, int access, uint32_t *rkey)
{
	struct ibv_mw *mw = ibv_alloc_mw(b->pd, IBV_MW_TYPE_2);

	if (!mw) {
		EXPECT(0, "alloc_mw: %s", strerror(errno));
		return NULL;
	}
	if (bind_type2(b, mw, b->mr, win_addr(b), WIN_LEN, access, rkey) !=
	    IBV_WC_SUCCESS) {
		EXPECT(0, "bind failed");
		ibv_dealloc_mw(mw);
		return NULL;
	}
	return mw;
}

static void case_outside(struct side *a, struct side *b, int which)
{
	struct ibv_mw *mw;
	uint32_t rkey;

	mw = bound_window(b, IBV_ACCESS_REMOTE_WRITE, &rkey);
	if (!mw)
		return;
	/* Each refusal moves A's QP to ERR: one per connection. */
	if (which == 0)
		write_refused(a, b, win_addr(b) - 1, 8, rkey, "before");
	else if (which == 1)
		write_refused(a, b, win_addr(b) + WIN_LEN - 4, 8, rkey,
			      "past the end");
	else
		write_refused(a, b, win_addr(b), 8, b->mr->rkey,
			      "the MR's own rkey");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

static void case_read_only(struct side *a, struct side *b)
{
	struct ibv_mw *mw;
	uint32_t rkey;

	mw = bound_window(b, IBV_ACCESS_REMOTE_READ, &rkey);
	if (!mw)
		return;
	EXPECT(rdma(a, IBV_WR_RDMA_READ, 0, 64, win_addr(b), rkey) ==
	       IBV_WC_SUCCESS, "READ of a read-only window");
	write_refused(a, b, win_addr(b), 8, rkey, "WRITE to a read-only window");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

static void case_local_inv(struct side *a, struct side *b)
{
	struct ibv_send_wr wr = { .wr_id = 9, .opcode = IBV_WR_LOCAL_INV,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_mw *mw;
	struct ibv_wc wc;
	uint32_t rkey;

	mw = bound_window(b, IBV_ACCESS_REMOTE_WRITE, &rkey);
	if (!mw)
		return;
	EXPECT(rdma(a, IBV_WR_RDMA_WRITE, 0, 8, win_addr(b), rkey) ==
	       IBV_WC_SUCCESS, "WRITE before the invalidation");
	memset(b->buf, B_PATTERN, BUF_LEN);
	wr.invalidate_rkey = rkey;
	EXPECT(post(b, &wr, &wc) == IBV_WC_SUCCESS, "LOCAL_INV");
	EXPECT(wc.opcode == IBV_WC_LOCAL_INV, "opcode %d", wc.opcode);
	write_refused(a, b, win_addr(b), 8, rkey, "after LOCAL_INV");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

static void case_send_inv(struct side *a, struct side *b)
{
	struct ibv_sge rsge = { .addr = (uintptr_t)b->buf + 6000,
				.length = 64, .lkey = b->mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 11, .sg_list = &rsge,
				   .num_sge = 1 }, *rbad;
	struct ibv_sge sge = { .addr = (uintptr_t)a->buf, .length = 16,
			       .lkey = a->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = 10, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND_WITH_INV,
		.send_flags = IBV_SEND_SIGNALED,
	};
	struct ibv_mw *mw;
	struct ibv_wc wc;
	uint32_t rkey;

	mw = bound_window(b, IBV_ACCESS_REMOTE_WRITE, &rkey);
	if (!mw)
		return;
	EXPECT(ibv_post_recv(b->qp, &rwr, &rbad) == 0, "post_recv");
	wr.invalidate_rkey = rkey;
	EXPECT(post(a, &wr, &wc) == IBV_WC_SUCCESS, "SEND_WITH_INV");
	EXPECT(one_completion(b, 11, &wc) == IBV_WC_SUCCESS, "receive");
	EXPECT(wc.wc_flags & IBV_WC_WITH_INV && wc.invalidated_rkey == rkey,
	       "receive flags 0x%x rkey 0x%x", wc.wc_flags,
	       wc.invalidated_rkey);
	printf("receive: invalidated rkey 0x%x\n", wc.invalidated_rkey);
	memset(b->buf, B_PATTERN, BUF_LEN);
	write_refused(a, b, win_addr(b), 8, rkey, "after SEND_WITH_INV");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

static void case_dealloc(struct side *a, struct side *b)
{
	struct ibv_mw *mw;
	uint32_t rkey;

	mw = bound_window(b, IBV_ACCESS_REMOTE_WRITE, &rkey);
	if (!mw)
		return;
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
	/* With no window bound, the MR goes (and comes back for teardown). */
	write_refused(a, b, win_addr(b), 8, rkey, "after dealloc");
}

static void case_type1_unbind(struct side *a, struct side *b)
{
	struct ibv_mw *mw = ibv_alloc_mw(b->pd, IBV_MW_TYPE_1);
	uint32_t bound;

	if (!mw) {
		EXPECT(0, "alloc_mw: %s", strerror(errno));
		return;
	}
	EXPECT(bind_type1(b, mw, win_addr(b), WIN_LEN,
			  IBV_ACCESS_REMOTE_WRITE) == IBV_WC_SUCCESS, "bind");
	bound = mw->rkey;
	EXPECT(rdma(a, IBV_WR_RDMA_WRITE, 0, 8, win_addr(b), bound) ==
	       IBV_WC_SUCCESS, "WRITE while bound");
	memset(b->buf, B_PATTERN, BUF_LEN);
	EXPECT(bind_type1(b, mw, 0, 0, 0) == IBV_WC_SUCCESS, "zero-length bind");
	/* Nothing is bound: the MR may go now. */
	write_refused(a, b, win_addr(b), 8, bound, "old key after unbind");
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
}

static void case_bind_error(struct side *b, bool other_pd)
{
	struct ibv_pd *pd = other_pd ? ibv_alloc_pd(b->ctx) : b->pd;
	struct ibv_mr *mr = NULL;
	struct ibv_mw *mw;
	uint32_t rkey;
	int status;

	mw = pd ? ibv_alloc_mw(pd, IBV_MW_TYPE_2) : NULL;
	if (!other_pd)
		mr = ibv_reg_mr(b->pd, b->buf + 4096, 4096,
				IBV_ACCESS_LOCAL_WRITE);
	if (!mw || (!other_pd && !mr)) {
		EXPECT(0, "setup: %s", strerror(errno));
		return;
	}
	status = bind_type2(b, mw, other_pd ? b->mr : mr,
			    other_pd ? win_addr(b) : (uintptr_t)b->buf + 4096,
			    64, IBV_ACCESS_REMOTE_WRITE, &rkey);
	EXPECT(status == IBV_WC_MW_BIND_ERR, "bind status %d", status);
	/* The window stays unbound: B's MR is free to go. */
	EXPECT(ibv_dealloc_mw(mw) == 0, "dealloc_mw");
	if (mr)
		EXPECT(ibv_dereg_mr(mr) == 0, "dereg");
	if (other_pd)
		EXPECT(ibv_dealloc_pd(pd) == 0, "dealloc_pd");
}

static void run_hold(struct side *a, struct side *b)
{
	struct ibv_mw *mw2 = ibv_alloc_mw(b->pd, IBV_MW_TYPE_2);
	struct ibv_mw *mw1 = ibv_alloc_mw(b->pd, IBV_MW_TYPE_1);
	uint32_t rkey;

	if (!mw1 || !mw2) {
		EXPECT(0, "alloc_mw: %s", strerror(errno));
		return;
	}
	EXPECT(bind_type2(b, mw2, b->mr, win_addr(b), WIN_LEN,
			  IBV_ACCESS_REMOTE_WRITE, &rkey) == IBV_WC_SUCCESS,
	       "bind type 2");
	EXPECT(bind_type1(b, mw1, win_addr(b), WIN_LEN,
			  IBV_ACCESS_REMOTE_WRITE) == IBV_WC_SUCCESS,
	       "bind type 1");
	EXPECT(rdma(a, IBV_WR_RDMA_WRITE, 0, 8, win_addr(b), rkey) ==
	       IBV_WC_SUCCESS, "WRITE through type 2");
	EXPECT(rdma(a, IBV_WR_RDMA_WRITE, 0, 8, win_addr(b), mw1->rkey) ==
	       IBV_WC_SUCCESS, "WRITE through type 1");
	if (failures)
		return;
	printf("ready\n");
	sleep(60);
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
	if (argc != 6) {
		fprintf(stderr, "usage: %s DEV_A GID_A DEV_B GID_B CASE\n",
			argv[0]);
		return 2;
	}
	what = argv[5];
	if (setup_side(&a, argv[1], atoi(argv[2]), IBV_ACCESS_LOCAL_WRITE) ||
	    setup_side(&b, argv[3], atoi(argv[4]),
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND) ||
	    connect_pair(&a, &b))
		return 1;
	memset(b.buf, B_PATTERN, BUF_LEN);

	if (!strcmp(what, "type2-bytes"))
		case_type2_bytes(&a, &b);
	else if (!strcmp(what, "type1-bytes"))
		case_type1_bytes(&a, &b);
	else if (!strcmp(what, "outside-before"))
		case_outside(&a, &b, 0);
	else if (!strcmp(what, "outside-after"))
		case_outside(&a, &b, 1);
	else if (!strcmp(what, "mr-rkey"))
		case_outside(&a, &b, 2);
	else if (!strcmp(what, "read-only"))
		case_read_only(&a, &b);
	else if (!strcmp(what, "local-inv"))
		case_local_inv(&a, &b);
	else if (!strcmp(what, "send-inv"))
		case_send_inv(&a, &b);
	else if (!strcmp(what, "dealloc"))
		case_dealloc(&a, &b);
	else if (!strcmp(what, "type1-unbind"))
		case_type1_unbind(&a, &b);
	else if (!strcmp(what, "wrong-pd"))
		case_bind_error(&b, true);
	else if (!strcmp(what, "no-bind-right"))
		case_bind_error(&b, false);
	else if (!strcmp(what, "hold"))
		run_hold(&a, &b);
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
