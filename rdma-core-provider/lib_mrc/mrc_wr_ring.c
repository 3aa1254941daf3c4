// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the per-queue record of posted work requests (struct
 * mrc_wr_ring). It gives completions back the program's wr_id, and counts
 * WRITE with immediate requests in flight for the requester's WIMM limit.
 * Plain memory only; the caller holds the QP's lock.
 */
#include <stdlib.h>

#include "mrc_lib.h"

int mrc_wr_ring_init(struct mrc_wr_ring *ring, uint32_t min_slots)
{
	uint32_t n = 1;

	while (n < min_slots && n < (1u << 30))
		n <<= 1;
	ring->slots = calloc(n, sizeof(*ring->slots));
	if (!ring->slots)
		return ENOMEM;
	ring->num_slots = n;
	ring->head = 0;
	ring->tail = 0;
	ring->wimm_in_flight = 0;
	return 0;
}

void mrc_wr_ring_free(struct mrc_wr_ring *ring)
{
	free(ring->slots);
	ring->slots = NULL;
}

uint32_t mrc_wr_ring_free_slots(const struct mrc_wr_ring *ring)
{
	return ring->num_slots - (ring->head - ring->tail);
}

/* Records a request; returns its index. The caller checked for room. */
uint32_t mrc_wr_ring_push(struct mrc_wr_ring *ring, uint64_t wr_id, bool wimm)
{
	uint32_t index = ring->head++;
	struct mrc_wr_slot *slot = &ring->slots[index & (ring->num_slots - 1)];

	slot->wr_id = wr_id;
	slot->wimm = wimm;
	if (wimm)
		ring->wimm_in_flight++;
	return index;
}

/* Forgets the requests from index @from on: the device did not take them. */
void mrc_wr_ring_unpush(struct mrc_wr_ring *ring, uint32_t from)
{
	while (ring->head != from) {
		ring->head--;
		if (ring->slots[ring->head & (ring->num_slots - 1)].wimm)
			ring->wimm_in_flight--;
	}
}

/*
 * The completion of request @index: retires it and every older one, and
 * gives its wr_id. False for an index not outstanding (a stale tag).
 */
bool mrc_wr_ring_complete(struct mrc_wr_ring *ring, uint32_t index,
			  uint64_t *wr_id)
{
	if (index - ring->tail >= ring->head - ring->tail)
		return false;
	*wr_id = ring->slots[index & (ring->num_slots - 1)].wr_id;
	while (ring->tail != index + 1) {
		if (ring->slots[ring->tail & (ring->num_slots - 1)].wimm)
			ring->wimm_in_flight--;
		ring->tail++;
	}
	return true;
}
