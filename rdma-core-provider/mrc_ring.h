/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC provider: the userspace end of a ring shared with the kernel
 * (protocol in include/uapi/rdma/mrc-abi.h and Documentation/abi.rst).
 *
 * Each side writes only its own index in struct mrc_ring_indices: release
 * after the slots it filled or finished reading, and reads the other side's
 * with acquire before touching the slots. We keep a private copy of our own
 * index and never read it back from the shared page, so nothing the other
 * side writes there can move it.
 *
 * The helpers take no lock: a ring has exactly one userspace producer or
 * consumer at a time, which the owner (QP, SRQ, CQ) guarantees with its own
 * lock. They make no system call, so unit tests can run them on a ring in
 * ordinary memory.
 */
#ifndef MRC_PROVIDER_RING_H
#define MRC_PROVIDER_RING_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/mrc-abi.h>

struct mrc_uring {
	struct mrc_ring_indices *indices;
	uint8_t *slots;
	uint32_t num_slots;	/* a power of two */
	uint32_t slot_size;	/* a power of two */
	/*
	 * Our own free-running index: the next slot to fill for a work
	 * queue, the next slot to read for a completion queue.
	 */
	uint32_t index;
	/* What mrc_uring_map() mapped, for munmap(); NULL if not mapped. */
	void *mapping;
	size_t mapping_length;
};

/* Which index of the shared page is ours. */
enum mrc_uring_role {
	MRC_URING_PRODUCER,	/* send, receive and shared receive queues */
	MRC_URING_CONSUMER,	/* completion queues */
};

static inline void *mrc_uring_slot(const struct mrc_uring *ring, uint32_t index)
{
	return ring->slots +
	       (size_t)(index & (ring->num_slots - 1)) * ring->slot_size;
}

/*
 * Producer side: entries we published that the kernel has not released
 * yet. More than num_slots means the kernel's index is not one we could
 * have produced, i.e. the ring is broken.
 */
static inline uint32_t mrc_uring_in_use(const struct mrc_uring *ring)
{
	/* Acquire: the kernel is done with a slot before we refill it. */
	return ring->index -
	       __atomic_load_n(&ring->indices->consumer, __ATOMIC_ACQUIRE);
}

/* Producer side: hands every slot filled so far to the kernel. */
static inline void mrc_uring_publish_producer(struct mrc_uring *ring)
{
	/* Release: the slot contents are visible before the index. */
	__atomic_store_n(&ring->indices->producer, ring->index,
			 __ATOMIC_RELEASE);
}

/*
 * Consumer side: entries the kernel published that we have not read. More
 * than num_slots means a broken ring, as above.
 */
static inline uint32_t mrc_uring_available(const struct mrc_uring *ring)
{
	/* Acquire: the kernel's slot contents are visible before we read. */
	return __atomic_load_n(&ring->indices->producer, __ATOMIC_ACQUIRE) -
	       ring->index;
}

/* Consumer side: gives every slot read so far back to the kernel. */
static inline void mrc_uring_publish_consumer(struct mrc_uring *ring)
{
	/* Release: our reads of the slots finish before the kernel reuses them. */
	__atomic_store_n(&ring->indices->consumer, ring->index,
			 __ATOMIC_RELEASE);
}

/*
 * Checks a ring description from a create response: num_slots and
 * slot_size powers of two, at least min_slots slots of at least
 * min_slot_size bytes, and a mapping long enough to hold them after the
 * indices. Returns 0 or EPROTO.
 */
int mrc_uring_check(const struct mrc_ring_info *info, uint32_t min_slots,
		    uint32_t min_slot_size);

/*
 * Points ring at a ring laid out at base as info describes (already
 * checked), taking our index from the shared page.
 */
void mrc_uring_attach(struct mrc_uring *ring, void *base,
		      const struct mrc_ring_info *info,
		      enum mrc_uring_role role);

/*
 * mrc_uring_check(), then mmap() of the ring on the uverbs command fd, then
 * mrc_uring_attach(). Returns 0 or an errno value; on failure nothing is
 * mapped.
 */
int mrc_uring_map(struct mrc_uring *ring, int cmd_fd,
		  const struct mrc_ring_info *info, uint32_t min_slots,
		  uint32_t min_slot_size, enum mrc_uring_role role);

/* Undoes mrc_uring_map(); harmless on a ring that was never mapped. */
void mrc_uring_unmap(struct mrc_uring *ring);

/* A ring description of all zeroes: "no ring", e.g. the RQ of an SRQ QP. */
static inline int mrc_ring_info_is_empty(const struct mrc_ring_info *info)
{
	return !info->mmap_offset && !info->mmap_length && !info->num_slots &&
	       !info->slot_size && !info->reserved;
}

#endif /* MRC_PROVIDER_RING_H */
