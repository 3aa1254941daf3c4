// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the provider's ring descriptions and mapping (mrc_ring.c):
 * what a create response must say before we map it, and that mapping picks
 * up the ring's indices where the kernel left them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fake_ring.h"
#include "ktap.h"

static struct mrc_ring_info good_info(void)
{
	return (struct mrc_ring_info){
		.mmap_offset = 0,
		.mmap_length = 4096,
		.num_slots = 16,
		.slot_size = 128,
	};
}

static void check_accepts_a_well_formed_ring(void)
{
	struct mrc_ring_info info = good_info();

	CHECK_EQ(mrc_uring_check(&info, 16, 128), 0);
	CHECK_EQ(mrc_uring_check(&info, 1, 64), 0);
	/* Exactly enough bytes: indices plus slots, no page rounding. */
	info.mmap_length = sizeof(struct mrc_ring_indices) + 16 * 128;
	CHECK_EQ(mrc_uring_check(&info, 16, 128), 0);
}

static void check_refuses_non_powers_of_two(void)
{
	struct mrc_ring_info info = good_info();

	info.num_slots = 12;
	CHECK_EQ(mrc_uring_check(&info, 1, 64), EPROTO);
	info = good_info();
	info.num_slots = 0;
	CHECK_EQ(mrc_uring_check(&info, 0, 64), EPROTO);
	info = good_info();
	info.slot_size = 96;
	CHECK_EQ(mrc_uring_check(&info, 1, 64), EPROTO);
	info = good_info();
	info.slot_size = 0;
	CHECK_EQ(mrc_uring_check(&info, 1, 0), EPROTO);
}

static void check_refuses_a_ring_smaller_than_granted(void)
{
	struct mrc_ring_info info = good_info();

	CHECK_EQ(mrc_uring_check(&info, 17, 128), EPROTO);
	CHECK_EQ(mrc_uring_check(&info, 16, 129), EPROTO);
	info.mmap_length = sizeof(struct mrc_ring_indices) + 16 * 128 - 1;
	CHECK_EQ(mrc_uring_check(&info, 16, 128), EPROTO);
}

static void check_does_not_overflow_the_length_sum(void)
{
	struct mrc_ring_info info = good_info();

	/* 2^20 slots of 2^12 bytes is 2^32: wraps to 0 in 32 bits. */
	info.num_slots = 1u << 20;
	info.slot_size = 1u << 12;
	info.mmap_length = 4096;
	CHECK_EQ(mrc_uring_check(&info, 1, 64), EPROTO);
}

static void empty_ring_info_means_no_ring(void)
{
	struct mrc_ring_info info = {};

	CHECK(mrc_ring_info_is_empty(&info));
	info.reserved = 1;
	CHECK(!mrc_ring_info_is_empty(&info));
	info = good_info();
	CHECK(!mrc_ring_info_is_empty(&info));
}

static void attach_takes_our_index_from_the_page(void)
{
	struct fake_ring producer, consumer;

	fake_ring_init(&producer, 8, 64, 0xfffffff0u, MRC_URING_PRODUCER);
	CHECK_EQ(producer.ring.index, 0xfffffff0u);
	CHECK_EQ(producer.ring.num_slots, 8);
	CHECK_EQ(producer.ring.slot_size, 64);
	CHECK(producer.ring.slots == (uint8_t *)producer.memory + 128);
	CHECK(mrc_uring_slot(&producer.ring, 9) == fake_slot(&producer, 1));
	fake_ring_destroy(&producer);

	fake_ring_init(&consumer, 8, 64, 0, MRC_URING_CONSUMER);
	fake_indices(&consumer)->producer = 5;
	fake_indices(&consumer)->consumer = 3;
	mrc_uring_attach(&consumer.ring, consumer.memory, &consumer.info,
			 MRC_URING_CONSUMER);
	CHECK_EQ(consumer.ring.index, 3);
	CHECK_EQ(mrc_uring_available(&consumer.ring), 2);
	fake_ring_destroy(&consumer);
}

/*
 * mmap() of a memfd stands in for the uverbs fd: a second mapping of the
 * same pages plays the kernel's view.
 */
static void map_shares_the_pages_and_unmap_forgets_them(void)
{
	struct mrc_ring_info info = good_info();
	struct mrc_ring_indices *kernel_view;
	struct mrc_uring ring = {};
	int fd;

	fd = memfd_create("mrc-ring-test", 0);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(ftruncate(fd, 8192), 0);
	kernel_view = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED,
			   fd, 0);
	CHECK(kernel_view != MAP_FAILED);
	if (kernel_view == MAP_FAILED) {
		close(fd);
		return;
	}

	/* The second page, so that mmap_offset is exercised too. */
	info.mmap_offset = 4096;
	kernel_view = (void *)((char *)kernel_view + 4096);
	kernel_view->producer = 7;
	kernel_view->consumer = 4;

	CHECK_EQ(mrc_uring_map(&ring, fd, &info, 16, 128, MRC_URING_PRODUCER),
		 0);
	CHECK(ring.mapping != NULL);
	CHECK_EQ(ring.mapping_length, 4096);
	CHECK_EQ(ring.index, 7);
	CHECK_EQ(mrc_uring_in_use(&ring), 3);

	ring.index = 9;
	mrc_uring_publish_producer(&ring);
	CHECK_EQ(__atomic_load_n(&kernel_view->producer, __ATOMIC_ACQUIRE), 9);
	*(uint32_t *)mrc_uring_slot(&ring, 17) = 0x12345678;
	CHECK_EQ(*(uint32_t *)((char *)(kernel_view + 1) + 128), 0x12345678);

	mrc_uring_unmap(&ring);
	CHECK(ring.mapping == NULL);
	CHECK(ring.indices == NULL);
	/* Unmapping twice, or a ring never mapped, is harmless. */
	mrc_uring_unmap(&ring);

	munmap((char *)kernel_view - 4096, 8192);
	close(fd);
}

static void map_refuses_before_mapping(void)
{
	struct mrc_ring_info info = good_info();
	struct mrc_uring ring = {};

	info.num_slots = 3;
	/* The check comes first: not even a bad fd is looked at. */
	CHECK_EQ(mrc_uring_map(&ring, -1, &info, 1, 64, MRC_URING_PRODUCER),
		 EPROTO);
	CHECK(ring.mapping == NULL);

	info = good_info();
	CHECK_EQ(mrc_uring_map(&ring, -1, &info, 1, 64, MRC_URING_PRODUCER),
		 EBADF);
	CHECK(ring.mapping == NULL);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(check_accepts_a_well_formed_ring),
	KTAP_CASE(check_refuses_non_powers_of_two),
	KTAP_CASE(check_refuses_a_ring_smaller_than_granted),
	KTAP_CASE(check_does_not_overflow_the_length_sum),
	KTAP_CASE(empty_ring_info_means_no_ring),
	KTAP_CASE(attach_takes_our_index_from_the_page),
	KTAP_CASE(map_shares_the_pages_and_unmap_forgets_them),
	KTAP_CASE(map_refuses_before_mapping),
};

KTAP_MAIN("mrc_provider_ring", cases)
