// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Allocation and mapping of the rings shared with userspace.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <rdma/uverbs_ioctl.h>

#include "mrc_compat.h"
#include "mrc_ring.h"

int mrc_ring_ucontext(struct ib_udata *udata, size_t resp_len,
		      struct ib_ucontext **ucontext)
{
	struct uverbs_attr_bundle *attrs;

	*ucontext = NULL;
	if (!udata)
		return 0;
	if (udata->outlen < resp_len)
		return -EINVAL;
	attrs = rdma_udata_to_uverbs_attr_bundle(udata);
	*ucontext = attrs->context;
	return 0;
}

int mrc_ring_create(struct mrc_ring *ring, u32 min_slots, u32 slot_size,
		    struct ib_ucontext *ucontext, struct mrc_ring_info *info)
{
	struct mrc_mmap_entry *entry;
	int err;

	if (!min_slots || !is_power_of_2(slot_size))
		return -EINVAL;

	memset(ring, 0, sizeof(*ring));
	ring->num_slots = roundup_pow_of_two(min_slots);
	ring->slot_size = slot_size;
	ring->bytes = PAGE_ALIGN(sizeof(struct mrc_ring_indices) +
				 (size_t)ring->num_slots * slot_size);

	/* vmalloc_user() zeroes and marks the area mappable to userspace. */
	ring->indices = vmalloc_user(ring->bytes);
	if (!ring->indices)
		return -ENOMEM;
	ring->slots = (u8 *)(ring->indices + 1);

	if (!ucontext)
		return 0;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry) {
		err = -ENOMEM;
		goto err_free;
	}
	entry->vaddr = ring->indices;

	err = rdma_user_mmap_entry_insert(ucontext, &entry->rdma_entry,
					  ring->bytes);
	if (err) {
		kfree(entry);
		goto err_free;
	}
	ring->mmap = entry;

	memset(info, 0, sizeof(*info));
	info->mmap_offset = rdma_user_mmap_get_offset(&entry->rdma_entry);
	info->mmap_length = ring->bytes;
	info->num_slots = ring->num_slots;
	info->slot_size = ring->slot_size;
	return 0;

err_free:
	vfree(ring->indices);
	ring->indices = NULL;
	return err;
}

/*
 * A mapped ring's memory now belongs to its mmap entry: removing the entry
 * drops our reference, and mrc_mmap_free() frees the memory once userspace
 * has unmapped it too.
 */
void mrc_ring_destroy(struct mrc_ring *ring)
{
	if (!ring->indices)
		return;
	if (ring->mmap)
		rdma_user_mmap_entry_remove(&ring->mmap->rdma_entry);
	else
		vfree(ring->indices);
	ring->indices = NULL;
	ring->slots = NULL;
	ring->mmap = NULL;
}

int mrc_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct mrc_mmap_entry *entry;
	size_t length = vma->vm_end - vma->vm_start;
	int err;

	rdma_entry = rdma_user_mmap_entry_get(ibuc, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct mrc_mmap_entry, rdma_entry);

	if (length > rdma_entry->npages << PAGE_SHIFT) {
		err = -EINVAL;
		goto out;
	}
	/* Rings are data, never code. */
	if (vma->vm_flags & VM_EXEC) {
		err = -EPERM;
		goto out;
	}
	vm_flags_clear(vma, VM_MAYEXEC);

	err = remap_vmalloc_range(vma, entry->vaddr, 0);
out:
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

void mrc_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	struct mrc_mmap_entry *entry =
		container_of(rdma_entry, struct mrc_mmap_entry, rdma_entry);

	vfree(entry->vaddr);
	kfree(entry);
}

int mrc_ring_post_recvs(struct mrc_ring *ring, u32 completed, u32 max_sge,
			const struct ib_recv_wr **wr)
{
	u32 produced = ring->indices->producer, i;
	struct mrc_recv_wqe *wqe;

	for (; *wr; *wr = (*wr)->next) {
		if ((*wr)->num_sge > max_sge)
			return -EINVAL;
		if (produced - completed >= ring->num_slots)
			return -ENOMEM;
		wqe = mrc_ring_slot(ring, produced);
		wqe->wr_id = (*wr)->wr_id;
		wqe->num_sge = (*wr)->num_sge;
		wqe->reserved = 0;
		for (i = 0; i < (*wr)->num_sge; i++) {
			wqe->sge[i].addr = (*wr)->sg_list[i].addr;
			wqe->sge[i].length = (*wr)->sg_list[i].length;
			wqe->sge[i].lkey = (*wr)->sg_list[i].lkey;
		}
		mrc_ring_publish_producer(ring, ++produced);
	}
	return 0;
}
