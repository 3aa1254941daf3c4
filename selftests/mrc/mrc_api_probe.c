// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc-api-probe DEV_A IP_A DEV_B IP_B [TRANSFERS [SEED]]
 *
 * The OCP MRC application API (lib_mrc) end to end between two mrc devices
 * of this host (two network namespaces; one process opens both): device
 * query, contexts, CQs, MRC QPs taken RESET -> INIT -> RTR -> RTS with MRC
 * attributes, then TRANSFERS rounds of an RDMA WRITE and a WRITE with
 * immediate of random sizes at random offsets, each byte of both checked
 * at B once the immediate's receive completes (RC delivers the WRITE
 * first). On the live QP: a READ is refused with EOPNOTSUPP, and the WIMM
 * limit (4) refuses a fifth WRITE with immediate in flight with EAGAIN.
 * Prints what it checked; exits 0 only if everything held.
 *
 * mrc-api-probe --outage SECONDS EXP_CNT ok|retry-exc DEV_A IP_A DEV_B IP_B
 *
 * The exponential retry stage: A's QP with the MRC timeout 12 (4 ms), one
 * linear retry and EXP_CNT exponential ones. One WRITE checked, then the
 * shell command $MRC_OUTAGE_DOWN, a 64 KiB WRITE posted, SECONDS later
 * $MRC_OUTAGE_UP. "ok": the WRITE must not fail meanwhile and must
 * complete after, every byte at B checked, and a second WRITE too;
 * "retry-exc": it must end in IBV_WC_RETRY_EXC_ERR before the link comes
 * back.
 *
 * mrc-api-probe --mpr MPR DEV_A IP_A DEV_B IP_B
 *
 * The requester's PSN window: A's QP with MPR (1 to 8), WRITEs of 512 KiB
 * (512 PSNs at MTU 1024) checked byte for byte at B, then A's line of
 * /sys/kernel/debug/mrc/req must show the window MPR x 128 and a peak of
 * PSNs outstanding within it.
 *
 * mrc-api-probe --mpr-dest MPR_DEST DEV_A IP_A DEV_B IP_B
 *
 * The responder's reordering window: B's QP with MPR_DEST (1 to 8, given
 * at INIT -> RTR), the same WRITEs from A checked at B, then B's line of
 * /sys/kernel/debug/mrc/req must show its responder's window MPR_DEST x
 * 128 and A's the whole one (1024).
 *
 * mrc-api-probe --ev-profile ID UNKNOWN NOPATH DEV_A IP_A DEV_B IP_B
 *
 * A QP bound to EV profile ID at RESET -> INIT: first A's QP is refused
 * INIT with profile UNKNOWN (EINVAL) and with 65 (EINVAL, no profile can
 * have it) and must still be in RESET; bound to NOPATH (a profile with no
 * EV towards B) it reaches INIT but is refused RTR (EINVAL) and stays in
 * INIT, and is reset; then it goes to INIT naming ID,
 * its query reports ID, 50 rounds as above are checked byte for byte, and
 * with the QPs alive the shell command $MRC_BOUND_CHECK runs with
 * MRC_QPN set to A's QPN.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mrc.h>

#include "mrc_api_util.h"
#include "probe_util.h"

#define BUF_SIZE	(1u << 20)
#define HALF		(BUF_SIZE / 2)
#define MAX_LEN		(64u << 10)
#define QP_DEPTH	64
#define MAX_WIMM	4

/* A's retry attributes (--outage changes them). */
static uint8_t qp_timeout = 16, qp_linear = 7, qp_exp, qp_mpr = 8;
static uint8_t qp_mpr_dest = 8;
/* The EV profile A's QP names at RESET -> INIT (--ev-profile). */
static uint64_t qp_ev_profile;

struct side {
	struct ibv_context *vctx;
	struct mrc_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct mrc_cq *cq;
	struct mrc_qp *qp;
	uint8_t *buf;
	int gid_index;
	union ibv_gid gid;
	uint32_t qpn;
};

static int fail(const char *what)
{
	fprintf(stderr, "mrc-api-probe: %s: %s\n", what, strerror(errno));
	return -1;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static int open_side(struct side *s, const char *dev, const char *ip)
{
	struct mrc_context_attr ca = { MRC_API_CURRENT_VERSION, 0 };
	struct mrc_qp_init_attr ia;
	struct mrc_device_attr da;
	int supported = 0;

	s->vctx = probe_open_device(dev);
	if (!s->vctx)
		return -1;
	if (mrc_query_device(s->vctx, &da, &supported) || !supported) {
		fprintf(stderr, "mrc-api-probe: %s: MRC not supported\n", dev);
		return -1;
	}
	printf("%s: max_wimm %u max_mpr %u resolution %u cap %#x\n", dev,
	       da.wimm_attr.max_wimm, da.mpr_attr.max_mpr,
	       da.mpr_attr.mpr_resolution, da.cap);
	s->gid_index = probe_find_gid(s->vctx, ip, &s->gid);
	if (s->gid_index < 0) {
		fprintf(stderr, "mrc-api-probe: %s has no GID for %s\n", dev, ip);
		return -1;
	}
	s->ctx = mrc_create_context(s->vctx, &ca);
	if (!s->ctx)
		return fail("mrc_create_context");
	s->pd = ibv_alloc_pd(s->vctx);
	s->buf = aligned_alloc(4096, BUF_SIZE);
	if (!s->pd || !s->buf)
		return fail("pd or buffer");
	memset(s->buf, 0, BUF_SIZE);
	s->mr = ibv_reg_mr(s->pd, s->buf, BUF_SIZE,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!s->mr)
		return fail("ibv_reg_mr");
	s->cq = mrc_create_cq(s->ctx, 4 * QP_DEPTH, NULL, NULL, 0);
	if (!s->cq)
		return fail("mrc_create_cq");
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = s->cq;
	ia.recv_cq = s->cq;
	ia.pd = s->pd;
	ia.cap.max_send_wr = QP_DEPTH;
	ia.cap.max_recv_wr = QP_DEPTH;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	ia.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
			    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	s->qp = mrc_create_qp(s->ctx, &ia);
	if (!s->qp)
		return fail("mrc_create_qp");
	if (mrc_get_qpn(s->qp, &s->qpn))
		return fail("mrc_get_qpn");
	return 0;
}

/* @c: @s's connection towards @peer, with A's attributes (the globals). */
static void conn_attr(struct mrc_conn *c, const struct side *s,
		      const struct side *peer, uint64_t ev_profile)
{
	memset(c, 0, sizeof(*c));
	c->dest_qpn = peer->qpn;
	c->dgid = peer->gid;
	c->sgid_index = s->gid_index;
	c->mtu = IBV_MTU_1024;
	c->psn = 0x100;
	c->ev_profile = ev_profile;
	c->mpr = qp_mpr;
	c->mpr_dest = qp_mpr_dest;
	c->max_wimm = MAX_WIMM;
	c->max_wimm_dest = QP_DEPTH;
	c->timeout = qp_timeout;
	c->linear_cnt = qp_linear;
	c->exp_cnt = qp_exp;
}

/* 0 if @s's QP is in @state, else says so (@after: what came before). */
static int expect_state(struct side *s, enum ibv_qp_state state,
			const char *after)
{
	struct ibv_qp_attr v;

	memset(&v, 0, sizeof(v));
	if (mrc_query_qp(s->qp, &v, IBV_QP_STATE, NULL, 0, NULL))
		return fail("mrc_query_qp");
	if (v.qp_state != state) {
		fprintf(stderr, "mrc-api-probe: after %s the QP is in state %d, want %d\n",
			after, v.qp_state, state);
		return -1;
	}
	return 0;
}

static int connect_side(struct side *s, const struct side *peer,
			uint64_t ev_profile)
{
	struct mrc_conn c;

	conn_attr(&c, s, peer, ev_profile);
	return mrc_util_connect(s->qp, &c, "mrc-api-probe");
}

static int post_recvs(struct side *s, int n)
{
	struct ibv_recv_wr r = { .wr_id = 0xb0 }, *bad;

	while (n--)
		if (mrc_post_recv(s->qp, &r, &bad))
			return fail("mrc_post_recv");
	return 0;
}

/* Waits for one completion of @cq; checks it succeeded. */
static int wait_one(struct side *s, struct ibv_wc *wc)
{
	double end = probe_now() + 10;
	int n;

	while ((n = mrc_poll_cq(s->cq, 1, wc)) == 0 && probe_now() < end)
		;
	if (n != 1) {
		fprintf(stderr, "mrc-api-probe: no completion (%d)\n", n);
		return -1;
	}
	if (wc->status != IBV_WC_SUCCESS) {
		fprintf(stderr, "mrc-api-probe: completion %s (wr_id %#llx)\n",
			ibv_wc_status_str(wc->status),
			(unsigned long long)wc->wr_id);
		return -1;
	}
	return 0;
}

static void fill(uint8_t *p, uint32_t len, uint64_t seed)
{
	uint64_t s = seed | 1;

	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(rnd(&s) >> 56);
}

static int check(const uint8_t *p, uint32_t len, uint64_t seed, const char *what,
		 int round)
{
	uint64_t s = seed | 1;

	for (uint32_t i = 0; i < len; i++) {
		uint8_t want = (uint8_t)(rnd(&s) >> 56);

		if (p[i] != want) {
			fprintf(stderr, "mrc-api-probe: round %d %s byte %u of %u: %#x, expected %#x\n",
				round, what, i, len, p[i], want);
			return -1;
		}
	}
	return 0;
}

static struct ibv_send_wr write_wr(struct side *a, struct side *b,
				   struct ibv_sge *sge, enum ibv_wr_opcode op,
				   uint32_t src, uint32_t dst, uint32_t len,
				   uint64_t wr_id, int flags)
{
	struct ibv_send_wr w;

	memset(&w, 0, sizeof(w));
	sge->addr = (uintptr_t)(a->buf + src);
	sge->length = len;
	sge->lkey = a->mr->lkey;
	w.wr_id = wr_id;
	w.sg_list = sge;
	w.num_sge = 1;
	w.opcode = op;
	w.send_flags = flags;
	w.wr.rdma.remote_addr = (uintptr_t)(b->buf + dst);
	w.wr.rdma.rkey = b->mr->rkey;
	return w;
}

/* One round: a WRITE then a WRITE_IMM; B checks both when the IMM lands. */
static int round_trip(struct side *a, struct side *b, int round, uint64_t *rs,
		      unsigned long long *checked)
{
	uint32_t l1 = 1 + rnd(rs) % MAX_LEN, l2 = 1 + rnd(rs) % MAX_LEN;
	uint32_t o1 = rnd(rs) % (HALF - l1), o2 = HALF + rnd(rs) % (HALF - l2);
	uint64_t s1 = rnd(rs), s2 = rnd(rs);
	struct ibv_send_wr w[2], *bad = NULL;
	struct ibv_sge sge[2];
	struct ibv_wc wc;
	int err;

	fill(a->buf + o1, l1, s1);
	fill(a->buf + o2, l2, s2);
	w[0] = write_wr(a, b, &sge[0], IBV_WR_RDMA_WRITE, o1, o1, l1, 0xa0, 0);
	w[1] = write_wr(a, b, &sge[1], IBV_WR_RDMA_WRITE_WITH_IMM, o2, o2, l2,
			0xa1 + ((uint64_t)round << 32), IBV_SEND_SIGNALED);
	w[1].imm_data = htonl(round);
	w[0].next = &w[1];
	err = mrc_post_send(a->qp, w, &bad);
	if (err)
		return errno = err, fail("mrc_post_send");
	if (wait_one(a, &wc))
		return -1;
	if (wc.wr_id != 0xa1 + ((uint64_t)round << 32) || wc.opcode != IBV_WC_RDMA_WRITE) {
		fprintf(stderr, "mrc-api-probe: send completion wr_id %#llx opcode %d\n",
			(unsigned long long)wc.wr_id, wc.opcode);
		return -1;
	}
	if (wait_one(b, &wc))
		return -1;
	if (wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM || wc.wr_id != 0xb0 ||
	    !(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != (uint32_t)round ||
	    wc.byte_len != l2) {
		fprintf(stderr, "mrc-api-probe: receive: opcode %d wr_id %#llx imm %u byte_len %u (want %u)\n",
			wc.opcode, (unsigned long long)wc.wr_id, ntohl(wc.imm_data),
			wc.byte_len, l2);
		return -1;
	}
	if (check(b->buf + o1, l1, s1, "WRITE", round) ||
	    check(b->buf + o2, l2, s2, "WRITE_IMM", round))
		return -1;
	*checked += l1 + l2;
	return post_recvs(b, 1);
}

/* The MRC rules on a live QP: no READ; at most MAX_WIMM immediates in flight. */
static int check_refusals(struct side *a, struct side *b)
{
	struct ibv_send_wr w[MAX_WIMM + 1], *bad = NULL;
	struct ibv_sge sge[MAX_WIMM + 1];
	struct ibv_wc wc;
	int err, i;

	w[0] = write_wr(a, b, &sge[0], IBV_WR_RDMA_READ, 0, 0, 64, 1,
			IBV_SEND_SIGNALED);
	err = mrc_post_send(a->qp, &w[0], &bad);
	if (err != EOPNOTSUPP || bad != &w[0]) {
		fprintf(stderr, "mrc-api-probe: READ posted: %d\n", err);
		return -1;
	}
	printf("RDMA READ refused: %s\n", strerror(err));

	for (i = 0; i <= MAX_WIMM; i++) {
		w[i] = write_wr(a, b, &sge[i], IBV_WR_RDMA_WRITE_WITH_IMM, i * 64,
				i * 64, 64, 0x500 + i, IBV_SEND_SIGNALED);
		w[i].next = i < MAX_WIMM ? &w[i + 1] : NULL;
	}
	err = mrc_post_send(a->qp, w, &bad);
	if (err != EAGAIN || bad != &w[MAX_WIMM]) {
		fprintf(stderr, "mrc-api-probe: WIMM limit: %d, bad %td\n", err,
			bad ? bad - w : -1);
		return -1;
	}
	printf("WRITE_IMM %d in flight refused: %s\n", MAX_WIMM + 1, strerror(err));
	for (i = 0; i < MAX_WIMM; i++)
		if (wait_one(a, &wc) || wc.wr_id != 0x500u + i)
			return -1;
	for (i = 0; i < MAX_WIMM; i++)
		if (wait_one(b, &wc) || wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM)
			return -1;
	if (post_recvs(b, MAX_WIMM))
		return -1;
	w[MAX_WIMM].next = NULL;
	err = mrc_post_send(a->qp, &w[MAX_WIMM], &bad);
	if (err || wait_one(a, &wc) || wait_one(b, &wc))
		return fprintf(stderr, "mrc-api-probe: WIMM after completions: %d\n", err), -1;
	printf("after their completions another WRITE_IMM goes\n");
	return post_recvs(b, 1);
}

static int run_cmd(const char *var)
{
	const char *cmd = getenv(var);

	if (!cmd || !*cmd || system(cmd) != 0) {
		fprintf(stderr, "mrc-api-probe: $%s failed: %s\n", var,
			cmd ? cmd : "(unset)");
		return -1;
	}
	return 0;
}

/* A WRITE across the outage (see the top of this file). */
static int outage(struct side *a, struct side *b, double seconds, bool want_ok,
		  uint64_t *rs)
{
	unsigned long long checked = 0;
	struct ibv_send_wr w, *bad = NULL;
	double start, up_at, done_at, end;
	uint64_t seed = rnd(rs);
	struct ibv_sge sge;
	struct ibv_wc wc;
	int n = 0, err;

	if (round_trip(a, b, 0, rs, &checked))
		return -1;
	fill(a->buf, MAX_LEN, seed);
	memset(b->buf, 0, MAX_LEN);
	w = write_wr(a, b, &sge, IBV_WR_RDMA_WRITE, 0, 0, MAX_LEN, 0xe0,
		     IBV_SEND_SIGNALED);
	if (run_cmd("MRC_OUTAGE_DOWN"))
		return -1;
	start = probe_now();
	err = mrc_post_send(a->qp, &w, &bad);
	if (err) {
		run_cmd("MRC_OUTAGE_UP");
		return errno = err, fail("mrc_post_send");
	}
	up_at = start + seconds;
	while (probe_now() < up_at && (n = mrc_poll_cq(a->cq, 1, &wc)) == 0)
		;
	done_at = probe_now();
	if (run_cmd("MRC_OUTAGE_UP"))
		return -1;
	if (n == 1) {
		printf("WRITE completed %.2f s into the %.1f s outage: %s\n",
		       done_at - start, seconds,
		       ibv_wc_status_str(wc.status));
		if (want_ok || wc.status != IBV_WC_RETRY_EXC_ERR ||
		    wc.wr_id != 0xe0)
			return -1;
		return 0;
	}
	if (n < 0 || !want_ok) {
		fprintf(stderr, "mrc-api-probe: no failure during the outage (%d)\n",
			n);
		return -1;
	}
	end = probe_now() + 30;
	while ((n = mrc_poll_cq(a->cq, 1, &wc)) == 0 && probe_now() < end)
		;
	if (n != 1 || wc.status != IBV_WC_SUCCESS || wc.wr_id != 0xe0) {
		fprintf(stderr, "mrc-api-probe: after the outage: %d, %s\n", n,
			n == 1 ? ibv_wc_status_str(wc.status) : "none");
		return -1;
	}
	printf("WRITE survived the %.1f s outage, completed %.2f s after the link came back\n",
	       seconds, probe_now() - up_at);
	if (check(b->buf, MAX_LEN, seed, "WRITE across the outage", 0))
		return -1;
	checked = 0;
	if (round_trip(a, b, 1, rs, &checked))
		return -1;
	printf("%u bytes across the outage checked, and a round after it (%llu bytes)\n",
	       MAX_LEN, checked);
	return 0;
}

/*
 * A QP's WINDOW, PEAK and RX_WINDOW in /sys/kernel/debug/mrc/req
 * (mrc_debugfs.c).
 */
static int req_windows(const char *dev, uint32_t qpn, unsigned int *window,
		       unsigned int *peak, unsigned int *rx_window)
{
	FILE *f = fopen("/sys/kernel/debug/mrc/req", "r");
	char line[512], name[64];
	int found = -1;

	if (!f)
		return fail("/sys/kernel/debug/mrc/req");
	while (found && fgets(line, sizeof(line), f)) {
		unsigned int q;

		if (sscanf(line, "%63s %u %*s %*u %*u %*u %*u %*u %*u %*u %*u %*u %u %u %u",
			   name, &q, window, peak, rx_window) == 5 &&
		    !strcmp(name, dev) && q == qpn)
			found = 0;
	}
	fclose(f);
	if (found)
		fprintf(stderr, "mrc-api-probe: %s QP %u not in debugfs req\n",
			dev, qpn);
	return found;
}

static int mpr_run(struct side *a, struct side *b, const char *dev_a,
		   uint64_t *rs)
{
	struct ibv_send_wr w, *bad = NULL;
	unsigned int window, peak, rx_window;
	struct ibv_sge sge;
	struct ibv_wc wc;
	int i, err;

	for (i = 0; i < 8; i++) {
		uint64_t seed = rnd(rs);

		fill(a->buf, HALF, seed);
		w = write_wr(a, b, &sge, IBV_WR_RDMA_WRITE, 0, HALF, HALF,
			     0xf0 + i, IBV_SEND_SIGNALED);
		err = mrc_post_send(a->qp, &w, &bad);
		if (err)
			return errno = err, fail("mrc_post_send");
		if (wait_one(a, &wc) || check(b->buf + HALF, HALF, seed,
					      "512 KiB WRITE", i))
			return -1;
	}
	if (req_windows(dev_a, a->qpn, &window, &peak, &rx_window))
		return -1;
	printf("MPR %u: 8 WRITEs of 512 KiB checked; PSN window %u, peak outstanding %u\n",
	       qp_mpr, window, peak);
	if (window != qp_mpr * 128u || !peak || peak > window) {
		fprintf(stderr, "mrc-api-probe: want window %u and 0 < peak <= it\n",
			qp_mpr * 128u);
		return -1;
	}
	return 0;
}

/* After mpr_run(): B's responder window is MPR_DEST's, A's the whole. */
static int mpr_dest_check(const struct side *a, const struct side *b,
			  const char *dev_a, const char *dev_b)
{
	unsigned int window, peak, rx_a, rx_b;

	if (req_windows(dev_a, a->qpn, &window, &peak, &rx_a) ||
	    req_windows(dev_b, b->qpn, &window, &peak, &rx_b))
		return -1;
	printf("MPR_DEST %u: B's responder window %u, A's %u\n", qp_mpr_dest,
	       rx_b, rx_a);
	if (rx_b != qp_mpr_dest * 128u || rx_a != 1024) {
		fprintf(stderr, "mrc-api-probe: want B's window %u and A's 1024\n",
			qp_mpr_dest * 128u);
		return -1;
	}
	return 0;
}

/* A's QP refused INIT with profile @id; it must stay in RESET. */
static int refused_profile(struct side *a, uint64_t id)
{
	int err = mrc_util_to_init(a->qp, id, 0);

	if (err != EINVAL) {
		fprintf(stderr, "mrc-api-probe: INIT with EV profile %llu: %s, want EINVAL\n",
			(unsigned long long)id, strerror(err));
		return -1;
	}
	if (expect_state(a, IBV_QPS_RESET, "the refusal"))
		return -1;
	printf("INIT with EV profile %llu refused: %s; the QP stays in RESET\n",
	       (unsigned long long)id, strerror(err));
	return 0;
}

/* A's QP bound to @id, which has no EV towards B: RTR refused, then RESET. */
static int refused_rtr(struct side *a, const struct side *b, uint64_t id)
{
	struct ibv_qp_attr v;
	struct mrc_conn c;
	int err;

	err = mrc_util_to_init(a->qp, id, 0);
	if (err)
		return errno = err, fail("INIT with an EV profile");
	conn_attr(&c, a, b, id);
	mrc_util_rtr_attr(&v, &c);
	err = mrc_modify_qp(a->qp, &v, MRC_UTIL_RTR_MASK, NULL, 0);
	if (err != EINVAL) {
		fprintf(stderr, "mrc-api-probe: RTR over EV profile %llu: %s, want EINVAL\n",
			(unsigned long long)id, strerror(err));
		return -1;
	}
	if (expect_state(a, IBV_QPS_INIT, "the refused RTR"))
		return -1;
	printf("RTR over EV profile %llu (no EV to the peer) refused: %s; the QP stays in INIT\n",
	       (unsigned long long)id, strerror(err));
	memset(&v, 0, sizeof(v));
	v.qp_state = IBV_QPS_RESET;
	err = mrc_modify_qp(a->qp, &v, IBV_QP_STATE, NULL, 0);
	if (err)
		return errno = err, fail("modify to RESET");
	return 0;
}

/* A's QP bound to qp_ev_profile: queried, traffic checked, then the shell. */
static int bound_run(struct side *a, struct side *b, uint64_t *rs)
{
	unsigned long long checked = 0;
	struct mrc_qp_attr m;
	char qpn[16];
	int round;

	memset(&m, 0, sizeof(m));
	if (mrc_query_qp(a->qp, NULL, 0, &m, MRC_QP_EV_PROFILE_ID, NULL))
		return fail("mrc_query_qp");
	if (m.profile.ev_profile_id != qp_ev_profile) {
		fprintf(stderr, "mrc-api-probe: query: EV profile %llu, want %llu\n",
			(unsigned long long)m.profile.ev_profile_id,
			(unsigned long long)qp_ev_profile);
		return -1;
	}
	for (round = 0; round < 50; round++)
		if (round_trip(a, b, round, rs, &checked))
			return -1;
	printf("QP %u bound to EV profile %llu: 50 rounds, %llu bytes checked\n",
	       a->qpn, (unsigned long long)qp_ev_profile, checked);
	snprintf(qpn, sizeof(qpn), "%u", a->qpn);
	setenv("MRC_QPN", qpn, 1);
	return run_cmd("MRC_BOUND_CHECK");
}

static int close_side(struct side *s)
{
	int bad = 0;

	bad |= s->qp && mrc_destroy_qp(s->qp);
	bad |= s->cq && mrc_destroy_cq(s->cq);
	bad |= s->ctx && mrc_destroy_context(s->ctx);
	bad |= s->mr && ibv_dereg_mr(s->mr);
	bad |= s->pd && ibv_dealloc_pd(s->pd);
	bad |= s->vctx && ibv_close_device(s->vctx);
	free(s->buf);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };
	unsigned long long checked = 0;
	uint32_t cur, last, vend, vend_last;
	int transfers, round, status = 1;
	uint64_t rs;

	if (argc == 9 && !strcmp(argv[1], "--outage")) {
		qp_timeout = 12;
		qp_linear = 1;
		qp_exp = (uint8_t)atoi(argv[3]);
		rs = 0x5eed;
		printf("outage %s s, linear 1, exp %u, expecting %s\n", argv[2],
		       qp_exp, argv[4]);
		if (!open_side(&a, argv[5], argv[6]) &&
		    !open_side(&b, argv[7], argv[8]) &&
		    !connect_side(&a, &b, 0) && !connect_side(&b, &a, 0) &&
		    !post_recvs(&b, QP_DEPTH / 2) &&
		    !outage(&a, &b, atof(argv[2]), !strcmp(argv[4], "ok"), &rs))
			status = 0;
		goto out;
	}
	if (argc == 7 && !strcmp(argv[1], "--mpr")) {
		struct mrc_qp_attr m;
		struct ibv_qp_attr v;

		qp_mpr = (uint8_t)atoi(argv[2]);
		rs = 0x5eed;
		if (!open_side(&a, argv[3], argv[4]) &&
		    !open_side(&b, argv[5], argv[6]) &&
		    !connect_side(&a, &b, 0) && !connect_side(&b, &a, 0) &&
		    !mrc_query_qp(a.qp, &v, 0, &m, MRC_QP_MPR, NULL) &&
		    m.mpr.mpr == qp_mpr && !mpr_run(&a, &b, argv[3], &rs))
			status = 0;
		goto out;
	}
	if (argc == 7 && !strcmp(argv[1], "--mpr-dest")) {
		struct mrc_qp_attr m;
		struct ibv_qp_attr v;
		uint8_t want = (uint8_t)atoi(argv[2]);

		rs = 0x5eed;
		if (open_side(&a, argv[3], argv[4]) ||
		    open_side(&b, argv[5], argv[6]) ||
		    connect_side(&a, &b, 0))
			goto out;
		qp_mpr_dest = want;
		if (!connect_side(&b, &a, 0) &&
		    !mrc_query_qp(b.qp, &v, 0, &m, MRC_QP_MPR_DEST, NULL) &&
		    m.mpr.mpr_dest == want && !mpr_run(&a, &b, argv[3], &rs) &&
		    !mpr_dest_check(&a, &b, argv[3], argv[5]))
			status = 0;
		goto out;
	}
	if (argc == 9 && !strcmp(argv[1], "--ev-profile")) {
		rs = 0x5eed;
		if (!open_side(&a, argv[5], argv[6]) &&
		    !open_side(&b, argv[7], argv[8]) &&
		    !refused_profile(&a, strtoull(argv[3], NULL, 0)) &&
		    !refused_profile(&a, 65) &&
		    !refused_rtr(&a, &b, strtoull(argv[4], NULL, 0))) {
			qp_ev_profile = strtoull(argv[2], NULL, 0);
			if (!connect_side(&a, &b, qp_ev_profile) &&
			    !connect_side(&b, &a, 0) &&
			    !post_recvs(&b, QP_DEPTH / 2) &&
			    !bound_run(&a, &b, &rs))
				status = 0;
		}
		goto out;
	}
	if (argc < 5) {
		fprintf(stderr, "usage: %s DEV_A IP_A DEV_B IP_B [TRANSFERS [SEED]]\n"
			"       %s --outage SECONDS EXP_CNT ok|retry-exc DEV_A IP_A DEV_B IP_B\n"
			"       %s --mpr MPR DEV_A IP_A DEV_B IP_B\n"
			"       %s --mpr-dest MPR_DEST DEV_A IP_A DEV_B IP_B\n"
			"       %s --ev-profile ID UNKNOWN NOPATH DEV_A IP_A DEV_B IP_B\n",
			argv[0], argv[0], argv[0], argv[0], argv[0]);
		return 2;
	}
	transfers = argc > 5 ? atoi(argv[5]) : 200;
	rs = argc > 6 ? strtoull(argv[6], NULL, 0) : 0x5eed;
	rs = rs ? rs : 1;
	mrc_query_version(&cur, &last, &vend, &vend_last);
	printf("lib_mrc API %#x (oldest %#x), vendor API %#x (oldest %#x), seed %#llx\n",
	       cur, last, vend, vend_last, (unsigned long long)rs);

	if (open_side(&a, argv[1], argv[2]) || open_side(&b, argv[3], argv[4]) ||
	    connect_side(&a, &b, 0) || connect_side(&b, &a, 0) ||
	    post_recvs(&b, QP_DEPTH / 2))
		goto out;
	for (round = 0; round < transfers; round++)
		if (round_trip(&a, &b, round, &rs, &checked))
			goto out;
	printf("%d rounds of WRITE + WRITE_IMM, %llu bytes checked\n",
	       transfers, checked);
	if (check_refusals(&a, &b))
		goto out;
	status = 0;
out:
	if (close_side(&a) | close_side(&b)) {
		fprintf(stderr, "mrc-api-probe: teardown failed\n");
		status = 1;
	}
	return status;
}
