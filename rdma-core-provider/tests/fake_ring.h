/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A ring in ordinary memory, laid out as the kernel lays out a mapped one,
 * for driving the provider's ring code without a kernel. The test plays
 * the kernel: it moves the kernel's index and reads or writes slots with
 * the same acquire/release pairing the real one uses.
 */
#ifndef MRC_TEST_FAKE_RING_H
#define MRC_TEST_FAKE_RING_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mrc_ring.h"

struct fake_ring {
	void *memory;
	struct mrc_ring_info info;
	struct mrc_uring ring;
};

/*
 * Both indices start at start_index, as if the queue had already carried
 * that many entries; the slots are filled with poison so a field the
 * provider forgets to write shows up.
 */
static inline void fake_ring_init(struct fake_ring *fake, uint32_t num_slots,
				  uint32_t slot_size, uint32_t start_index,
				  enum mrc_uring_role role)
{
	size_t bytes = sizeof(struct mrc_ring_indices) +
		       (size_t)num_slots * slot_size;

	fake->memory = aligned_alloc(64, bytes);
	if (!fake->memory)
		abort();
	memset(fake->memory, 0, sizeof(struct mrc_ring_indices));
	memset((char *)fake->memory + sizeof(struct mrc_ring_indices), 0xa5,
	       bytes - sizeof(struct mrc_ring_indices));

	fake->info = (struct mrc_ring_info){
		.mmap_length = (uint32_t)bytes,
		.num_slots = num_slots,
		.slot_size = slot_size,
	};
	((struct mrc_ring_indices *)fake->memory)->producer = start_index;
	((struct mrc_ring_indices *)fake->memory)->consumer = start_index;
	memset(&fake->ring, 0, sizeof(fake->ring));
	mrc_uring_attach(&fake->ring, fake->memory, &fake->info, role);
}

static inline void fake_ring_destroy(struct fake_ring *fake)
{
	free(fake->memory);
	fake->memory = NULL;
}

static inline struct mrc_ring_indices *fake_indices(struct fake_ring *fake)
{
	return fake->memory;
}

/* The kernel's view of the producer index (acquire, as it reads it). */
static inline uint32_t fake_producer(struct fake_ring *fake)
{
	return __atomic_load_n(&fake_indices(fake)->producer,
			       __ATOMIC_ACQUIRE);
}

static inline uint32_t fake_consumer(struct fake_ring *fake)
{
	return __atomic_load_n(&fake_indices(fake)->consumer,
			       __ATOMIC_ACQUIRE);
}

/* The kernel releases slots (work queues) or publishes entries (CQs). */
static inline void fake_set_consumer(struct fake_ring *fake, uint32_t index)
{
	__atomic_store_n(&fake_indices(fake)->consumer, index,
			 __ATOMIC_RELEASE);
}

static inline void fake_set_producer(struct fake_ring *fake, uint32_t index)
{
	__atomic_store_n(&fake_indices(fake)->producer, index,
			 __ATOMIC_RELEASE);
}

/* Slot of a free-running index, as the kernel computes it. */
static inline void *fake_slot(struct fake_ring *fake, uint32_t index)
{
	return (char *)fake->memory + sizeof(struct mrc_ring_indices) +
	       (size_t)(index & (fake->info.num_slots - 1)) *
	       fake->info.slot_size;
}

/*
 * Loops that spin on the other thread give up after this long without
 * progress, so a broken ring fails its test instead of hanging the run.
 */
#define STALL_SECONDS	10

struct stall_watch {
	time_t last_progress;
	unsigned int spins;
};

static inline time_t monotonic_seconds(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec;
}

static inline void stall_watch_progress(struct stall_watch *watch)
{
	watch->spins = 0;
	watch->last_progress = monotonic_seconds();
}

/* Call on every fruitless spin; true once it is time to give up. */
static inline bool stall_watch_stalled(struct stall_watch *watch)
{
	/* The clock is read only now and then: spins are cheap. */
	if (++watch->spins % 4096)
		return false;
	return monotonic_seconds() - watch->last_progress > STALL_SECONDS;
}

#endif /* MRC_TEST_FAKE_RING_H */
