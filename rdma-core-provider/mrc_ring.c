// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * soft-MRC provider: mapping the rings the kernel shares with us.
 */
#include <errno.h>
#include <sys/mman.h>

#include "mrc_ring.h"

static int mrc_is_power_of_2(uint32_t value)
{
	return value && !(value & (value - 1));
}

int mrc_uring_check(const struct mrc_ring_info *info, uint32_t min_slots,
		    uint32_t min_slot_size)
{
	/* 64-bit: num_slots * slot_size can exceed 32 bits. */
	uint64_t needed = sizeof(struct mrc_ring_indices) +
			  (uint64_t)info->num_slots * info->slot_size;

	/*
	 * Slot arithmetic masks with num_slots - 1, and a ring shorter than
	 * what the kernel granted would let us post past its end: a kernel
	 * answering this way speaks another protocol, so refuse it rather
	 * than guess.
	 */
	if (!mrc_is_power_of_2(info->num_slots) ||
	    !mrc_is_power_of_2(info->slot_size) ||
	    info->num_slots < min_slots || info->slot_size < min_slot_size ||
	    info->mmap_length < needed)
		return EPROTO;
	return 0;
}

void mrc_uring_attach(struct mrc_uring *ring, void *base,
		      const struct mrc_ring_info *info,
		      enum mrc_uring_role role)
{
	ring->indices = base;
	ring->slots = (uint8_t *)base + sizeof(struct mrc_ring_indices);
	ring->num_slots = info->num_slots;
	ring->slot_size = info->slot_size;
	/*
	 * The kernel starts both indices at the same value (0 today); taking
	 * ours from the page instead of assuming 0 keeps the two in step
	 * whatever that value is.
	 */
	ring->index = role == MRC_URING_PRODUCER ?
		      __atomic_load_n(&ring->indices->producer,
				      __ATOMIC_ACQUIRE) :
		      __atomic_load_n(&ring->indices->consumer,
				      __ATOMIC_ACQUIRE);
}

int mrc_uring_map(struct mrc_uring *ring, int cmd_fd,
		  const struct mrc_ring_info *info, uint32_t min_slots,
		  uint32_t min_slot_size, enum mrc_uring_role role)
{
	void *base;
	int err;

	err = mrc_uring_check(info, min_slots, min_slot_size);
	if (err)
		return err;

	base = mmap(NULL, info->mmap_length, PROT_READ | PROT_WRITE,
		    MAP_SHARED, cmd_fd, (off_t)info->mmap_offset);
	if (base == MAP_FAILED)
		return errno;

	mrc_uring_attach(ring, base, info, role);
	ring->mapping = base;
	ring->mapping_length = info->mmap_length;
	return 0;
}

void mrc_uring_unmap(struct mrc_uring *ring)
{
	if (ring->mapping)
		munmap(ring->mapping, ring->mapping_length);
	ring->mapping = NULL;
	ring->mapping_length = 0;
	ring->indices = NULL;
	ring->slots = NULL;
}
