// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of posting work requests into send and receive rings
 * (mrc_sq_post(), mrc_rq_post()): every slot field for every opcode, inline
 * data, the limits with *bad_wr, and index wrap-around at 2^32. The test
 * plays the kernel on a ring in ordinary memory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#include "fake_ring.h"
#include "ktap.h"
#include "mrc_fastpath.h"

#define SQ_SLOTS	8
#define SQ_MAX_SGE	4
#define SQ_MAX_INLINE	64
#define SQ_SLOT_SIZE	128	/* 64-byte header + 4 SGEs or 64 bytes */

struct fake_sq {
	struct fake_ring fake;
	struct mrc_sq sq;
};

static void fake_sq_init(struct fake_sq *t, uint32_t max_wr,
			 uint32_t start_index)
{
	fake_ring_init(&t->fake, SQ_SLOTS, SQ_SLOT_SIZE, start_index,
		       MRC_URING_PRODUCER);
	t->sq = (struct mrc_sq){
		.ring = t->fake.ring,
		.qp_type = IBV_QPT_RC,
		.max_wr = max_wr,
		.max_sge = SQ_MAX_SGE,
		.max_inline_data = SQ_MAX_INLINE,
	};
}

static struct mrc_send_wqe *sq_slot(struct fake_sq *t, uint32_t index)
{
	return fake_slot(&t->fake, index);
}

/* Posts one request; returns its error and checks *bad_wr and *posted. */
static int post_one(struct fake_sq *t, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad_wr = NULL;
	uint32_t posted = 99;
	int err;

	wr->next = NULL;
	err = mrc_sq_post(&t->sq, wr, &bad_wr, &posted);
	CHECK(bad_wr == (err ? wr : NULL));
	CHECK_EQ(posted, err ? 0 : 1);
	return err;
}

static void check_reserved_zero(const struct mrc_send_wqe *wqe)
{
	/* RC slots leave the UD destination words zero. */
	CHECK_EQ(wqe->ah_handle, 0);
	CHECK_EQ(wqe->remote_qpn, 0);
}

static void sq_send_fills_every_field(void)
{
	struct ibv_sge sges[2] = {
		{ .addr = 0x1000, .length = 100, .lkey = 0x11 },
		{ .addr = 0x2000, .length = 200, .lkey = 0x22 },
	};
	struct ibv_send_wr wr = {
		.wr_id = 0xfeedfacecafebeefull,
		.sg_list = sges,
		.num_sge = 2,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |
			      IBV_SEND_FENCE,
		/* Must not leak into a SEND without immediate. */
		.imm_data = htonl(0xdeadbeef),
	};
	struct mrc_send_wqe *wqe;
	struct fake_sq t;

	fake_sq_init(&t, SQ_SLOTS, 0);
	CHECK_EQ(post_one(&t, &wr), 0);
	CHECK_EQ(fake_producer(&t.fake), 1);
	CHECK_EQ(t.sq.ring.index, 1);

	wqe = sq_slot(&t, 0);
	CHECK_EQ(wqe->wr_id, 0xfeedfacecafebeefull);
	CHECK_EQ(wqe->opcode, IB_UVERBS_WR_SEND);
	CHECK_EQ(wqe->send_flags, IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |
				  IBV_SEND_FENCE);
	CHECK_EQ(wqe->imm_data, 0);
	CHECK_EQ(wqe->num_sge, 2);
	CHECK_EQ(wqe->inline_len, 0);
	CHECK_EQ(wqe->rkey, 0);
	CHECK_EQ(wqe->remote_addr, 0);
	CHECK_EQ(wqe->compare_add, 0);
	CHECK_EQ(wqe->swap, 0);
	check_reserved_zero(wqe);
	CHECK_EQ(wqe->sge[0].addr, 0x1000);
	CHECK_EQ(wqe->sge[0].length, 100);
	CHECK_EQ(wqe->sge[0].lkey, 0x11);
	CHECK_EQ(wqe->sge[1].addr, 0x2000);
	CHECK_EQ(wqe->sge[1].length, 200);
	CHECK_EQ(wqe->sge[1].lkey, 0x22);
	fake_ring_destroy(&t.fake);
}

/* One row per opcode: what the WR says and what the slot must say. */
struct opcode_case {
	enum ibv_wr_opcode opcode;
	uint32_t uverbs_opcode;
	bool has_imm;
	bool has_remote;
	bool atomic;
};

static const struct opcode_case opcode_cases[] = {
	{ IBV_WR_RDMA_WRITE, IB_UVERBS_WR_RDMA_WRITE, false, true, false },
	{ IBV_WR_RDMA_WRITE_WITH_IMM, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
	  true, true, false },
	{ IBV_WR_SEND, IB_UVERBS_WR_SEND, false, false, false },
	{ IBV_WR_SEND_WITH_IMM, IB_UVERBS_WR_SEND_WITH_IMM,
	  true, false, false },
	{ IBV_WR_RDMA_READ, IB_UVERBS_WR_RDMA_READ, false, true, false },
	{ IBV_WR_ATOMIC_CMP_AND_SWP, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
	  false, true, true },
	{ IBV_WR_ATOMIC_FETCH_AND_ADD, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
	  false, true, true },
};

static void sq_every_rc_opcode_fills_its_fields(void)
{
	unsigned int n = sizeof(opcode_cases) / sizeof(opcode_cases[0]);
	struct ibv_sge sge = { .addr = 0x7000, .length = 8, .lkey = 0x77 };
	struct fake_sq t;

	fake_sq_init(&t, SQ_SLOTS, 0);
	for (unsigned int i = 0; i < n; i++) {
		const struct opcode_case *c = &opcode_cases[i];
		struct ibv_send_wr wr = {
			.wr_id = 100 + i,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = c->opcode,
			.send_flags = IBV_SEND_SIGNALED,
			.imm_data = htonl(0x01020304 + i),
		};
		struct mrc_send_wqe *wqe = sq_slot(&t, i);

		if (c->atomic) {
			wr.wr.atomic.remote_addr = 0x123456789abcdef0ull;
			wr.wr.atomic.rkey = 0xabc0 + i;
			wr.wr.atomic.compare_add = 0x1111222233334444ull;
			wr.wr.atomic.swap = 0x5555666677778888ull;
		} else if (c->has_remote) {
			wr.wr.rdma.remote_addr = 0x0badc0de00000000ull + i;
			wr.wr.rdma.rkey = 0xabc0 + i;
		}

		printf("# opcode %d\n", c->opcode);
		CHECK_EQ(post_one(&t, &wr), 0);
		CHECK_EQ(fake_producer(&t.fake), i + 1);
		CHECK_EQ(wqe->wr_id, 100 + i);
		CHECK_EQ(wqe->opcode, c->uverbs_opcode);
		CHECK_EQ(wqe->send_flags, IBV_SEND_SIGNALED);
		/* Immediate data stays in network byte order. */
		CHECK_EQ(wqe->imm_data, c->has_imm ? htonl(0x01020304 + i) : 0);
		CHECK_EQ(wqe->num_sge, 1);
		CHECK_EQ(wqe->inline_len, 0);
		CHECK_EQ(wqe->sge[0].addr, 0x7000);
		CHECK_EQ(wqe->sge[0].length, 8);
		CHECK_EQ(wqe->sge[0].lkey, 0x77);
		check_reserved_zero(wqe);
		if (c->atomic) {
			CHECK_EQ(wqe->remote_addr, 0x123456789abcdef0ull);
			CHECK_EQ(wqe->rkey, 0xabc0 + i);
			CHECK_EQ(wqe->compare_add, 0x1111222233334444ull);
			/* FETCH_AND_ADD has no swap operand. */
			CHECK_EQ(wqe->swap,
				 c->opcode == IBV_WR_ATOMIC_CMP_AND_SWP ?
				 0x5555666677778888ull : 0);
		} else if (c->has_remote) {
			CHECK_EQ(wqe->remote_addr, 0x0badc0de00000000ull + i);
			CHECK_EQ(wqe->rkey, 0xabc0 + i);
			CHECK_EQ(wqe->compare_add, 0);
			CHECK_EQ(wqe->swap, 0);
		} else {
			CHECK_EQ(wqe->remote_addr, 0);
			CHECK_EQ(wqe->rkey, 0);
			CHECK_EQ(wqe->compare_add, 0);
			CHECK_EQ(wqe->swap, 0);
		}
	}
	fake_ring_destroy(&t.fake);
}

static void sq_inline_copies_the_data(void)
{
	char first[] = "inline ", second[] = "", third[] = "data!";
	struct ibv_sge sges[3] = {
		{ .addr = (uintptr_t)first, .length = 7, .lkey = 1 },
		{ .addr = 0, .length = 0, .lkey = 2 },	/* empty: skipped */
		{ .addr = (uintptr_t)third, .length = 5, .lkey = 3 },
	};
	struct ibv_send_wr wr = {
		.wr_id = 5,
		.sg_list = sges,
		.num_sge = 3,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED,
		.imm_data = htonl(42),
		.wr.rdma = { .remote_addr = 0x9000, .rkey = 9 },
	};
	struct mrc_send_wqe *wqe;
	struct fake_sq t;

	(void)second;
	fake_sq_init(&t, SQ_SLOTS, 0);
	CHECK_EQ(post_one(&t, &wr), 0);
	wqe = sq_slot(&t, 0);
	CHECK_EQ(wqe->opcode, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM);
	CHECK_EQ(wqe->send_flags, IBV_SEND_INLINE | IBV_SEND_SIGNALED);
	CHECK_EQ(wqe->num_sge, 0);
	CHECK_EQ(wqe->inline_len, 12);
	CHECK_EQ(wqe->remote_addr, 0x9000);
	CHECK_EQ(wqe->rkey, 9);
	CHECK_EQ(wqe->imm_data, htonl(42));
	CHECK(!memcmp(wqe->sge, "inline data!", 12));
	/* Nothing past the data is touched: the poison is still there. */
	CHECK_EQ(((unsigned char *)wqe->sge)[12], 0xa5);
	fake_ring_destroy(&t.fake);
}

static void sq_inline_up_to_max_inline_data(void)
{
	unsigned char data[SQ_MAX_INLINE + 1];
	struct ibv_sge sge = { .addr = (uintptr_t)data, .lkey = 1 };
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_INLINE,
	};
	struct fake_sq t;

	for (unsigned int i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)i;
	fake_sq_init(&t, SQ_SLOTS, 0);

	/* Exactly max_inline_data fills the slot to its last byte. */
	sge.length = SQ_MAX_INLINE;
	CHECK_EQ(post_one(&t, &wr), 0);
	CHECK_EQ(sq_slot(&t, 0)->inline_len, SQ_MAX_INLINE);
	CHECK(!memcmp(sq_slot(&t, 0)->sge, data, SQ_MAX_INLINE));

	sge.length = SQ_MAX_INLINE + 1;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	CHECK_EQ(fake_producer(&t.fake), 1);

	/* The sum counts, not each SGE. */
	{
		struct ibv_sge two[2] = {
			{ .addr = (uintptr_t)data, .length = 40 },
			{ .addr = (uintptr_t)data, .length = 40 },
		};

		wr.sg_list = two;
		wr.num_sge = 2;
		CHECK_EQ(post_one(&t, &wr), EINVAL);
	}
	CHECK_EQ(fake_producer(&t.fake), 1);
	fake_ring_destroy(&t.fake);
}

static void sq_refuses_invalid_requests(void)
{
	static const enum ibv_wr_opcode unsupported[] = {
		IBV_WR_TSO, IBV_WR_DRIVER1, IBV_WR_ATOMIC_WRITE,
		(enum ibv_wr_opcode)99,
	};
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_sge sges[SQ_MAX_SGE + 1];
	struct ibv_send_wr wr;
	struct fake_sq t;

	fake_sq_init(&t, SQ_SLOTS, 0);

	for (unsigned int i = 0;
	     i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
		wr = (struct ibv_send_wr){ .sg_list = &sge, .num_sge = 1,
					   .opcode = unsupported[i] };
		CHECK_EQ(post_one(&t, &wr), EINVAL);
	}

	/* Unknown and unsupported flags (IP_CSUM is for raw Ethernet). */
	wr = (struct ibv_send_wr){ .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_IP_CSUM };
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.send_flags = 1u << 20;
	CHECK_EQ(post_one(&t, &wr), EINVAL);

	/* Too many SGEs, negative, or SGEs without a list. */
	for (unsigned int i = 0; i <= SQ_MAX_SGE; i++)
		sges[i] = sge;
	wr = (struct ibv_send_wr){ .sg_list = sges, .num_sge = SQ_MAX_SGE + 1,
				   .opcode = IBV_WR_SEND };
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.num_sge = SQ_MAX_SGE;
	CHECK_EQ(post_one(&t, &wr), 0);
	wr.num_sge = -1;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.num_sge = 1;
	wr.sg_list = NULL;
	CHECK_EQ(post_one(&t, &wr), EINVAL);

	/* Inline only for requests that send their SGEs' bytes. */
	wr = (struct ibv_send_wr){ .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_READ,
				   .send_flags = IBV_SEND_INLINE };
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
	CHECK_EQ(post_one(&t, &wr), EINVAL);

	/* Atomics: exactly 8 local bytes, 8-byte aligned remote address. */
	wr = (struct ibv_send_wr){ .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_ATOMIC_CMP_AND_SWP };
	wr.wr.atomic.remote_addr = 0x1004;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.wr.atomic.remote_addr = 0x1008;
	sge.length = 4;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	sge.length = 16;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.num_sge = 0;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	sge.length = 8;
	wr.num_sge = 1;
	CHECK_EQ(post_one(&t, &wr), 0);

	/* Only the one SEND with SQ_MAX_SGE and the one atomic were posted. */
	CHECK_EQ(fake_producer(&t.fake), 2);
	fake_ring_destroy(&t.fake);
}

/*
 * UC takes SENDs and WRITEs but no READ nor atomics (nothing comes back);
 * UD takes SENDs that name an AH, nothing else.
 */
static void sq_refuses_opcodes_of_other_qp_types(void)
{
	static const enum ibv_wr_opcode not_ud[] = {
		IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_READ,
		IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD,
		IBV_WR_SEND_WITH_INV, IBV_WR_LOCAL_INV, IBV_WR_BIND_MW,
	};
	static const enum ibv_wr_opcode not_uc[] = {
		IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP,
		IBV_WR_ATOMIC_FETCH_AND_ADD, IBV_WR_SEND_WITH_INV,
	};
	static const enum ibv_wr_opcode uc_ok[] = {
		IBV_WR_SEND, IBV_WR_SEND_WITH_IMM, IBV_WR_RDMA_WRITE,
		IBV_WR_RDMA_WRITE_WITH_IMM,
	};
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND };
	struct mrc_ah ah = { .kernel_handle = 7 };
	struct fake_sq t;
	size_t i;

	fake_sq_init(&t, SQ_SLOTS, 0);
	t.sq.qp_type = IBV_QPT_UC;
	for (i = 0; i < sizeof(not_uc) / sizeof(not_uc[0]); i++) {
		wr.opcode = not_uc[i];
		CHECK_EQ(post_one(&t, &wr), EINVAL);
	}
	CHECK_EQ(fake_producer(&t.fake), 0);
	for (i = 0; i < sizeof(uc_ok) / sizeof(uc_ok[0]); i++) {
		wr.opcode = uc_ok[i];
		CHECK_EQ(post_one(&t, &wr), 0);
		CHECK_EQ(sq_slot(&t, i)->opcode, (uint32_t)uc_ok[i]);
	}
	CHECK_EQ(fake_producer(&t.fake), 4);
	fake_ring_destroy(&t.fake);

	fake_sq_init(&t, SQ_SLOTS, 0);
	wr.opcode = IBV_WR_SEND;
	t.sq.qp_type = IBV_QPT_UD;
	/* A datagram without an address handle goes nowhere. */
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.wr.ud.ah = &ah.ibv_ah;
	for (i = 0; i < sizeof(not_ud) / sizeof(not_ud[0]); i++) {
		wr.opcode = not_ud[i];
		CHECK_EQ(post_one(&t, &wr), EINVAL);
	}
	CHECK_EQ(fake_producer(&t.fake), 0);
	fake_ring_destroy(&t.fake);
}

/*
 * The invalidations carry their rkey in rkey; a bind carries its window's
 * new key, range, rights and MR in the fields abi.rst names, and no data.
 */
static void sq_mw_and_invalidations_fill_their_fields(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 16, .lkey = 0x44 };
	struct ibv_mr mr = { .lkey = 0x1234 };
	struct ibv_mw mw = { .rkey = 0x80000507, .type = IBV_MW_TYPE_2 };
	struct ibv_send_wr wr = {
		.wr_id = 1, .opcode = IBV_WR_LOCAL_INV,
		.invalidate_rkey = 0xabcd01,
	};
	struct mrc_send_wqe *wqe;
	struct fake_sq t;

	fake_sq_init(&t, SQ_SLOTS, 0);
	CHECK_EQ(post_one(&t, &wr), 0);
	wqe = sq_slot(&t, 0);
	CHECK_EQ(wqe->opcode, IB_UVERBS_WR_LOCAL_INV);
	CHECK_EQ(wqe->rkey, 0xabcd01);
	CHECK_EQ(wqe->num_sge, 0);

	wr = (struct ibv_send_wr){
		.wr_id = 2, .opcode = IBV_WR_SEND_WITH_INV,
		.sg_list = &sge, .num_sge = 1, .invalidate_rkey = 0x77,
	};
	CHECK_EQ(post_one(&t, &wr), 0);
	wqe = sq_slot(&t, 1);
	CHECK_EQ(wqe->opcode, IB_UVERBS_WR_SEND_WITH_INV);
	CHECK_EQ(wqe->rkey, 0x77);
	CHECK_EQ(wqe->imm_data, 0);
	CHECK_EQ(wqe->num_sge, 1);
	CHECK_EQ(wqe->sge[0].lkey, 0x44);

	wr = (struct ibv_send_wr){
		.wr_id = 3, .opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_SIGNALED,
	};
	wr.bind_mw.mw = &mw;
	wr.bind_mw.rkey = 0x80000508;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){
		.mr = &mr, .addr = 0x5000, .length = 0x123456789ull,
		.mw_access_flags = IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_WRITE,
	};
	CHECK_EQ(post_one(&t, &wr), 0);
	wqe = sq_slot(&t, 2);
	CHECK_EQ(wqe->opcode, IB_UVERBS_WR_BIND_MW);
	CHECK_EQ(wqe->send_flags, IBV_SEND_SIGNALED);
	CHECK_EQ(wqe->rkey, 0x80000508);
	CHECK_EQ(wqe->remote_addr, 0x5000);
	CHECK_EQ(wqe->bind_length, 0x123456789ull);
	CHECK_EQ(wqe->bind_access,
		 IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_WRITE);
	CHECK_EQ(wqe->bind_lkey, 0x1234);
	CHECK_EQ(wqe->num_sge, 0);
	CHECK_EQ(wqe->remote_qpn, 0);
	/* The post does not change the window's key: the bind may fail. */
	CHECK_EQ(mw.rkey, 0x80000507);

	/* A key of another window, no window, a range without an MR. */
	wr.bind_mw.rkey = 0x80000608;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.bind_mw.rkey = 0x80000508;
	wr.bind_mw.mw = NULL;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr.bind_mw.mw = &mw;
	wr.bind_mw.bind_info.mr = NULL;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	/* A zero-length bind (type 1's unbind) needs none. */
	wr.bind_mw.bind_info.length = 0;
	CHECK_EQ(post_one(&t, &wr), 0);
	CHECK_EQ(sq_slot(&t, 3)->bind_lkey, 0);
	/* Nothing inline on a bind or a local invalidate. */
	wr.send_flags = IBV_SEND_INLINE;
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	wr = (struct ibv_send_wr){ .opcode = IBV_WR_LOCAL_INV,
				   .send_flags = IBV_SEND_INLINE };
	CHECK_EQ(post_one(&t, &wr), EINVAL);
	CHECK_EQ(fake_producer(&t.fake), 4);
	fake_ring_destroy(&t.fake);
}

/* A UD SEND names its destination: the kernel AH handle, QPN, Q_Key. */
static void sq_ud_send_names_its_destination(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 256, .lkey = 0x33 };
	struct mrc_ah ah = { .kernel_handle = 0xabcdef };
	struct ibv_send_wr wr = {
		.wr_id = 42,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(0x1234),
	};
	struct mrc_send_wqe *wqe;
	struct fake_sq t;

	wr.wr.ud.ah = &ah.ibv_ah;
	wr.wr.ud.remote_qpn = 0x123456;
	wr.wr.ud.remote_qkey = 0x80010000;
	fake_sq_init(&t, SQ_SLOTS, 0);
	t.sq.qp_type = IBV_QPT_UD;
	CHECK_EQ(post_one(&t, &wr), 0);
	wqe = sq_slot(&t, 0);
	CHECK_EQ(wqe->wr_id, 42);
	CHECK_EQ(wqe->opcode, IB_UVERBS_WR_SEND_WITH_IMM);
	CHECK_EQ(wqe->imm_data, htonl(0x1234));
	CHECK_EQ(wqe->ah_handle, 0xabcdef);
	CHECK_EQ(wqe->remote_qpn, 0x123456);
	CHECK_EQ(wqe->remote_qkey, 0x80010000);
	CHECK_EQ(wqe->remote_addr, 0);
	CHECK_EQ(wqe->num_sge, 1);
	CHECK_EQ(wqe->sge[0].length, 256);
	CHECK_EQ(wqe->sge[0].lkey, 0x33);
	CHECK_EQ(fake_producer(&t.fake), 1);
	fake_ring_destroy(&t.fake);
}

/* A chain stops at its first bad request; those before it are posted. */
static void sq_list_stops_at_bad_wr(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr wrs[4];
	struct ibv_send_wr *bad_wr = NULL;
	uint32_t posted = 0;
	struct fake_sq t;

	for (int i = 0; i < 4; i++)
		wrs[i] = (struct ibv_send_wr){
			.wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND,
			.next = i < 3 ? &wrs[i + 1] : NULL,
		};
	wrs[2].opcode = IBV_WR_TSO;

	fake_sq_init(&t, SQ_SLOTS, 0);
	CHECK_EQ(mrc_sq_post(&t.sq, wrs, &bad_wr, &posted), EINVAL);
	CHECK(bad_wr == &wrs[2]);
	CHECK_EQ(posted, 2);
	CHECK_EQ(fake_producer(&t.fake), 2);
	CHECK_EQ(sq_slot(&t, 0)->wr_id, 0);
	CHECK_EQ(sq_slot(&t, 1)->wr_id, 1);
	fake_ring_destroy(&t.fake);
}

/*
 * The kernel's consumer index says how many slots are still its own; at
 * max_wr outstanding the next request is ENOMEM until it releases some.
 */
static void sq_full_is_enomem_until_the_kernel_consumes(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr wrs[SQ_SLOTS + 1];
	struct ibv_send_wr *bad_wr = NULL;
	uint32_t posted = 0;
	struct fake_sq t;

	for (int i = 0; i <= SQ_SLOTS; i++)
		wrs[i] = (struct ibv_send_wr){
			.wr_id = (uint64_t)i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND,
			.next = i < SQ_SLOTS ? &wrs[i + 1] : NULL,
		};

	/* max_wr below the ring size: the granted capacity rules. */
	fake_sq_init(&t, 5, 0);
	CHECK_EQ(mrc_sq_post(&t.sq, wrs, &bad_wr, &posted), ENOMEM);
	CHECK(bad_wr == &wrs[5]);
	CHECK_EQ(posted, 5);
	CHECK_EQ(fake_producer(&t.fake), 5);

	/* The kernel completes two: exactly two more fit. */
	fake_set_consumer(&t.fake, 2);
	bad_wr = NULL;
	CHECK_EQ(mrc_sq_post(&t.sq, &wrs[5], &bad_wr, &posted), ENOMEM);
	CHECK(bad_wr == &wrs[7]);
	CHECK_EQ(posted, 2);
	CHECK_EQ(fake_producer(&t.fake), 7);
	CHECK_EQ(sq_slot(&t, 5)->wr_id, 5);
	CHECK_EQ(sq_slot(&t, 6)->wr_id, 6);
	fake_ring_destroy(&t.fake);

	/* max_wr equal to the ring size uses every slot. */
	fake_sq_init(&t, SQ_SLOTS, 0);
	CHECK_EQ(mrc_sq_post(&t.sq, wrs, &bad_wr, &posted), ENOMEM);
	CHECK(bad_wr == &wrs[SQ_SLOTS]);
	CHECK_EQ(posted, SQ_SLOTS);
	fake_ring_destroy(&t.fake);
}

/* Free-running indices cross 2^32 without the ring noticing. */
static void sq_indices_wrap_at_2_pow_32(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr wrs[SQ_SLOTS + 1];
	struct ibv_send_wr *bad_wr = NULL;
	uint32_t start = 0xfffffffdu, posted = 0;
	struct fake_sq t;

	for (int i = 0; i <= SQ_SLOTS; i++)
		wrs[i] = (struct ibv_send_wr){
			.wr_id = 1000 + (uint64_t)i, .sg_list = &sge,
			.num_sge = 1, .opcode = IBV_WR_SEND,
			.next = i < SQ_SLOTS ? &wrs[i + 1] : NULL,
		};

	fake_sq_init(&t, SQ_SLOTS, start);
	CHECK_EQ(mrc_sq_post(&t.sq, wrs, &bad_wr, &posted), ENOMEM);
	CHECK_EQ(posted, SQ_SLOTS);
	CHECK(bad_wr == &wrs[SQ_SLOTS]);
	CHECK_EQ(fake_producer(&t.fake), start + SQ_SLOTS);
	CHECK_EQ(fake_producer(&t.fake), 5);
	for (uint32_t i = 0; i < SQ_SLOTS; i++)
		CHECK_EQ(sq_slot(&t, start + i)->wr_id, 1000 + i);
	/* 0xfffffffd & 7 is slot 5; index 0 is slot 0. */
	CHECK_EQ(sq_slot(&t, 0)->wr_id, 1003);

	/* The kernel consumes across the wrap too. */
	fake_set_consumer(&t.fake, 1);
	CHECK_EQ(mrc_uring_in_use(&t.sq.ring), 4);
	CHECK_EQ(mrc_sq_post(&t.sq, &wrs[SQ_SLOTS], &bad_wr, &posted), 0);
	CHECK_EQ(fake_producer(&t.fake), 6);
	CHECK_EQ(sq_slot(&t, 5)->wr_id, 1000 + SQ_SLOTS);
	fake_ring_destroy(&t.fake);
}

/* A kernel index we could not have produced stops posting. */
static void sq_impossible_consumer_is_eio(void)
{
	struct ibv_sge sge = { .addr = 0x1000, .length = 8, .lkey = 1 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND };
	struct fake_sq t;

	fake_sq_init(&t, SQ_SLOTS, 10);
	fake_set_consumer(&t.fake, 11);	/* ahead of our producer */
	CHECK_EQ(post_one(&t, &wr), EIO);
	CHECK_EQ(fake_producer(&t.fake), 10);
	fake_ring_destroy(&t.fake);
}

#define RQ_SLOTS	4
#define RQ_MAX_SGE	3
#define RQ_SLOT_SIZE	64	/* 16-byte header + 3 SGEs */

struct fake_rq {
	struct fake_ring fake;
	struct mrc_rq rq;
};

static void fake_rq_init(struct fake_rq *t, uint32_t start_index)
{
	fake_ring_init(&t->fake, RQ_SLOTS, RQ_SLOT_SIZE, start_index,
		       MRC_URING_PRODUCER);
	t->rq = (struct mrc_rq){
		.ring = t->fake.ring,
		.max_wr = RQ_SLOTS,
		.max_sge = RQ_MAX_SGE,
	};
}

static void rq_post_fills_every_field(void)
{
	struct ibv_sge sges[RQ_MAX_SGE] = {
		{ .addr = 0x1000, .length = 10, .lkey = 1 },
		{ .addr = 0x2000, .length = 20, .lkey = 2 },
		{ .addr = 0x3000, .length = 30, .lkey = 3 },
	};
	struct ibv_recv_wr wr = { .wr_id = 77, .sg_list = sges,
				  .num_sge = RQ_MAX_SGE };
	struct ibv_recv_wr empty = { .wr_id = 78 };
	struct ibv_recv_wr *bad_wr = NULL;
	struct mrc_recv_wqe *wqe;
	uint32_t posted = 0;
	struct fake_rq t;

	fake_rq_init(&t, 0);
	wr.next = &empty;
	CHECK_EQ(mrc_rq_post(&t.rq, &wr, &bad_wr, &posted), 0);
	CHECK(bad_wr == NULL);
	CHECK_EQ(posted, 2);
	CHECK_EQ(fake_producer(&t.fake), 2);

	wqe = fake_slot(&t.fake, 0);
	CHECK_EQ(wqe->wr_id, 77);
	CHECK_EQ(wqe->num_sge, RQ_MAX_SGE);
	CHECK_EQ(wqe->reserved, 0);
	for (int i = 0; i < RQ_MAX_SGE; i++) {
		CHECK_EQ(wqe->sge[i].addr, sges[i].addr);
		CHECK_EQ(wqe->sge[i].length, sges[i].length);
		CHECK_EQ(wqe->sge[i].lkey, sges[i].lkey);
	}
	/* A receive of no SGEs takes zero-length messages. */
	wqe = fake_slot(&t.fake, 1);
	CHECK_EQ(wqe->wr_id, 78);
	CHECK_EQ(wqe->num_sge, 0);
	CHECK_EQ(wqe->reserved, 0);
	fake_ring_destroy(&t.fake);
}

static void rq_limits_and_wrap(void)
{
	struct ibv_sge sges[RQ_MAX_SGE + 1] = {};
	struct ibv_recv_wr wrs[RQ_SLOTS + 1];
	struct ibv_recv_wr *bad_wr = NULL;
	uint32_t posted = 0;
	struct fake_rq t;

	for (int i = 0; i <= RQ_SLOTS; i++)
		wrs[i] = (struct ibv_recv_wr){
			.wr_id = (uint64_t)i, .sg_list = sges, .num_sge = 1,
			.next = i < RQ_SLOTS ? &wrs[i + 1] : NULL,
		};

	fake_rq_init(&t, 0xfffffffeu);

	/* Too many SGEs: nothing before it, so nothing posted. */
	wrs[0].num_sge = RQ_MAX_SGE + 1;
	CHECK_EQ(mrc_rq_post(&t.rq, wrs, &bad_wr, &posted), EINVAL);
	CHECK(bad_wr == &wrs[0]);
	CHECK_EQ(posted, 0);
	CHECK_EQ(fake_producer(&t.fake), 0xfffffffeu);
	wrs[0].num_sge = -1;
	CHECK_EQ(mrc_rq_post(&t.rq, wrs, &bad_wr, &posted), EINVAL);
	wrs[0].num_sge = 1;

	/* Full across the wrap. */
	CHECK_EQ(mrc_rq_post(&t.rq, wrs, &bad_wr, &posted), ENOMEM);
	CHECK(bad_wr == &wrs[RQ_SLOTS]);
	CHECK_EQ(posted, RQ_SLOTS);
	CHECK_EQ(fake_producer(&t.fake), 2);
	CHECK_EQ(((struct mrc_recv_wqe *)fake_slot(&t.fake, 1))->wr_id, 3);

	fake_set_consumer(&t.fake, 0xffffffffu);
	CHECK_EQ(mrc_rq_post(&t.rq, &wrs[RQ_SLOTS], &bad_wr, &posted), 0);
	CHECK_EQ(fake_producer(&t.fake), 3);

	/* A consumer beyond our producer is a broken ring. */
	fake_set_consumer(&t.fake, 4);
	wrs[0].next = NULL;
	CHECK_EQ(mrc_rq_post(&t.rq, wrs, &bad_wr, &posted), EIO);
	fake_ring_destroy(&t.fake);
}

/*
 * The provider posts while a "kernel" thread consumes with the ring's real
 * pairing (acquire producer, read slot, release consumer): every request
 * arrives once, in order, with its contents, and the producer never gets
 * more than max_wr ahead.
 */
#define STRESS_REQUESTS	50000u

struct stress {
	struct fake_sq t;
	uint32_t errors;	/* the kernel thread's */
	bool poster_done;	/* set when the poster stops, for any reason */
};

static void *stress_kernel(void *arg)
{
	struct stress *s = arg;
	uint32_t next = 0;
	bool done;

	do {
		uint32_t produced;

		/* Acquire the flag first: then the producer read is final. */
		done = __atomic_load_n(&s->poster_done, __ATOMIC_ACQUIRE);
		produced = fake_producer(&s->t.fake);

		if (produced - next > SQ_SLOTS)
			s->errors++;
		for (; next != produced; next++) {
			struct mrc_send_wqe *wqe = sq_slot(&s->t, next);

			if (wqe->wr_id != next || wqe->sge[0].addr != next ||
			    wqe->num_sge != 1)
				s->errors++;
		}
		fake_set_consumer(&s->t.fake, next);
	} while (!done);
	return NULL;
}

static void sq_concurrent_kernel_sees_every_request_once(void)
{
	struct ibv_sge sge = { .length = 8, .lkey = 1 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND };
	struct ibv_send_wr *bad_wr;
	struct stall_watch watch;
	struct stress s = {};
	uint32_t sent = 0, posted;
	pthread_t kernel;
	int err = 0;

	fake_sq_init(&s.t, SQ_SLOTS, 0);
	stall_watch_progress(&watch);
	CHECK_EQ(pthread_create(&kernel, NULL, stress_kernel, &s), 0);
	while (sent < STRESS_REQUESTS) {
		wr.wr_id = sent;
		sge.addr = sent;
		err = mrc_sq_post(&s.t.sq, &wr, &bad_wr, &posted);
		if (err == ENOMEM && !stall_watch_stalled(&watch))
			continue;
		if (err || posted != 1)
			break;
		sent++;
		stall_watch_progress(&watch);
	}
	__atomic_store_n(&s.poster_done, true, __ATOMIC_RELEASE);
	pthread_join(kernel, NULL);
	CHECK_EQ(err, 0);
	CHECK_EQ(sent, STRESS_REQUESTS);
	CHECK_EQ(s.errors, 0);
	CHECK_EQ(fake_consumer(&s.t.fake), sent);
	fake_ring_destroy(&s.t.fake);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(sq_send_fills_every_field),
	KTAP_CASE(sq_every_rc_opcode_fills_its_fields),
	KTAP_CASE(sq_inline_copies_the_data),
	KTAP_CASE(sq_inline_up_to_max_inline_data),
	KTAP_CASE(sq_refuses_invalid_requests),
	KTAP_CASE(sq_refuses_opcodes_of_other_qp_types),
	KTAP_CASE(sq_mw_and_invalidations_fill_their_fields),
	KTAP_CASE(sq_ud_send_names_its_destination),
	KTAP_CASE(sq_list_stops_at_bad_wr),
	KTAP_CASE(sq_full_is_enomem_until_the_kernel_consumes),
	KTAP_CASE(sq_indices_wrap_at_2_pow_32),
	KTAP_CASE(sq_impossible_consumer_is_eio),
	KTAP_CASE(rq_post_fills_every_field),
	KTAP_CASE(rq_limits_and_wrap),
	KTAP_CASE(sq_concurrent_kernel_sees_every_request_once),
};

KTAP_MAIN("mrc_provider_work_queues", cases)
