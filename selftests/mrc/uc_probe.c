// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * uc-probe: Unreliable Connected QPs between two verbs devices, for uc.sh.
 * One process drives both ends: a UC QP on DEV_A sends to a UC QP on
 * DEV_B, each given the other's number, PSN and GID directly.
 *
 *   uc-probe data DEV_A IP_A DEV_B IP_B
 *	SEND, SEND_WITH_IMM, RDMA WRITE and WRITE_WITH_IMM of one and of
 *	several packets, every byte checked where it landed and the bytes
 *	around it untouched; the completions' opcodes, lengths and immediates.
 *	Then what UC refuses: READ and atomics at post time (EINVAL, with
 *	nothing queued), a QP created for READ, remote read or atomic access,
 *	and the RC-only attributes at RTS.
 *   uc-probe loss DEV_A IP_A DEV_B IP_B
 *	With packets being lost on the way (netem, set by uc.sh): messages of
 *	several packets, alternately SEND_WITH_IMM and WRITE_WITH_IMM, each
 *	numbered by its immediate. Every send completes. A message the
 *	receiver completes is whole, every byte right; some are not completed
 *	at all; and a message after a lost one is still completed.
 *
 * Exit status: 0 when all was as expected, 1 otherwise, 4 (kselftest skip)
 * when the devices cannot be used.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

#define KSFT_SKIP	4
/* Generous: the lab VM is emulated. */
#define POLL_SECONDS	30
#define MTU_BYTES	1024
#define MSG_MAX		(6 * MTU_BYTES)
#define LOSS_MSGS	48
#define LOSS_MSG_LEN	(4 * MTU_BYTES)
#define GUARD		64
/* LOSS_MSGS WRITE slots, then LOSS_MSGS receive buffers. */
#define BUF_LEN		(2 * LOSS_MSGS * (LOSS_MSG_LEN + GUARD) + 2 * MSG_MAX)
#define POISON		0x5a

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

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	int gid_index;
	union ibv_gid gid;
	uint32_t psn;
};

static uint8_t pattern(uint32_t msg, uint32_t i)
{
	return (uint8_t)(msg * 131 + i * 7 + (i >> 8));
}

static struct ibv_qp *create_uc_qp(struct side *s, uint64_t send_ops)
{
	struct ibv_qp_init_attr_ex qa = {
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.qp_type = IBV_QPT_UC,
		.cap = { .max_send_wr = 64, .max_recv_wr = 128,
			 .max_send_sge = 2, .max_recv_sge = 2 },
		.comp_mask = IBV_QP_INIT_ATTR_PD,
		.pd = s->pd,
	};

	if (send_ops) {
		qa.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		qa.send_ops_flags = send_ops;
	}
	return ibv_create_qp_ex(s->ctx, &qa);
}

static int open_side(struct side *s, const char *dev, const char *ip)
{
	s->ctx = probe_open_device(dev);
	if (!s->ctx)
		return -1;
	s->gid_index = probe_find_gid(s->ctx, ip, &s->gid);
	if (s->gid_index < 0) {
		fprintf(stderr, "%s: no GID for %s\n", dev, ip);
		return -1;
	}
	s->buf = malloc(BUF_LEN);
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, 512, NULL, NULL, 0);
	if (!s->buf || !s->pd || !s->cq)
		return -1;
	s->mr = ibv_reg_mr(s->pd, s->buf, BUF_LEN, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE);
	s->qp = create_uc_qp(s, 0);
	if (!s->mr || !s->qp) {
		fprintf(stderr, "%s: MR or UC QP: %s\n", dev, strerror(errno));
		return -1;
	}
	s->psn = (uint32_t)(rand() & 0xffffff);
	return 0;
}

static int connect_qp(struct side *s, const struct side *peer)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE,
	};

	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qp->qp_num;
	a.rq_psn = peer->psn;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = s->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	/* UC's RTR: no rd_atomic, no RNR timer. */
	a.min_rnr_timer = 1;
	EXPECT(ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			     IBV_QP_RQ_PSN | IBV_QP_MIN_RNR_TIMER) != 0,
	       "RTR with an RNR timer accepted on UC");
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = s->psn;
	a.timeout = 14;
	a.retry_cnt = 7;
	/* UC's RTS: an SQ PSN, and no retry, timeout nor rd_atomic. */
	EXPECT(ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT) != 0,
	       "RTS with a timeout and retries accepted on UC");
	return ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

static int post_recv(struct side *s, uint64_t wr_id, uint32_t off,
		     uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->buf + off,
		.length = len,
		.lkey = s->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_recv(s->qp, &wr, &bad);
}

static int post_send(struct side *s, enum ibv_wr_opcode op, uint64_t wr_id,
		     uint32_t off, uint32_t len, uint32_t imm,
		     const struct side *peer, uint32_t roff)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->buf + off,
		.length = len,
		.lkey = s->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(imm),
	}, *bad;

	wr.wr.rdma.remote_addr = (uintptr_t)peer->buf + roff;
	wr.wr.rdma.rkey = peer->mr->rkey;
	return ibv_post_send(s->qp, &wr, &bad);
}

static void fill(uint8_t *p, uint32_t msg, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = pattern(msg, i);
}

/* The first byte of @p that differs from message @msg, or -1. */
static long check(const uint8_t *p, uint32_t msg, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != pattern(msg, i))
			return i;
	return -1;
}

static bool poisoned(const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != POISON)
			return false;
	return true;
}

/* One message A to B and its completions on both sides, bytes checked. */
static void one_message(struct side *a, struct side *b,
			enum ibv_wr_opcode op, uint32_t len, uint32_t msg)
{
	bool recv = op != IBV_WR_RDMA_WRITE;
	bool imm = op == IBV_WR_SEND_WITH_IMM ||
		   op == IBV_WR_RDMA_WRITE_WITH_IMM;
	bool write = op == IBV_WR_RDMA_WRITE ||
		     op == IBV_WR_RDMA_WRITE_WITH_IMM;
	uint32_t dst = GUARD;
	struct ibv_wc wc[2];
	long bad;
	int n;

	memset(b->buf, POISON, MSG_MAX + 2 * GUARD);
	fill(a->buf, msg, len);
	if (recv)
		EXPECT(post_recv(b, 1000 + msg, write ? 0 : dst,
				 write ? 0 : MSG_MAX) == 0, "post_recv");
	EXPECT(post_send(a, op, msg, 0, len, 0xab000000u | msg, b, dst) == 0,
	       "post_send opcode %d", op);

	n = probe_poll(a->cq, wc, 1, POLL_SECONDS);
	EXPECT(n == 1 && wc[0].status == IBV_WC_SUCCESS && wc[0].wr_id == msg,
	       "send completion of msg %u (op %d, %u B): n %d status %s",
	       msg, op, len, n, n == 1 ? ibv_wc_status_str(wc[0].status) : "-");
	if (n == 1)
		EXPECT(wc[0].opcode == (write ? IBV_WC_RDMA_WRITE :
					IBV_WC_SEND),
		       "send completion opcode %d", wc[0].opcode);
	if (recv) {
		n = probe_poll(b->cq, wc, 1, POLL_SECONDS);
		EXPECT(n == 1 && wc[0].status == IBV_WC_SUCCESS &&
		       wc[0].wr_id == 1000 + msg,
		       "receive completion of msg %u: n %d status %s", msg, n,
		       n == 1 ? ibv_wc_status_str(wc[0].status) : "-");
		if (n == 1) {
			EXPECT(wc[0].opcode == (write ?
				IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV),
			       "receive opcode %d", wc[0].opcode);
			EXPECT(wc[0].byte_len == len, "byte_len %u, sent %u",
			       wc[0].byte_len, len);
			EXPECT(!!(wc[0].wc_flags & IBV_WC_WITH_IMM) == imm,
			       "wc_flags %#x", wc[0].wc_flags);
			if (imm)
				EXPECT(ntohl(wc[0].imm_data) ==
				       (0xab000000u | msg), "imm %#x",
				       ntohl(wc[0].imm_data));
			EXPECT(wc[0].qp_num == b->qp->qp_num, "qp_num");
		}
	} else {
		/* No completion on B for a WRITE: wait for its bytes. */
		double end = probe_now() + POLL_SECONDS;

		while (probe_now() < end &&
		       check(b->buf + dst, msg, len) >= 0)
			;
	}
	bad = check(b->buf + dst, msg, len);
	EXPECT(bad < 0, "msg %u (op %d, %u B): byte %ld wrong", msg, op, len,
	       bad);
	EXPECT(poisoned(b->buf, dst) &&
	       poisoned(b->buf + dst + len, MSG_MAX + GUARD - len),
	       "msg %u: bytes written outside it", msg);
}

static void refusals(struct side *a, struct side *b)
{
	static const enum ibv_wr_opcode refused[] = {
		IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP,
		IBV_WR_ATOMIC_FETCH_AND_ADD,
	};
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
	};
	struct ibv_wc wc;
	struct ibv_qp *qp;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		int err = post_send(a, refused[i], 77, 0, 8, 0, b, 0);

		EXPECT(err == EINVAL, "UC opcode %d: post_send returned %d",
		       refused[i], err);
	}
	/* Nothing was queued: no completion follows. */
	EXPECT(probe_poll(a->cq, &wc, 1, 0.5) == 0,
	       "a refused request completed");

	errno = 0;
	qp = create_uc_qp(a, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_READ);
	EXPECT(!qp && errno == EINVAL, "UC QP for READ: %p errno %d",
	       (void *)qp, errno);
	if (qp)
		ibv_destroy_qp(qp);
	qp = create_uc_qp(a, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE |
			  IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
			  IBV_QP_EX_WITH_SEND_WITH_IMM);
	EXPECT(qp, "UC QP for its four opcodes: %s", strerror(errno));
	if (!qp)
		return;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_READ;
	EXPECT(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == EINVAL,
	       "UC INIT with remote read access");
	attr.qp_access_flags = IBV_ACCESS_REMOTE_ATOMIC;
	EXPECT(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == EINVAL,
	       "UC INIT with remote atomic access");
	attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	EXPECT(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			     IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0,
	       "UC INIT with remote write access");
	ibv_destroy_qp(qp);
}

static void data(struct side *a, struct side *b)
{
	static const enum ibv_wr_opcode ops[] = {
		IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_WRITE,
		IBV_WR_RDMA_WRITE_WITH_IMM,
	};
	/* One packet, a partial last packet, whole packets, empty. */
	static const uint32_t lens[] = { 100, 5 * MTU_BYTES + 17,
					 2 * MTU_BYTES, 0 };
	uint32_t msg = 1;

	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
		for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
			if (!lens[l] && ops[o] == IBV_WR_RDMA_WRITE)
				continue;	/* nothing to see arrive */
			one_message(a, b, ops[o], lens[l], msg++);
		}
	printf("# %u UC messages sent and checked\n", msg - 1);
	refusals(a, b);
}

static void loss(struct side *a, struct side *b)
{
	bool got[LOSS_MSGS] = { false };
	uint32_t slot = LOSS_MSG_LEN + GUARD;
	uint32_t i, received = 0, after_lost = 0;
	struct ibv_wc wc[16];
	double quiet;
	int n, k, sent = 0;

	memset(b->buf, POISON, BUF_LEN);
	for (i = 0; i < LOSS_MSGS; i++) {
		fill(a->buf + i * slot, i, LOSS_MSG_LEN);
		EXPECT(post_recv(b, 5000 + i, (LOSS_MSGS + i) * slot,
				 LOSS_MSG_LEN) == 0, "post_recv");
	}
	for (i = 0; i < LOSS_MSGS; i++)
		EXPECT(post_send(a, i % 2 ? IBV_WR_RDMA_WRITE_WITH_IMM :
				 IBV_WR_SEND_WITH_IMM, i, i * slot,
				 LOSS_MSG_LEN, i, b, i * slot) == 0,
		       "post_send %u", i);
	/* No ACK is needed: every send completes, lost or not. */
	while (sent < LOSS_MSGS) {
		n = probe_poll(a->cq, wc, 1, POLL_SECONDS);
		if (n != 1)
			break;
		EXPECT(wc[0].status == IBV_WC_SUCCESS &&
		       wc[0].wr_id == (uint64_t)sent,
		       "send %d: status %s wr_id %llu", sent,
		       ibv_wc_status_str(wc[0].status),
		       (unsigned long long)wc[0].wr_id);
		sent++;
	}
	EXPECT(sent == LOSS_MSGS, "%d of %d sends completed", sent,
	       LOSS_MSGS);

	/* The receiver: until nothing more arrives for two seconds. */
	quiet = probe_now() + 2;
	while (probe_now() < quiet) {
		n = ibv_poll_cq(b->cq, 16, wc);
		EXPECT(n >= 0, "poll_cq %d", n);
		for (k = 0; k < n; k++) {
			uint32_t m = ntohl(wc[k].imm_data);
			bool write = wc[k].opcode == IBV_WC_RECV_RDMA_WITH_IMM;
			const uint8_t *p;
			long bad;

			quiet = probe_now() + 2;
			EXPECT(wc[k].status == IBV_WC_SUCCESS &&
			       wc[k].wc_flags & IBV_WC_WITH_IMM &&
			       m < LOSS_MSGS && !got[m],
			       "receive: status %s imm %u",
			       ibv_wc_status_str(wc[k].status), m);
			if (wc[k].status != IBV_WC_SUCCESS || m >= LOSS_MSGS ||
			    got[m] || wc[k].wr_id < 5000 ||
			    wc[k].wr_id >= 5000 + LOSS_MSGS)
				continue;
			/* Receives complete in the order they were posted. */
			EXPECT(wc[k].wr_id == 5000 + received,
			       "msg %u completed receive %llu, not %u", m,
			       (unsigned long long)wc[k].wr_id, 5000 + received);
			got[m] = true;
			received++;
			EXPECT(wc[k].byte_len == LOSS_MSG_LEN,
			       "msg %u: byte_len %u", m, wc[k].byte_len);
			EXPECT(write == (m % 2 == 1), "msg %u: opcode %d", m,
			       wc[k].opcode);
			/*
			 * A WRITE lands at its slot, a SEND in the buffer of
			 * the receive it completed: a receive a dropped
			 * message had begun to fill serves the next one.
			 */
			p = b->buf + slot * (write ? m : LOSS_MSGS +
					     (uint32_t)(wc[k].wr_id - 5000));
			bad = check(p, m, LOSS_MSG_LEN);
			EXPECT(bad < 0, "msg %u completed with byte %ld wrong",
			       m, bad);
		}
	}
	for (i = 1; i < LOSS_MSGS; i++)
		if (got[i] && !got[i - 1])
			after_lost++;
	printf("# loss: %u of %d messages completed, %u right after a lost one\n",
	       received, LOSS_MSGS, after_lost);
	EXPECT(received < LOSS_MSGS, "no message was lost: is netem on?");
	EXPECT(after_lost > 0, "no message completed after a lost one");
}

int main(int argc, char **argv)
{
	struct side a = {}, b = {};

	if (argc != 6) {
		fprintf(stderr, "usage: uc-probe data|loss DEV_A IP_A DEV_B IP_B\n");
		return 2;
	}
	srand((unsigned int)getpid());
	if (open_side(&a, argv[2], argv[3]) || open_side(&b, argv[4], argv[5]))
		return KSFT_SKIP;
	if (connect_qp(&a, &b) || connect_qp(&b, &a)) {
		fprintf(stderr, "connecting the UC QPs: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "data"))
		data(&a, &b);
	else if (!strcmp(argv[1], "loss"))
		loss(&a, &b);
	else
		return 2;
	return failures ? 1 : 0;
}
