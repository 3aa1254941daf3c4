// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * queue-probe: exercises CQs, QPs and SRQs of an mrc device through
 * libibverbs and the mrc provider's rings, for queues.sh. Every result is
 * checked; the exit status says whether all were as expected.
 *
 *   queue-probe DEVICE cq        CQ creation, empty poll, arming, refusals
 *   queue-probe DEVICE flush     QP states, limits, and flushed completions
 *                                through the send doorbell, round the ring
 *   queue-probe DEVICE recv-flush  a receive posted in ERR is flushed;
 *                                exit 4 if the kernel has no POST_RECV
 *                                doorbell
 *   queue-probe DEVICE cq-ex     ibv_create_cq_ex/ibv_create_qp_ex and the
 *                                extended polling API
 *   queue-probe DEVICE srq       SRQ attributes, capacity and refusals
 *   queue-probe DEVICE cq-resize resizing a CQ with completions queued:
 *                                all come out in order; refusals; a
 *                                resize racing completions being posted
 *   queue-probe DEVICE full SGID_INDEX PEER_IPV4
 *                                a QP in RTS towards a peer that never
 *                                answers fills up: ENOMEM at max_send_wr
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

static int failures;
/* The kernel lacks what a probe needs: kselftest's skip. */
static bool unsupported;
#define KSFT_SKIP	4

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

/* Generous: the kernel flushes at once, but the lab VM is emulated. */
#define POLL_SECONDS	30

struct probe {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	char buf[4096];
};

static int modify_state(struct ibv_qp *qp, enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = {
		.qp_state = state,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE,
	};
	int mask = IBV_QP_STATE;

	if (state == IBV_QPS_INIT)
		mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
	return ibv_modify_qp(qp, &attr, mask);
}

static struct ibv_qp *create_rc_qp(struct probe *p, struct ibv_srq *srq,
				   struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr attr = {
		.send_cq = p->cq,
		.recv_cq = p->cq,
		.srq = srq,
		.qp_type = IBV_QPT_RC,
		.cap = *cap,
	};
	struct ibv_qp *qp;

	qp = ibv_create_qp(p->pd, &attr);
	EXPECT(qp, "ibv_create_qp: %s", strerror(errno));
	/* What the kernel granted, as the provider enforces it. */
	*cap = attr.cap;
	return qp;
}

static void expect_flushes(struct ibv_cq *cq, struct ibv_qp *qp, int n,
			   uint64_t first_wr_id, const enum ibv_wc_opcode *ops)
{
	struct ibv_wc wc[16];
	int got;

	got = probe_poll(cq, wc, n, POLL_SECONDS);
	EXPECT(got == n, "%d of %d flushed completions", got, n);
	for (int i = 0; i < got; i++) {
		EXPECT(wc[i].wr_id == first_wr_id + i, "wr_id %llu, not %llu",
		       (unsigned long long)wc[i].wr_id,
		       (unsigned long long)(first_wr_id + i));
		EXPECT(wc[i].status == IBV_WC_WR_FLUSH_ERR, "status %s",
		       ibv_wc_status_str(wc[i].status));
		EXPECT(wc[i].opcode == ops[i], "opcode %d, not %d",
		       wc[i].opcode, ops[i]);
		EXPECT(wc[i].qp_num == qp->qp_num, "qp_num %u", wc[i].qp_num);
	}
}

static void probe_cq(struct probe *p)
{
	struct ibv_cq_init_attr_ex timestamps = {
		.cqe = 8,
		.wc_flags = IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
	};
	struct ibv_wc wc[4];

	EXPECT(p->cq->cqe >= 16, "cqe %d", p->cq->cqe);
	EXPECT(ibv_poll_cq(p->cq, 4, wc) == 0, "empty CQ polled non-zero");
	EXPECT(ibv_req_notify_cq(p->cq, 0) == 0, "arming failed");
	EXPECT(ibv_req_notify_cq(p->cq, 1) == 0, "solicited arming failed");
	errno = 0;
	EXPECT(!ibv_create_cq_ex(p->ctx, &timestamps) && errno == EOPNOTSUPP,
	       "timestamps: %s", strerror(errno));
}

static void probe_flush(struct probe *p)
{
	static const enum ibv_wc_opcode recvs[] = {
		IBV_WC_RECV, IBV_WC_RECV, IBV_WC_RECV,
	};
	static const enum ibv_wc_opcode sends[] = {
		IBV_WC_SEND, IBV_WC_RDMA_WRITE,
	};
	struct ibv_qp_cap cap = {
		.max_send_wr = 10, .max_recv_wr = 10,
		.max_send_sge = 2, .max_recv_sge = 2, .max_inline_data = 64,
	};
	struct ibv_sge sge = { .addr = (uintptr_t)p->buf, .length = 16 };
	struct ibv_sge big = { .addr = (uintptr_t)p->buf };
	struct ibv_send_wr swr[2], *bad_swr;
	struct ibv_recv_wr rwr[3], *bad_rwr;
	struct ibv_qp_init_attr init_attr;
	struct ibv_qp_attr attr;
	struct ibv_qp *qp;
	int err;

	qp = create_rc_qp(p, NULL, &cap);
	if (!qp)
		return;
	EXPECT(cap.max_send_wr >= 10 && cap.max_recv_wr >= 10 &&
	       cap.max_send_sge >= 2 && cap.max_recv_sge >= 2 &&
	       cap.max_inline_data >= 64, "granted less than asked");

	for (int i = 0; i < 3; i++)
		rwr[i] = (struct ibv_recv_wr){
			.wr_id = 100 + i, .sg_list = &sge, .num_sge = 1,
			.next = i < 2 ? &rwr[i + 1] : NULL,
		};
	swr[0] = (struct ibv_send_wr){
		.wr_id = 200, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_INLINE,
		.next = &swr[1],
	};
	swr[1] = (struct ibv_send_wr){
		.wr_id = 201, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = 0x1000, .rkey = 1 },
	};

	/* Nothing may be posted before INIT, no send before RTS. */
	bad_rwr = NULL;
	EXPECT(ibv_post_recv(qp, rwr, &bad_rwr) == EINVAL && bad_rwr == rwr,
	       "receive accepted in RESET");
	EXPECT(modify_state(qp, IBV_QPS_INIT) == 0, "to INIT");
	bad_swr = NULL;
	EXPECT(ibv_post_send(qp, swr, &bad_swr) == EINVAL && bad_swr == swr,
	       "send accepted in INIT");
	EXPECT(ibv_post_recv(qp, rwr, &bad_rwr) == 0, "receives in INIT");

	/* Entering ERR flushes the receives, in order. */
	EXPECT(modify_state(qp, IBV_QPS_ERR) == 0, "to ERR");
	expect_flushes(p->cq, qp, 3, 100, recvs);

	/* Sends in ERR: the doorbell makes the kernel flush them. */
	EXPECT(ibv_post_send(qp, swr, &bad_swr) == 0, "sends in ERR");
	expect_flushes(p->cq, qp, 2, 200, sends);

	/* Three times round the ring, one request at a time. */
	swr[0].next = NULL;
	for (uint32_t i = 0; i < 3 * cap.max_send_wr && !failures; i++) {
		swr[0].wr_id = 1000 + i;
		EXPECT(ibv_post_send(qp, swr, &bad_swr) == 0, "send %u", i);
		expect_flushes(p->cq, qp, 1, 1000 + i, sends);
	}

	/* Limits refused before anything reaches the ring. */
	swr[1].next = NULL;
	swr[1].num_sge = cap.max_send_sge + 1;
	EXPECT(ibv_post_send(qp, &swr[1], &bad_swr) == EINVAL,
	       "too many SGEs");
	big.length = cap.max_inline_data + 1;
	swr[0].sg_list = &big;
	EXPECT(ibv_post_send(qp, swr, &bad_swr) == EINVAL, "inline too long");
	swr[0].sg_list = &sge;
	swr[0].opcode = IBV_WR_TSO;
	EXPECT(ibv_post_send(qp, swr, &bad_swr) == EINVAL, "TSO");
	EXPECT(ibv_poll_cq(p->cq, 1, (struct ibv_wc[1]){}) == 0,
	       "refused requests completed");

	err = ibv_query_qp(qp, &attr, IBV_QP_STATE | IBV_QP_CAP, &init_attr);
	EXPECT(!err && attr.qp_state == IBV_QPS_ERR, "query: %d, state %d",
	       err, attr.qp_state);
	EXPECT(!err && attr.cap.max_send_wr == cap.max_send_wr &&
	       attr.cap.max_inline_data == cap.max_inline_data,
	       "queried caps differ from created");
	EXPECT(ibv_destroy_qp(qp) == 0, "destroy QP");
}

static void probe_recv_flush(struct probe *p)
{
	static const enum ibv_wc_opcode recv[] = { IBV_WC_RECV };
	struct ibv_qp_cap cap = { .max_send_wr = 1, .max_recv_wr = 4,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_recv_wr rwr = { .wr_id = 300 }, *bad_rwr;
	struct ibv_qp *qp;
	int err;

	qp = create_rc_qp(p, NULL, &cap);
	if (!qp)
		return;
	EXPECT(modify_state(qp, IBV_QPS_INIT) == 0, "to INIT");
	EXPECT(modify_state(qp, IBV_QPS_ERR) == 0, "to ERR");
	err = ibv_post_recv(qp, &rwr, &bad_rwr);
	if (err == EOPNOTSUPP) {
		printf("no POST_RECV doorbell in this kernel\n");
		unsupported = true;
	} else {
		EXPECT(err == 0, "receive in ERR: %s", strerror(err));
		if (!err)
			expect_flushes(p->cq, qp, 1, 300, recv);
	}
	EXPECT(ibv_destroy_qp(qp) == 0, "destroy QP");
}

/* Flushed sends of a QP in ERR: the doorbell completes them at once. */
static void flush_sends(struct ibv_qp *qp, uint64_t first_wr_id, int n)
{
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND }, *bad_wr;

	for (int i = 0; i < n; i++) {
		wr.wr_id = first_wr_id + i;
		EXPECT(ibv_post_send(qp, &wr, &bad_wr) == 0, "send %d", i);
	}
}

/* Polls n completions one call at a time; they must be wr_ids first.. */
static void expect_wr_ids(struct ibv_cq *cq, uint64_t first_wr_id, int n,
			  enum ibv_wc_opcode opcode)
{
	struct ibv_wc wc;

	for (int i = 0; i < n; i++) {
		if (probe_poll(cq, &wc, 1, POLL_SECONDS) != 1) {
			EXPECT(0, "completion %d of %d missing", i, n);
			return;
		}
		EXPECT(wc.wr_id == first_wr_id + i && wc.opcode == opcode &&
		       wc.status == IBV_WC_WR_FLUSH_ERR,
		       "completion %d: wr_id %llu opcode %d status %s", i,
		       (unsigned long long)wc.wr_id, wc.opcode,
		       ibv_wc_status_str(wc.status));
	}
}

#define RACE_SENDS	2000
#define RACE_WINDOW	200	/* completions unpolled at most */

struct race {
	struct ibv_qp *qp;
	unsigned int polled;	/* atomic: the poster waits on it */
	int failed;
};

static void *race_poster(void *arg)
{
	struct race *r = arg;
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND }, *bad_wr;

	for (unsigned int i = 0; i < RACE_SENDS; i++) {
		while (i - __atomic_load_n(&r->polled, __ATOMIC_ACQUIRE) >=
		       RACE_WINDOW)
			sched_yield();
		wr.wr_id = 5000 + i;
		if (ibv_post_send(r->qp, &wr, &bad_wr)) {
			r->failed = 1;
			break;
		}
	}
	return NULL;
}

static void probe_cq_resize(struct probe *p)
{
	struct ibv_qp_cap cap = { .max_send_wr = 64, .max_recv_wr = 64,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_recv_wr rwr[3], *bad_rwr;
	struct ibv_device_attr dattr;
	struct race race = {};
	struct ibv_wc wc[16];
	unsigned int got = 0;
	pthread_t poster;
	struct ibv_cq *cq, *main_cq = p->cq;
	struct ibv_qp *qp;
	int err, got_now;

	EXPECT(ibv_query_device(p->ctx, &dattr) == 0, "query device");
	cq = ibv_create_cq(p->ctx, 4, NULL, NULL, 0);
	EXPECT(cq, "create CQ: %s", strerror(errno));
	if (!cq)
		return;
	EXPECT(cq->cqe == 4, "cqe %d", cq->cqe);
	p->cq = cq;	/* the QP's CQ */
	qp = create_rc_qp(p, NULL, &cap);
	if (!qp)
		goto out_cq;

	/* Three receives flushed by entering ERR, queued unpolled. */
	for (int i = 0; i < 3; i++)
		rwr[i] = (struct ibv_recv_wr){
			.wr_id = 100 + i, .next = i < 2 ? &rwr[i + 1] : NULL,
		};
	EXPECT(modify_state(qp, IBV_QPS_INIT) == 0, "to INIT");
	EXPECT(ibv_post_recv(qp, rwr, &bad_rwr) == 0, "receives");
	EXPECT(modify_state(qp, IBV_QPS_ERR) == 0, "to ERR");

	/* Refusals leave the CQ as it was. */
	EXPECT(ibv_resize_cq(cq, 2) == EINVAL, "2 < 3 queued accepted");
	EXPECT(ibv_resize_cq(cq, 0) == EINVAL, "0 accepted");
	EXPECT(ibv_resize_cq(cq, -1) == EINVAL, "-1 accepted");
	EXPECT(ibv_resize_cq(cq, dattr.max_cqe + 1) == EINVAL,
	       "max_cqe + 1 (%d) accepted", dattr.max_cqe + 1);
	EXPECT(cq->cqe == 4, "refused resize changed cqe to %d", cq->cqe);

	/* Exactly the queued count, then grow and queue 50 more behind. */
	err = ibv_resize_cq(cq, 3);
	EXPECT(err == 0 && cq->cqe >= 3, "resize to 3: %s, cqe %d",
	       strerror(err), cq->cqe);
	err = ibv_resize_cq(cq, 100);
	EXPECT(err == 0 && cq->cqe >= 100, "grow to 100: %s, cqe %d",
	       strerror(err), cq->cqe);
	flush_sends(qp, 200, 50);

	/* Part polled, so the consumer index the kernel carries is not 0. */
	expect_wr_ids(cq, 100, 2, IBV_WC_RECV);
	EXPECT(ibv_resize_cq(cq, 50) == EINVAL, "50 < 51 queued accepted");
	err = ibv_resize_cq(cq, 51);
	EXPECT(err == 0 && cq->cqe >= 51 && cq->cqe < 100,
	       "shrink to 51: %s, cqe %d", strerror(err), cq->cqe);
	expect_wr_ids(cq, 102, 1, IBV_WC_RECV);
	expect_wr_ids(cq, 200, 50, IBV_WC_SEND);
	EXPECT(ibv_poll_cq(cq, 1, wc) == 0, "completion past the last");

	/* The new ring goes round: three times its size, one at a time. */
	for (int i = 0; i < 3 * cq->cqe && !failures; i++) {
		flush_sends(qp, 1000 + i, 1);
		expect_wr_ids(cq, 1000 + i, 1, IBV_WC_SEND);
	}

	/* Empty: down to one slot, which still works. */
	err = ibv_resize_cq(cq, 1);
	EXPECT(err == 0 && cq->cqe >= 1, "shrink to 1: %s", strerror(err));
	flush_sends(qp, 300, 1);
	expect_wr_ids(cq, 300, 1, IBV_WC_SEND);

	/*
	 * Completions posted by another thread while this one resizes
	 * between 256 and 512 slots and polls: none lost, none reordered.
	 */
	err = ibv_resize_cq(cq, 256);
	EXPECT(err == 0, "grow to 256: %s", strerror(err));
	race.qp = qp;
	EXPECT(pthread_create(&poster, NULL, race_poster, &race) == 0,
	       "thread");
	for (int round = 0; got < RACE_SENDS && !failures; round++) {
		got_now = probe_poll(cq, wc, 1, POLL_SECONDS);
		EXPECT(got_now == 1, "race: %u of %d completions", got,
		       RACE_SENDS);
		if (got_now != 1)
			break;
		EXPECT(wc[0].wr_id == 5000 + got &&
		       wc[0].status == IBV_WC_WR_FLUSH_ERR,
		       "race: wr_id %llu, expected %u, status %s",
		       (unsigned long long)wc[0].wr_id, 5000 + got,
		       ibv_wc_status_str(wc[0].status));
		__atomic_store_n(&race.polled, ++got, __ATOMIC_RELEASE);
		if (round % 16 == 0) {
			err = ibv_resize_cq(cq, round % 32 ? 256 : 512);
			EXPECT(err == 0, "race: resize: %s", strerror(err));
		}
	}
	if (failures)
		/* Let the poster run out rather than wait on us forever. */
		__atomic_store_n(&race.polled, RACE_SENDS, __ATOMIC_RELEASE);
	pthread_join(poster, NULL);
	EXPECT(!race.failed, "race: a send failed");
	printf("race: %u completions in order across %u resizes\n", got,
	       (got + 15) / 16);

	EXPECT(ibv_destroy_qp(qp) == 0, "destroy QP");
out_cq:
	EXPECT(ibv_destroy_cq(cq) == 0, "destroy resized CQ");
	p->cq = main_cq;
}

static void probe_cq_ex(struct probe *p)
{
	struct ibv_cq_init_attr_ex cq_attr = {
		.cqe = 8,
		.wc_flags = IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_BYTE_LEN,
	};
	struct ibv_sge sge = { .addr = (uintptr_t)p->buf, .length = 8 };
	struct ibv_poll_cq_attr poll_attr = {};
	struct ibv_send_wr wr[3], *bad_wr;
	struct ibv_qp_init_attr_ex qp_attr;
	struct ibv_cq_ex *cq;
	struct ibv_qp *qp;
	int seen = 0, ret;

	cq = ibv_create_cq_ex(p->ctx, &cq_attr);
	EXPECT(cq, "ibv_create_cq_ex: %s", strerror(errno));
	if (!cq)
		return;

	qp_attr = (struct ibv_qp_init_attr_ex){
		.send_cq = ibv_cq_ex_to_cq(cq),
		.recv_cq = ibv_cq_ex_to_cq(cq),
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_CREATE_FLAGS,
		.pd = p->pd,
	};
	qp = ibv_create_qp_ex(p->ctx, &qp_attr);
	EXPECT(qp, "ibv_create_qp_ex: %s", strerror(errno));
	if (!qp)
		goto out_cq;
	/* No ibv_wr_* API: libibverbs must see no extended QP. */
	EXPECT(!ibv_qp_to_qp_ex(qp), "QP claims the ibv_wr_* API");

	EXPECT(modify_state(qp, IBV_QPS_INIT) == 0, "to INIT");
	EXPECT(modify_state(qp, IBV_QPS_ERR) == 0, "to ERR");
	for (int i = 0; i < 3; i++)
		wr[i] = (struct ibv_send_wr){
			.wr_id = 400 + i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND, .next = i < 2 ? &wr[i + 1] : NULL,
		};
	EXPECT(ibv_post_send(qp, wr, &bad_wr) == 0, "sends in ERR");

	for (double end = probe_now() + POLL_SECONDS;
	     seen < 3 && probe_now() < end;) {
		ret = ibv_start_poll(cq, &poll_attr);
		if (ret == ENOENT)
			continue;
		EXPECT(ret == 0, "ibv_start_poll: %d", ret);
		if (ret)
			break;
		do {
			EXPECT(cq->wr_id == 400u + seen, "wr_id %llu",
			       (unsigned long long)cq->wr_id);
			EXPECT(cq->status == IBV_WC_WR_FLUSH_ERR, "status %d",
			       cq->status);
			EXPECT(ibv_wc_read_opcode(cq) == IBV_WC_SEND,
			       "opcode %d", ibv_wc_read_opcode(cq));
			EXPECT(ibv_wc_read_qp_num(cq) == qp->qp_num, "qp_num");
			seen++;
		} while (ibv_next_poll(cq) == 0);
		ibv_end_poll(cq);
	}
	EXPECT(seen == 3, "%d of 3 completions", seen);
	EXPECT(ibv_destroy_qp(qp) == 0, "destroy QP");
out_cq:
	EXPECT(ibv_destroy_cq(ibv_cq_ex_to_cq(cq)) == 0, "destroy CQ");
}

static void probe_srq(struct probe *p)
{
	struct ibv_srq_init_attr init = { .attr = { .max_wr = 10,
						    .max_sge = 2 } };
	struct ibv_qp_cap cap = { .max_send_wr = 1, .max_send_sge = 1 };
	struct ibv_sge sge = { .addr = (uintptr_t)p->buf, .length = 8 };
	struct ibv_recv_wr *wrs, *bad_wr;
	struct ibv_srq_attr attr;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	uint32_t max_wr;
	int err;

	srq = ibv_create_srq(p->pd, &init);
	EXPECT(srq, "ibv_create_srq: %s", strerror(errno));
	if (!srq)
		return;
	max_wr = init.attr.max_wr;
	EXPECT(max_wr >= 10 && init.attr.max_sge >= 2, "granted less");

	/* The ring cannot be resized; asking for its own size is no resize. */
	attr = (struct ibv_srq_attr){ .max_wr = max_wr };
	EXPECT(ibv_modify_srq(srq, &attr, IBV_SRQ_MAX_WR) == 0, "same size");
	attr.max_wr = max_wr * 2;
	EXPECT(ibv_modify_srq(srq, &attr, IBV_SRQ_MAX_WR) == EINVAL, "resize");
	attr.srq_limit = 2;
	EXPECT(ibv_modify_srq(srq, &attr, IBV_SRQ_LIMIT) == 0, "arm limit");
	err = ibv_query_srq(srq, &attr);
	EXPECT(!err && attr.max_wr == max_wr && attr.srq_limit == 2,
	       "query: %d, max_wr %u, limit %u", err, attr.max_wr,
	       attr.srq_limit);

	/* A QP on the SRQ takes no receives of its own. */
	qp = create_rc_qp(p, srq, &cap);
	if (qp) {
		struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };

		EXPECT(modify_state(qp, IBV_QPS_INIT) == 0, "to INIT");
		EXPECT(ibv_post_recv(qp, &wr, &bad_wr) == EINVAL,
		       "receive on an SRQ QP");
		EXPECT(ibv_destroy_qp(qp) == 0, "destroy QP");
	}

	/* Exactly max_wr fit; the next is ENOMEM, pointed at. */
	wrs = calloc(max_wr + 1, sizeof(*wrs));
	if (!wrs)
		abort();
	for (uint32_t i = 0; i <= max_wr; i++)
		wrs[i] = (struct ibv_recv_wr){
			.wr_id = i, .sg_list = &sge, .num_sge = 1,
			.next = i < max_wr ? &wrs[i + 1] : NULL,
		};
	bad_wr = NULL;
	EXPECT(ibv_post_srq_recv(srq, wrs, &bad_wr) == ENOMEM &&
	       bad_wr == &wrs[max_wr], "SRQ capacity not max_wr %u", max_wr);
	free(wrs);
	EXPECT(ibv_destroy_srq(srq) == 0, "destroy SRQ");
}

/*
 * A QP in RTS towards a QPN nobody has: its sends stay outstanding (the
 * kernel releases a slot only at completion), so max_send_wr of them fill
 * the queue and the next one is ENOMEM.
 */
static void probe_full(struct probe *p, int sgid_index, const char *peer)
{
	struct ibv_qp_cap cap = { .max_send_wr = 8, .max_recv_wr = 1,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	/*
	 * Zero-length: with no SGE there is no lkey for the kernel to
	 * refuse, which would complete the request at once.
	 */
	struct ibv_send_wr wr = { .opcode = IBV_WR_SEND }, *bad_wr;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = 0xfffff0,
		.rq_psn = 0,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah_attr = {
			.is_global = 1,
			.port_num = 1,
			.grh = { .sgid_index = (uint8_t)sgid_index,
				 .hop_limit = 64 },
		},
	};
	struct in_addr addr;
	struct ibv_qp *qp;
	uint32_t posted = 0;
	int err = 0;

	if (inet_pton(AF_INET, peer, &addr) != 1) {
		EXPECT(0, "bad address %s", peer);
		return;
	}
	/* IPv4-mapped: ::ffff:a.b.c.d */
	attr.ah_attr.grh.dgid.raw[10] = 0xff;
	attr.ah_attr.grh.dgid.raw[11] = 0xff;
	memcpy(&attr.ah_attr.grh.dgid.raw[12], &addr, 4);

	qp = create_rc_qp(p, NULL, &cap);
	if (!qp)
		return;
	EXPECT(modify_state(qp, IBV_QPS_INIT) == 0, "to INIT");
	EXPECT(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			     IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			     IBV_QP_MIN_RNR_TIMER) == 0,
	       "to RTR: %s", strerror(errno));
	attr = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTS,
		.timeout = 20,		/* ~4 s: nothing completes meanwhile */
		.retry_cnt = 7,
		.rnr_retry = 7,
		.max_rd_atomic = 1,
	};
	EXPECT(ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC) == 0,
	       "to RTS: %s", strerror(errno));

	while (posted <= cap.max_send_wr) {
		wr.wr_id = posted;
		err = ibv_post_send(qp, &wr, &bad_wr);
		if (err)
			break;
		posted++;
	}
	EXPECT(posted == cap.max_send_wr && err == ENOMEM && bad_wr == &wr,
	       "%u posted of max_send_wr %u, then %s", posted,
	       cap.max_send_wr, strerror(err));
	/* Destroying a QP with requests in flight must be clean too. */
	EXPECT(ibv_destroy_qp(qp) == 0, "destroy QP");
}

int main(int argc, char **argv)
{
	struct probe p = {};
	const char *what;

	if (argc < 3 || (!strcmp(argv[2], "full") && argc < 5)) {
		fprintf(stderr, "usage: %s DEVICE cq|flush|recv-flush|cq-ex|srq|cq-resize\n"
			"       %s DEVICE full SGID_INDEX PEER_IPV4\n",
			argv[0], argv[0]);
		return 2;
	}
	what = argv[2];

	p.ctx = probe_open_device(argv[1]);
	if (!p.ctx) {
		fprintf(stderr, "cannot open %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	p.pd = ibv_alloc_pd(p.ctx);
	p.cq = ibv_create_cq(p.ctx, 16, NULL, NULL, 0);
	if (!p.pd || !p.cq) {
		fprintf(stderr, "PD or CQ: %s\n", strerror(errno));
		return 1;
	}

	if (!strcmp(what, "cq"))
		probe_cq(&p);
	else if (!strcmp(what, "flush"))
		probe_flush(&p);
	else if (!strcmp(what, "recv-flush"))
		probe_recv_flush(&p);
	else if (!strcmp(what, "cq-ex"))
		probe_cq_ex(&p);
	else if (!strcmp(what, "srq"))
		probe_srq(&p);
	else if (!strcmp(what, "cq-resize"))
		probe_cq_resize(&p);
	else if (!strcmp(what, "full"))
		probe_full(&p, atoi(argv[3]), argv[4]);
	else
		EXPECT(0, "unknown probe %s", what);

	EXPECT(ibv_destroy_cq(p.cq) == 0, "destroy CQ");
	EXPECT(ibv_dealloc_pd(p.pd) == 0, "dealloc PD");
	EXPECT(ibv_close_device(p.ctx) == 0, "close");
	if (failures)
		return 1;
	if (unsupported)
		return KSFT_SKIP;
	printf("%s: as expected\n", what);
	return 0;
}
