/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Rings shared with userspace (see include/uapi/rdma/mrc-abi.h for the
 * protocol). The same structure serves kernel consumers, whose rings are
 * simply never mapped.
 *
 * Lifetime: a ring that was mapped belongs to its mmap entry, which frees
 * the memory only when the last mapping is gone; the verbs object that
 * created it stops touching it at destroy time (mrc_ring_destroy()).
 * Locking is the owner's: a ring has none of its own.
 */
#ifndef MRC_RING_H
#define MRC_RING_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/mrc-abi.h>

struct mrc_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	void *vaddr;		/* vmalloc_user() memory, freed by mmap_free */
};

struct mrc_ring {
	struct mrc_ring_indices *indices;
	u8 *slots;
	u32 num_slots;
	u32 slot_size;
	size_t bytes;
	struct mrc_mmap_entry *mmap;	/* NULL for a kernel consumer's ring */
};

/*
 * For a create verb that maps rings: NULL for a kernel consumer (@udata
 * NULL), else the user context in *@ucontext after checking that the
 * response buffer holds @resp_len bytes (-EINVAL otherwise).
 */
int mrc_ring_ucontext(struct ib_udata *udata, size_t resp_len,
		      struct ib_ucontext **ucontext);

/* @ucontext NULL: a ring for a kernel consumer, never mapped. */
int mrc_ring_create(struct mrc_ring *ring, u32 min_slots, u32 slot_size,
		    struct ib_ucontext *ucontext, struct mrc_ring_info *info);
void mrc_ring_destroy(struct mrc_ring *ring);

static inline void *mrc_ring_slot(struct mrc_ring *ring, u32 index)
{
	return ring->slots + (size_t)(index & (ring->num_slots - 1)) *
			     ring->slot_size;
}

/*
 * Entries the other side has produced past @consumed, or -1 when its index
 * claims more than the ring holds (a buggy or hostile producer).
 */
static inline s64 mrc_ring_produced(struct mrc_ring *ring, u32 consumed)
{
	/* Acquire: the slots up to the index are written before it. */
	u32 produced = smp_load_acquire(&ring->indices->producer) - consumed;

	return produced > ring->num_slots ? -1 : produced;
}

static inline void mrc_ring_publish_consumer(struct mrc_ring *ring, u32 index)
{
	/* Release: we are done reading the slots before handing them back. */
	smp_store_release(&ring->indices->consumer, index);
}

/* Free slots for a producer at @produced, or -1 for a bogus consumer. */
static inline s64 mrc_ring_free(struct mrc_ring *ring, u32 produced)
{
	/* Acquire: the consumer finished with the slots it handed back. */
	u32 used = produced - smp_load_acquire(&ring->indices->consumer);

	return used > ring->num_slots ? -1 : ring->num_slots - used;
}

static inline void mrc_ring_publish_producer(struct mrc_ring *ring, u32 index)
{
	/* Release: the slot contents are visible before the new index. */
	smp_store_release(&ring->indices->producer, index);
}

/*
 * Kernel consumers' post_recv and post_srq_recv: writes receive requests
 * into @ring, whose slots up to index @completed are free. On error *@wr is
 * the request that failed.
 */
int mrc_ring_post_recvs(struct mrc_ring *ring, u32 completed, u32 max_sge,
			const struct ib_recv_wr **wr);

int mrc_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma);
void mrc_mmap_free(struct rdma_user_mmap_entry *rdma_entry);

#endif /* MRC_RING_H */
