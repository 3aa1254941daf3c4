// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of polling completion rings (mrc_cq_ring_poll(),
 * mrc_cqe_to_wc()): fields and flags of each completion, order, partial
 * polls, wrap-around at 2^32 and broken producer indices. The test plays
 * the kernel on a ring in ordinary memory.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>

#include "fake_ring.h"
#include "ktap.h"
#include "mrc_fastpath.h"

#define CQ_SLOTS	8

/* The kernel's enum ib_wc_flags, as the CQE carries them. */
#define KERNEL_WC_GRH			(1u << 0)
#define KERNEL_WC_WITH_IMM		(1u << 1)
#define KERNEL_WC_WITH_INVALIDATE	(1u << 2)
#define KERNEL_WC_IP_CSUM_OK		(1u << 3)
#define KERNEL_WC_WITH_SMAC		(1u << 4)

static void fake_cq_init(struct fake_ring *fake, uint32_t start_index)
{
	fake_ring_init(fake, CQ_SLOTS, sizeof(struct mrc_cqe), start_index,
		       MRC_URING_CONSUMER);
}

/* Writes a completion the way the kernel does, without publishing it. */
static void kernel_write_cqe(struct fake_ring *fake, uint32_t index,
			     uint64_t wr_id, uint32_t status, uint32_t opcode)
{
	struct mrc_cqe *cqe = fake_slot(fake, index);

	memset(cqe, 0, sizeof(*cqe));
	cqe->wc.wr_id = wr_id;
	cqe->wc.status = status;
	cqe->wc.opcode = opcode;
	cqe->wc.byte_len = (uint32_t)wr_id * 10;
	cqe->wc.qp_num = 0x123456;
}

static void cqe_to_wc_copies_every_field(void)
{
	struct mrc_cqe cqe = {
		.wc = {
			.wr_id = 0x0123456789abcdefull,
			.status = IBV_WC_REM_ACCESS_ERR,
			.opcode = IBV_WC_RECV_RDMA_WITH_IMM,
			.vendor_err = 0x77,
			.byte_len = 4096,
			.ex.imm_data = htonl(0xa1b2c3d4),
			.qp_num = 0xabcdef,
			.src_qp = 0x654321,
			.wc_flags = KERNEL_WC_WITH_IMM | KERNEL_WC_GRH,
			.pkey_index = 3,
			.slid = 0x1234,
			.sl = 5,
			.dlid_path_bits = 6,
			.port_num = 1,
		},
	};
	struct ibv_wc wc;

	memset(&wc, 0xee, sizeof(wc));
	mrc_cqe_to_wc(&cqe, &wc);
	CHECK_EQ(wc.wr_id, 0x0123456789abcdefull);
	CHECK_EQ(wc.status, IBV_WC_REM_ACCESS_ERR);
	CHECK_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
	CHECK_EQ(wc.vendor_err, 0x77);
	CHECK_EQ(wc.byte_len, 4096);
	/* Still network order: ibv_wc.imm_data is __be32. */
	CHECK_EQ(wc.imm_data, htonl(0xa1b2c3d4));
	CHECK_EQ(wc.qp_num, 0xabcdef);
	CHECK_EQ(wc.src_qp, 0x654321);
	CHECK_EQ(wc.wc_flags, IBV_WC_WITH_IMM | IBV_WC_GRH);
	CHECK_EQ(wc.pkey_index, 3);
	CHECK_EQ(wc.slid, 0x1234);
	CHECK_EQ(wc.sl, 5);
	CHECK_EQ(wc.dlid_path_bits, 6);
}

/* The kernel and libibverbs number two flags the other way round. */
static void wc_flags_are_translated(void)
{
	CHECK_EQ(mrc_wc_flags_from_kernel(0), 0);
	CHECK_EQ(mrc_wc_flags_from_kernel(KERNEL_WC_GRH), IBV_WC_GRH);
	CHECK_EQ(mrc_wc_flags_from_kernel(KERNEL_WC_WITH_IMM),
		 IBV_WC_WITH_IMM);
	CHECK_EQ(mrc_wc_flags_from_kernel(KERNEL_WC_WITH_INVALIDATE),
		 IBV_WC_WITH_INV);
	CHECK_EQ(mrc_wc_flags_from_kernel(KERNEL_WC_IP_CSUM_OK),
		 IBV_WC_IP_CSUM_OK);
	/* No ibv_wc field for the SMAC; it is dropped, not misreported. */
	CHECK_EQ(mrc_wc_flags_from_kernel(KERNEL_WC_WITH_SMAC), 0);
	CHECK_EQ(mrc_wc_flags_from_kernel(0xf),
		 IBV_WC_GRH | IBV_WC_WITH_IMM | IBV_WC_WITH_INV |
		 IBV_WC_IP_CSUM_OK);
}

static void poll_empty_ring_returns_zero(void)
{
	struct ibv_wc wc[2];
	struct fake_ring fake;

	fake_cq_init(&fake, 0);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 2, wc), 0);
	CHECK_EQ(fake_consumer(&fake), 0);
	/* Unpublished slot contents are not completions. */
	kernel_write_cqe(&fake, 0, 1, IBV_WC_SUCCESS, IBV_WC_SEND);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 2, wc), 0);
	fake_ring_destroy(&fake);
}

static void poll_reads_in_order_and_releases_slots(void)
{
	struct ibv_wc wc[CQ_SLOTS];
	struct fake_ring fake;

	fake_cq_init(&fake, 0);
	for (uint32_t i = 0; i < 5; i++)
		kernel_write_cqe(&fake, i, 100 + i, IBV_WC_SUCCESS,
				 i % 2 ? IBV_WC_RECV : IBV_WC_RDMA_WRITE);
	fake_set_producer(&fake, 5);

	/* Partial poll: two now, consumer follows. */
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 2, wc), 2);
	CHECK_EQ(wc[0].wr_id, 100);
	CHECK_EQ(wc[0].opcode, IBV_WC_RDMA_WRITE);
	CHECK_EQ(wc[0].byte_len, 1000);
	CHECK_EQ(wc[1].wr_id, 101);
	CHECK_EQ(wc[1].opcode, IBV_WC_RECV);
	CHECK_EQ(fake_consumer(&fake), 2);

	/* Asking for more than there is returns what there is. */
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, CQ_SLOTS, wc), 3);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(wc[i].wr_id, 102 + i);
		CHECK_EQ(wc[i].status, IBV_WC_SUCCESS);
		CHECK_EQ(wc[i].qp_num, 0x123456);
	}
	CHECK_EQ(fake_consumer(&fake), 5);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, CQ_SLOTS, wc), 0);

	/* num_entries of 0 or below reads nothing. */
	kernel_write_cqe(&fake, 5, 105, IBV_WC_WR_FLUSH_ERR, IBV_WC_SEND);
	fake_set_producer(&fake, 6);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 0, wc), 0);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, -3, wc), 0);
	CHECK_EQ(fake_consumer(&fake), 5);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 1, wc), 1);
	CHECK_EQ(wc[0].status, IBV_WC_WR_FLUSH_ERR);
	fake_ring_destroy(&fake);
}

static void poll_wraps_at_2_pow_32(void)
{
	uint32_t start = 0xfffffffcu;
	struct ibv_wc wc[CQ_SLOTS];
	struct fake_ring fake;

	fake_cq_init(&fake, start);
	/* A full ring whose indices cross 2^32 halfway. */
	for (uint32_t i = 0; i < CQ_SLOTS; i++)
		kernel_write_cqe(&fake, start + i, 500 + i, IBV_WC_SUCCESS,
				 IBV_WC_SEND);
	fake_set_producer(&fake, start + CQ_SLOTS);
	CHECK_EQ(fake_producer(&fake), 4);

	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 3, wc), 3);
	CHECK_EQ(fake_consumer(&fake), 0xffffffffu);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, CQ_SLOTS, wc), 5);
	CHECK_EQ(fake_consumer(&fake), 4);
	for (uint32_t i = 0; i < 5; i++)
		CHECK_EQ(wc[i].wr_id, 503 + i);

	/* The freed slots are reused past the wrap. */
	kernel_write_cqe(&fake, 4, 999, IBV_WC_SUCCESS, IBV_WC_RECV);
	fake_set_producer(&fake, 5);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, 1, wc), 1);
	CHECK_EQ(wc[0].wr_id, 999);
	fake_ring_destroy(&fake);
}

/*
 * What the kernel does at a resize: a new ring whose indices start at the
 * old consumer index, the unpolled entries copied to the same indices.
 */
static void kernel_resize(struct fake_ring *from, struct fake_ring *to,
			  uint32_t num_slots)
{
	uint32_t consumer = fake_consumer(from), producer = fake_producer(from);

	fake_ring_init(to, num_slots, sizeof(struct mrc_cqe), consumer,
		       MRC_URING_CONSUMER);
	for (uint32_t i = consumer; i != producer; i++)
		memcpy(fake_slot(to, i), fake_slot(from, i),
		       sizeof(struct mrc_cqe));
	fake_set_producer(to, producer);
	fake_ring_destroy(from);
}

/*
 * Across a shrink and a grow, with indices crossing 2^32, the provider
 * takes its index from the new ring and reads on in order: the slot of an
 * index differs between rings, the index does not.
 */
static void poll_goes_on_across_a_resize(void)
{
	uint32_t start = 0xfffffffau;
	struct fake_ring a, b, c;
	struct ibv_wc wc[16];

	fake_cq_init(&a, start);
	for (uint32_t i = 0; i < 6; i++)
		kernel_write_cqe(&a, start + i, 700 + i, IBV_WC_SUCCESS,
				 IBV_WC_SEND);
	fake_set_producer(&a, start + 6);
	CHECK_EQ(mrc_cq_ring_poll(&a.ring, 2, wc), 2);

	/* Shrink 8 -> 4 with exactly 4 queued. */
	kernel_resize(&a, &b, 4);
	CHECK_EQ(b.ring.index, start + 2);
	CHECK_EQ(mrc_cq_ring_poll(&b.ring, 1, wc), 1);
	CHECK_EQ(wc[0].wr_id, 702);

	/* Grow 4 -> 16 with 3 queued, then fill behind them. */
	kernel_resize(&b, &c, 16);
	for (uint32_t i = 6; i < 16; i++)
		kernel_write_cqe(&c, start + i, 700 + i, IBV_WC_SUCCESS,
				 IBV_WC_RECV);
	fake_set_producer(&c, start + 16);
	CHECK_EQ(mrc_cq_ring_poll(&c.ring, 16, wc), 13);
	for (uint32_t i = 0; i < 13; i++)
		CHECK_EQ(wc[i].wr_id, 703 + i);
	CHECK_EQ(wc[2].opcode, IBV_WC_SEND);
	CHECK_EQ(wc[3].opcode, IBV_WC_RECV);
	CHECK_EQ(fake_consumer(&c), start + 16);
	CHECK_EQ(mrc_cq_ring_poll(&c.ring, 16, wc), 0);
	fake_ring_destroy(&c);
}

/* A producer more than a ring ahead cannot be real: report, read nothing. */
static void poll_impossible_producer_is_an_error(void)
{
	struct ibv_wc wc[CQ_SLOTS];
	struct fake_ring fake;

	fake_cq_init(&fake, 0);
	fake_set_producer(&fake, CQ_SLOTS + 1);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, CQ_SLOTS, wc), -EIO);
	CHECK_EQ(fake_consumer(&fake), 0);
	/* Exactly a full ring is fine. */
	for (uint32_t i = 0; i < CQ_SLOTS; i++)
		kernel_write_cqe(&fake, i, i, IBV_WC_SUCCESS, IBV_WC_SEND);
	fake_set_producer(&fake, CQ_SLOTS);
	CHECK_EQ(mrc_cq_ring_poll(&fake.ring, CQ_SLOTS, wc), CQ_SLOTS);
	fake_ring_destroy(&fake);
}

/*
 * A "kernel" thread produces with the real pairing (fill slot, release
 * producer, wait for room by acquiring the consumer) while we poll: every
 * completion arrives once, in order, with its contents.
 */
#define STRESS_COMPLETIONS	50000u

struct stress {
	struct fake_ring fake;
	bool stop;	/* the poller gave up: stop producing */
};

static void *stress_kernel(void *arg)
{
	struct stress *s = arg;
	uint32_t produced = 0;

	while (produced < STRESS_COMPLETIONS &&
	       !__atomic_load_n(&s->stop, __ATOMIC_RELAXED)) {
		if (produced - fake_consumer(&s->fake) >= CQ_SLOTS)
			continue;
		kernel_write_cqe(&s->fake, produced, produced, IBV_WC_SUCCESS,
				 IBV_WC_RECV);
		fake_set_producer(&s->fake, ++produced);
	}
	return NULL;
}

static void poll_concurrent_kernel_delivers_every_completion_once(void)
{
	struct ibv_wc wc[3];
	uint32_t expected = 0, errors = 0;
	struct stall_watch watch;
	struct stress s = {};
	pthread_t kernel;
	int polled;

	fake_cq_init(&s.fake, 0);
	stall_watch_progress(&watch);
	CHECK_EQ(pthread_create(&kernel, NULL, stress_kernel, &s), 0);
	while (expected < STRESS_COMPLETIONS) {
		polled = mrc_cq_ring_poll(&s.fake.ring, 3, wc);
		if (polled < 0 || polled > 3 ||
		    (!polled && stall_watch_stalled(&watch))) {
			errors++;
			break;
		}
		if (polled)
			stall_watch_progress(&watch);
		for (int i = 0; i < polled; i++, expected++)
			if (wc[i].wr_id != expected ||
			    wc[i].byte_len != expected * 10 ||
			    wc[i].opcode != IBV_WC_RECV)
				errors++;
	}
	__atomic_store_n(&s.stop, true, __ATOMIC_RELAXED);
	pthread_join(kernel, NULL);
	CHECK_EQ(errors, 0);
	CHECK_EQ(expected, STRESS_COMPLETIONS);
	fake_ring_destroy(&s.fake);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(cqe_to_wc_copies_every_field),
	KTAP_CASE(wc_flags_are_translated),
	KTAP_CASE(poll_empty_ring_returns_zero),
	KTAP_CASE(poll_reads_in_order_and_releases_slots),
	KTAP_CASE(poll_wraps_at_2_pow_32),
	KTAP_CASE(poll_goes_on_across_a_resize),
	KTAP_CASE(poll_impossible_producer_is_an_error),
	KTAP_CASE(poll_concurrent_kernel_delivers_every_completion_once),
};

KTAP_MAIN("mrc_provider_completion_queues", cases)
