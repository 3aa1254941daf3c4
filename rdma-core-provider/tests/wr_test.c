// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the ibv_wr_* posting API (mrc_wr.c) on a send ring in
 * ordinary memory: every operation writes the very bytes ibv_post_send()
 * writes for the same request, a batch is published once or not at all,
 * its first error is what ibv_wr_complete() returns, and creation refuses
 * what mrc does not have. The test plays both libibverbs (the public
 * ibv_wr_* inlines call the ops) and the kernel (its indices).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>

#include "fake_ring.h"
#include "ktap.h"
#include "mrc_wr.h"

#define SQ_SLOTS	8
#define SQ_MAX_SGE	4
#define SQ_MAX_INLINE	64
#define SQ_SLOT_SIZE	128	/* 64-byte header + 4 SGEs or 64 bytes */

#define ALL_OPS								\
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |	\
	 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |		\
	 IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |	\
	 IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |				\
	 IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_LOCAL_INV |	\
	 IBV_QP_EX_WITH_BIND_MW)

/* A QP as far as mrc_wr.c sees one: the ibv_qp_ex and its send queue. */
struct test_qp {
	struct ibv_qp_ex qpx;
	struct fake_ring fake;
	struct mrc_sq sq;
};

struct mrc_sq *mrc_qp_ex_sq(struct ibv_qp_ex *qpx)
{
	return &((struct test_qp *)((char *)qpx -
				    offsetof(struct test_qp, qpx)))->sq;
}

/* mrc_qp.c's start and complete without the lock, state and doorbell. */
static void test_wr_start(struct ibv_qp_ex *qpx)
{
	mrc_wr_batch_start(mrc_qp_ex_sq(qpx));
}

static uint32_t last_posted;

static int test_wr_complete(struct ibv_qp_ex *qpx)
{
	return mrc_wr_batch_end(mrc_qp_ex_sq(qpx), &last_posted);
}

static void test_wr_abort(struct ibv_qp_ex *qpx)
{
	mrc_wr_batch_abort(mrc_qp_ex_sq(qpx));
}

static void test_qp_init(struct test_qp *t, enum ibv_qp_type qp_type,
			 uint32_t max_wr, uint64_t send_ops)
{
	memset(&t->qpx, 0, sizeof(t->qpx));
	fake_ring_init(&t->fake, SQ_SLOTS, SQ_SLOT_SIZE, 0,
		       MRC_URING_PRODUCER);
	t->sq = (struct mrc_sq){
		.ring = t->fake.ring,
		.qp_type = qp_type,
		.max_wr = max_wr,
		.max_sge = SQ_MAX_SGE,
		.max_inline_data = SQ_MAX_INLINE,
	};
	mrc_wr_init(&t->qpx, &t->sq, send_ops);
	t->qpx.wr_start = test_wr_start;
	t->qpx.wr_complete = test_wr_complete;
	t->qpx.wr_abort = test_wr_abort;
}

static struct mrc_send_wqe *slot_of(struct test_qp *t, uint32_t index)
{
	return fake_slot(&t->fake, index);
}

/* Every request of the comparison, once through each front end. */
static char inline_a[] = "soft-", inline_b[] = "MRC inline";
static struct ibv_sge two_sges[2] = {
	{ .addr = 0x1000, .length = 100, .lkey = 0x11 },
	{ .addr = 0x2000, .length = 200, .lkey = 0x22 },
};
static struct ibv_sge atomic_sge = { .addr = 0x3000, .length = 8,
				     .lkey = 0x33 };
static char big[SQ_MAX_INLINE + 1];
static struct ibv_sge inline_sges[2] = {
	{ .addr = (uintptr_t)inline_a, .length = 5 },
	{ .addr = (uintptr_t)inline_b, .length = 10 },
};

#define RC_REQUESTS 8

static void rc_post_send(struct test_qp *t)
{
	struct ibv_send_wr wr[RC_REQUESTS] = {
		{ .wr_id = 1, .opcode = IBV_WR_SEND, .sg_list = two_sges,
		  .num_sge = 2, .send_flags = IBV_SEND_SIGNALED },
		{ .wr_id = 2, .opcode = IBV_WR_SEND_WITH_IMM,
		  .sg_list = two_sges, .num_sge = 1,
		  .imm_data = htonl(0x01020304),
		  .send_flags = IBV_SEND_SOLICITED },
		{ .wr_id = 3, .opcode = IBV_WR_RDMA_WRITE, .sg_list = two_sges,
		  .num_sge = 2, .send_flags = IBV_SEND_FENCE,
		  .wr.rdma = { .remote_addr = 0x9000, .rkey = 0x99 } },
		{ .wr_id = 4, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		  .num_sge = 0, .imm_data = htonl(7),
		  .wr.rdma = { .remote_addr = 0x9100, .rkey = 0x98 } },
		{ .wr_id = 5, .opcode = IBV_WR_RDMA_READ, .sg_list = two_sges,
		  .num_sge = 1, .send_flags = IBV_SEND_SIGNALED,
		  .wr.rdma = { .remote_addr = 0x9200, .rkey = 0x97 } },
		{ .wr_id = 6, .opcode = IBV_WR_ATOMIC_CMP_AND_SWP,
		  .sg_list = &atomic_sge, .num_sge = 1,
		  .wr.atomic = { .remote_addr = 0x9300, .rkey = 0x96,
				 .compare_add = 0x1111, .swap = 0x2222 } },
		{ .wr_id = 7, .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		  .sg_list = &atomic_sge, .num_sge = 1,
		  .wr.atomic = { .remote_addr = 0x9308, .rkey = 0x95,
				 .compare_add = 0x3333 } },
		{ .wr_id = 8, .opcode = IBV_WR_SEND, .sg_list = inline_sges,
		  .num_sge = 2,
		  .send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED },
	};
	struct ibv_send_wr *bad_wr = NULL;
	uint32_t posted = 0;

	for (int i = 0; i < RC_REQUESTS - 1; i++)
		wr[i].next = &wr[i + 1];
	CHECK_EQ(mrc_sq_post(&t->sq, wr, &bad_wr, &posted), 0);
	CHECK_EQ(posted, RC_REQUESTS);
}

static void rc_wr_api(struct test_qp *t)
{
	struct ibv_qp_ex *qpx = &t->qpx;
	struct ibv_data_buf bufs[2] = {
		{ .addr = inline_a, .length = 5 },
		{ .addr = inline_b, .length = 10 },
	};

	ibv_wr_start(qpx);
	qpx->wr_id = 1;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qpx);
	ibv_wr_set_sge_list(qpx, 2, two_sges);
	qpx->wr_id = 2;
	qpx->wr_flags = IBV_SEND_SOLICITED;
	ibv_wr_send_imm(qpx, htonl(0x01020304));
	ibv_wr_set_sge(qpx, 0x11, 0x1000, 100);
	qpx->wr_id = 3;
	qpx->wr_flags = IBV_SEND_FENCE;
	ibv_wr_rdma_write(qpx, 0x99, 0x9000);
	ibv_wr_set_sge_list(qpx, 2, two_sges);
	qpx->wr_id = 4;
	qpx->wr_flags = 0;
	/* No data setter: a zero-length WRITE with immediate. */
	ibv_wr_rdma_write_imm(qpx, 0x98, 0x9100, htonl(7));
	qpx->wr_id = 5;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_rdma_read(qpx, 0x97, 0x9200);
	ibv_wr_set_sge(qpx, 0x11, 0x1000, 100);
	qpx->wr_id = 6;
	qpx->wr_flags = 0;
	ibv_wr_atomic_cmp_swp(qpx, 0x96, 0x9300, 0x1111, 0x2222);
	ibv_wr_set_sge(qpx, 0x33, 0x3000, 8);
	qpx->wr_id = 7;
	ibv_wr_atomic_fetch_add(qpx, 0x95, 0x9308, 0x3333);
	ibv_wr_set_sge_list(qpx, 1, &atomic_sge);
	qpx->wr_id = 8;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(qpx);
	ibv_wr_set_inline_data_list(qpx, 2, bufs);
	/* Nothing is published before complete. */
	CHECK_EQ(fake_producer(&t->fake), 0);
	CHECK_EQ(ibv_wr_complete(qpx), 0);
	CHECK_EQ(last_posted, RC_REQUESTS);
}

/* Two rings poisoned alike must hold the same bytes, slot for slot. */
static void check_same_slots(struct test_qp *a, struct test_qp *b,
			     uint32_t count)
{
	CHECK_EQ(fake_producer(&a->fake), count);
	CHECK_EQ(fake_producer(&b->fake), count);
	for (uint32_t i = 0; i < count; i++) {
		printf("# slot %u\n", i);
		CHECK(!memcmp(slot_of(a, i), slot_of(b, i), SQ_SLOT_SIZE));
	}
}

static void wr_and_post_send_write_identical_rc_wqes(void)
{
	struct test_qp post, wr;

	test_qp_init(&post, IBV_QPT_RC, SQ_SLOTS, ALL_OPS);
	test_qp_init(&wr, IBV_QPT_RC, SQ_SLOTS, ALL_OPS);
	rc_post_send(&post);
	rc_wr_api(&wr);
	check_same_slots(&post, &wr, RC_REQUESTS);
	/* And they are what the requests said (the inline one, say). */
	CHECK_EQ(slot_of(&wr, 7)->send_flags,
		 IBV_SEND_INLINE | IBV_SEND_SIGNALED);
	CHECK_EQ(slot_of(&wr, 7)->inline_len, 15);
	CHECK(!memcmp(slot_of(&wr, 7)->sge, "soft-MRC inline", 15));
	CHECK_EQ(slot_of(&wr, 5)->swap, 0x2222);
	fake_ring_destroy(&post.fake);
	fake_ring_destroy(&wr.fake);
}

/* BIND_MW, LOCAL_INV and SEND_WITH_INV, both ways. */
static void wr_and_post_send_write_identical_mw_wqes(void)
{
	struct ibv_mr mr = { .lkey = 0x4321 };
	struct ibv_mw mw = { .rkey = 0x80000a10, .type = IBV_MW_TYPE_2 };
	const struct ibv_mw_bind_info info = {
		.mr = &mr, .addr = 0x9000, .length = 0x2000,
		.mw_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};
	struct ibv_send_wr wr[3] = {
		{ .wr_id = 1, .opcode = IBV_WR_BIND_MW,
		  .send_flags = IBV_SEND_SIGNALED },
		{ .wr_id = 2, .opcode = IBV_WR_LOCAL_INV,
		  .invalidate_rkey = 0x80000a11 },
		{ .wr_id = 3, .opcode = IBV_WR_SEND_WITH_INV,
		  .sg_list = two_sges, .num_sge = 2,
		  .invalidate_rkey = 0x1201 },
	};
	struct ibv_send_wr *bad_wr;
	struct test_qp post, api;
	uint32_t posted;

	wr[0].bind_mw.mw = &mw;
	wr[0].bind_mw.rkey = 0x80000a11;
	wr[0].bind_mw.bind_info = info;
	wr[0].next = &wr[1];
	wr[1].next = &wr[2];
	test_qp_init(&post, IBV_QPT_RC, SQ_SLOTS, 0);
	test_qp_init(&api, IBV_QPT_RC, SQ_SLOTS, ALL_OPS);
	CHECK_EQ(mrc_sq_post(&post.sq, wr, &bad_wr, &posted), 0);
	CHECK_EQ(posted, 3);

	ibv_wr_start(&api.qpx);
	api.qpx.wr_id = 1;
	api.qpx.wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_bind_mw(&api.qpx, &mw, 0x80000a11, &info);
	api.qpx.wr_id = 2;
	api.qpx.wr_flags = 0;
	ibv_wr_local_inv(&api.qpx, 0x80000a11);
	api.qpx.wr_id = 3;
	ibv_wr_send_inv(&api.qpx, 0x1201);
	ibv_wr_set_sge_list(&api.qpx, 2, two_sges);
	CHECK_EQ(ibv_wr_complete(&api.qpx), 0);

	check_same_slots(&post, &api, 3);
	CHECK_EQ(slot_of(&api, 0)->bind_lkey, 0x4321);
	CHECK_EQ(slot_of(&api, 0)->bind_length, 0x2000);
	CHECK_EQ(slot_of(&api, 1)->rkey, 0x80000a11);
	CHECK_EQ(slot_of(&api, 2)->rkey, 0x1201);
	fake_ring_destroy(&post.fake);
	fake_ring_destroy(&api.fake);
}

static void wr_and_post_send_write_identical_ud_wqes(void)
{
	struct mrc_ah ah = { .kernel_handle = 0xabcdef };
	struct ibv_send_wr wr = {
		.wr_id = 42, .opcode = IBV_WR_SEND_WITH_IMM,
		.sg_list = two_sges, .num_sge = 1,
		.imm_data = htonl(0x1234), .send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { .ah = &ah.ibv_ah, .remote_qpn = 0x123456,
			   .remote_qkey = 0x80010000 },
	};
	struct ibv_send_wr *bad_wr;
	struct test_qp post, api;
	uint32_t posted;

	test_qp_init(&post, IBV_QPT_UD, SQ_SLOTS, 0);
	test_qp_init(&api, IBV_QPT_UD, SQ_SLOTS,
		     IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM);
	CHECK_EQ(mrc_sq_post(&post.sq, &wr, &bad_wr, &posted), 0);

	ibv_wr_start(&api.qpx);
	api.qpx.wr_id = 42;
	api.qpx.wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send_imm(&api.qpx, htonl(0x1234));
	ibv_wr_set_ud_addr(&api.qpx, &ah.ibv_ah, 0x123456, 0x80010000);
	ibv_wr_set_sge(&api.qpx, 0x11, 0x1000, 100);
	CHECK_EQ(ibv_wr_complete(&api.qpx), 0);

	check_same_slots(&post, &api, 1);
	CHECK_EQ(slot_of(&api, 0)->ah_handle, 0xabcdef);
	CHECK_EQ(slot_of(&api, 0)->remote_qpn, 0x123456);
	fake_ring_destroy(&post.fake);
	fake_ring_destroy(&api.fake);
}

/* A batch with a bad request in the middle posts none of it. */
static void wr_first_error_fails_the_whole_batch(void)
{
	struct ibv_sge sges[SQ_MAX_SGE + 1];
	struct test_qp t;

	for (int i = 0; i <= SQ_MAX_SGE; i++)
		sges[i] = atomic_sge;
	test_qp_init(&t, IBV_QPT_RC, SQ_SLOTS, ALL_OPS);

	ibv_wr_start(&t.qpx);
	ibv_wr_send(&t.qpx);
	ibv_wr_set_sge(&t.qpx, 1, 0x1000, 10);
	ibv_wr_send(&t.qpx);
	ibv_wr_set_sge_list(&t.qpx, SQ_MAX_SGE + 1, sges);	/* EINVAL */
	ibv_wr_send(&t.qpx);
	ibv_wr_set_inline_data(&t.qpx, big, SQ_MAX_INLINE + 1);
	CHECK_EQ(ibv_wr_complete(&t.qpx), EINVAL);
	CHECK_EQ(last_posted, 0);
	CHECK_EQ(fake_producer(&t.fake), 0);
	CHECK_EQ(t.sq.ring.index, 0);

	/* The next batch starts in slot 0 and is whole. */
	ibv_wr_start(&t.qpx);
	t.qpx.wr_id = 77;
	ibv_wr_send(&t.qpx);
	ibv_wr_set_sge_list(&t.qpx, SQ_MAX_SGE, sges);
	CHECK_EQ(ibv_wr_complete(&t.qpx), 0);
	CHECK_EQ(fake_producer(&t.fake), 1);
	CHECK_EQ(slot_of(&t, 0)->wr_id, 77);
	CHECK_EQ(slot_of(&t, 0)->num_sge, SQ_MAX_SGE);
	fake_ring_destroy(&t.fake);
}

/* Runs one single-request batch and returns what complete said. */
typedef void (*build_fn)(struct ibv_qp_ex *qpx);

static int one_batch(struct test_qp *t, build_fn build)
{
	ibv_wr_start(&t->qpx);
	build(&t->qpx);
	return ibv_wr_complete(&t->qpx);
}

static void inline_on_read(struct ibv_qp_ex *qpx)
{
	ibv_wr_rdma_read(qpx, 1, 0x1000);
	ibv_wr_set_inline_data(qpx, inline_a, 5);
}

static void inline_on_atomic(struct ibv_qp_ex *qpx)
{
	ibv_wr_atomic_fetch_add(qpx, 1, 0x1000, 1);
	ibv_wr_set_inline_data(qpx, big, 8);
}

static void inline_too_long(struct ibv_qp_ex *qpx)
{
	struct ibv_data_buf bufs[2] = {
		{ .addr = big, .length = SQ_MAX_INLINE },
		{ .addr = big, .length = 1 },
	};

	ibv_wr_rdma_write(qpx, 1, 0x1000);
	ibv_wr_set_inline_data_list(qpx, 2, bufs);
}

static void inline_just_fits(struct ibv_qp_ex *qpx)
{
	ibv_wr_rdma_write(qpx, 1, 0x1000);
	ibv_wr_set_inline_data(qpx, big, SQ_MAX_INLINE);
}

static void atomic_short(struct ibv_qp_ex *qpx)
{
	ibv_wr_atomic_cmp_swp(qpx, 1, 0x1000, 1, 2);
	ibv_wr_set_sge(qpx, 1, 0x3000, 4);
}

static void atomic_unaligned(struct ibv_qp_ex *qpx)
{
	ibv_wr_atomic_cmp_swp(qpx, 1, 0x1004, 1, 2);
	ibv_wr_set_sge(qpx, 1, 0x3000, 8);
}

static void setter_without_builder(struct ibv_qp_ex *qpx)
{
	ibv_wr_set_sge(qpx, 1, 0x3000, 8);
}

static void ud_addr_on_rc(struct ibv_qp_ex *qpx)
{
	struct mrc_ah ah = { .kernel_handle = 1 };

	ibv_wr_send(qpx);
	ibv_wr_set_ud_addr(qpx, &ah.ibv_ah, 1, 1);
}

static void bind_no_mw(struct ibv_qp_ex *qpx)
{
	ibv_wr_bind_mw(qpx, NULL, 1, NULL);
}

static struct ibv_mr test_mr = { .lkey = 0x99 };
static struct ibv_mw test_mw = { .rkey = 0x80000100, .type = IBV_MW_TYPE_2 };

static void bind_with_sge(struct ibv_qp_ex *qpx)
{
	const struct ibv_mw_bind_info info = { .mr = &test_mr, .length = 8 };

	ibv_wr_bind_mw(qpx, &test_mw, 0x80000101, &info);
	ibv_wr_set_sge(qpx, 1, 0x1000, 8);
}

static void bind_other_window(struct ibv_qp_ex *qpx)
{
	const struct ibv_mw_bind_info info = { .mr = &test_mr, .length = 8 };

	ibv_wr_bind_mw(qpx, &test_mw, 0x80000201, &info);
}

static void ip_csum(struct ibv_qp_ex *qpx)
{
	qpx->wr_flags = IBV_SEND_IP_CSUM;
	ibv_wr_send(qpx);
	qpx->wr_flags = 0;
}

static void plain_send(struct ibv_qp_ex *qpx)
{
	ibv_wr_send(qpx);
	ibv_wr_set_sge(qpx, 1, 0x1000, 1);
}

static void plain_write(struct ibv_qp_ex *qpx)
{
	ibv_wr_rdma_write(qpx, 1, 0x1000);
	ibv_wr_set_sge(qpx, 1, 0x1000, 1);
}

static void wr_refuses_what_the_qp_cannot_carry(void)
{
	static const struct {
		const char *name;
		build_fn build;
		int err;
	} cases[] = {
		{ "inline on READ", inline_on_read, EINVAL },
		{ "inline on an atomic", inline_on_atomic, EINVAL },
		{ "inline beyond max_inline_data", inline_too_long, EINVAL },
		{ "inline of max_inline_data", inline_just_fits, 0 },
		{ "atomic on 4 bytes", atomic_short, EINVAL },
		{ "atomic unaligned", atomic_unaligned, EINVAL },
		{ "setter without builder", setter_without_builder, EINVAL },
		{ "UD address on RC", ud_addr_on_rc, EINVAL },
		{ "IP_CSUM flag", ip_csum, EINVAL },
		{ "bind MW without a window", bind_no_mw, EINVAL },
		{ "bind MW with an SGE", bind_with_sge, EINVAL },
		{ "bind MW with another window's key", bind_other_window,
		  EINVAL },
	};
	struct test_qp t;

	test_qp_init(&t, IBV_QPT_RC, SQ_SLOTS, ALL_OPS);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		printf("# %s\n", cases[i].name);
		CHECK_EQ(one_batch(&t, cases[i].build), cases[i].err);
	}
	/* Only the inline WRITE of max_inline_data bytes went out. */
	CHECK_EQ(fake_producer(&t.fake), 1);
	CHECK_EQ(slot_of(&t, 0)->inline_len, SQ_MAX_INLINE);
	fake_ring_destroy(&t.fake);

	/* An operation the QP was not created for. */
	test_qp_init(&t, IBV_QPT_RC, SQ_SLOTS, IBV_QP_EX_WITH_SEND);
	CHECK_EQ(one_batch(&t, plain_write), EINVAL);
	CHECK_EQ(one_batch(&t, plain_send), 0);
	fake_ring_destroy(&t.fake);

	/* UC: a WRITE goes, a READ does not (nothing answers it). */
	test_qp_init(&t, IBV_QPT_UC, SQ_SLOTS, ALL_OPS);
	CHECK_EQ(one_batch(&t, plain_write), 0);
	CHECK_EQ(one_batch(&t, plain_send), 0);
	CHECK_EQ(fake_producer(&t.fake), 2);
	fake_ring_destroy(&t.fake);

	/* UD: a datagram needs its address; RDMA is not for datagrams. */
	test_qp_init(&t, IBV_QPT_UD, SQ_SLOTS, ALL_OPS);
	CHECK_EQ(one_batch(&t, plain_send), EINVAL);
	CHECK_EQ(one_batch(&t, plain_write), EINVAL);
	CHECK_EQ(fake_producer(&t.fake), 0);
	fake_ring_destroy(&t.fake);
}

/* max_wr counts the batch's own WQEs; a full ring fails all of it. */
static void wr_full_ring_is_enomem_and_posts_nothing(void)
{
	struct test_qp t;

	test_qp_init(&t, IBV_QPT_RC, 3, ALL_OPS);
	CHECK_EQ(one_batch(&t, plain_send), 0);
	ibv_wr_start(&t.qpx);
	plain_send(&t.qpx);
	plain_send(&t.qpx);
	plain_send(&t.qpx);	/* the fourth outstanding: ENOMEM */
	CHECK_EQ(ibv_wr_complete(&t.qpx), ENOMEM);
	CHECK_EQ(fake_producer(&t.fake), 1);
	CHECK_EQ(t.sq.ring.index, 1);

	/* The kernel finishes the first: now three fit. */
	fake_set_consumer(&t.fake, 1);
	ibv_wr_start(&t.qpx);
	plain_send(&t.qpx);
	plain_send(&t.qpx);
	plain_send(&t.qpx);
	CHECK_EQ(ibv_wr_complete(&t.qpx), 0);
	CHECK_EQ(last_posted, 3);
	CHECK_EQ(fake_producer(&t.fake), 4);
	fake_ring_destroy(&t.fake);
}

static void wr_abort_discards_the_batch(void)
{
	struct test_qp t;

	test_qp_init(&t, IBV_QPT_RC, SQ_SLOTS, ALL_OPS);
	ibv_wr_start(&t.qpx);
	plain_send(&t.qpx);
	plain_write(&t.qpx);
	ibv_wr_abort(&t.qpx);
	CHECK_EQ(fake_producer(&t.fake), 0);
	CHECK_EQ(t.sq.ring.index, 0);

	/* An abort after an error leaves no error behind. */
	ibv_wr_start(&t.qpx);
	setter_without_builder(&t.qpx);
	ibv_wr_abort(&t.qpx);
	t.qpx.wr_id = 5;
	CHECK_EQ(one_batch(&t, plain_send), 0);
	CHECK_EQ(fake_producer(&t.fake), 1);
	CHECK_EQ(slot_of(&t, 0)->wr_id, 5);

	/* An empty batch posts nothing and is no error. */
	ibv_wr_start(&t.qpx);
	CHECK_EQ(ibv_wr_complete(&t.qpx), 0);
	CHECK_EQ(last_posted, 0);
	fake_ring_destroy(&t.fake);
}

static void wr_create_refuses_operations_mrc_lacks(void)
{
	static const uint64_t lacked[] = {
		IBV_QP_EX_WITH_TSO,
		IBV_QP_EX_WITH_ATOMIC_WRITE, 1ull << 13, 1ull << 63,
	};

	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_RC, ALL_OPS), 0);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_RC, 0), 0);
	for (size_t i = 0; i < sizeof(lacked) / sizeof(lacked[0]); i++) {
		CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_RC,
					       IBV_QP_EX_WITH_SEND | lacked[i]),
			 EOPNOTSUPP);
		CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UD, lacked[i]),
			 EOPNOTSUPP);
	}
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UD, IBV_QP_EX_WITH_SEND |
				       IBV_QP_EX_WITH_SEND_WITH_IMM), 0);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UD, IBV_QP_EX_WITH_RDMA_WRITE),
		 EINVAL);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UD, IBV_QP_EX_WITH_BIND_MW),
		 EINVAL);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UD, IBV_QP_EX_WITH_LOCAL_INV),
		 EINVAL);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UD,
				       IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD),
		 EINVAL);
	/* UC: SENDs and WRITEs; READ and atomics need an answer. */
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UC, IBV_QP_EX_WITH_SEND |
				       IBV_QP_EX_WITH_SEND_WITH_IMM |
				       IBV_QP_EX_WITH_RDMA_WRITE |
				       IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM), 0);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UC, IBV_QP_EX_WITH_RDMA_READ),
		 EINVAL);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UC,
				       IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP),
		 EINVAL);
	CHECK_EQ(mrc_wr_check_send_ops(IBV_QPT_UC, IBV_QP_EX_WITH_TSO),
		 EOPNOTSUPP);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(wr_and_post_send_write_identical_rc_wqes),
	KTAP_CASE(wr_and_post_send_write_identical_mw_wqes),
	KTAP_CASE(wr_and_post_send_write_identical_ud_wqes),
	KTAP_CASE(wr_first_error_fails_the_whole_batch),
	KTAP_CASE(wr_refuses_what_the_qp_cannot_carry),
	KTAP_CASE(wr_full_ring_is_enomem_and_posts_nothing),
	KTAP_CASE(wr_abort_discards_the_batch),
	KTAP_CASE(wr_create_refuses_operations_mrc_lacks),
};

KTAP_MAIN("mrc_provider_wr_api", cases)
