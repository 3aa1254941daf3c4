/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lib_mrc's private objects: what each opaque handle of mrc.h is, and the
 * helpers its source files share. Not installed.
 */
#ifndef LIB_MRC_PRIVATE_H
#define LIB_MRC_PRIVATE_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "mrc.h"
#include "../mrc_provider_api.h"

#define MRC_EXPORT __attribute__((visibility("default")))

/*
 * How libibverbs tells an mrc device from another: the kernel module's
 * vendor ids (drivers/infiniband/sw/mrc/mrc_param.h).
 */
#define MRC_LIB_VENDOR_ID	0xffffff
#define MRC_LIB_VENDOR_PART_ID	0x4d52

/*
 * The requester's PSN window and the responder's reordering window are one
 * fixed size in the kernel (MRC_REQ_WINDOW = MRC_RX_WINDOW = 1024 PSNs):
 * MPR 8 in units of 128, allocated whole.
 */
#define MRC_LIB_MPR		8
#define MRC_LIB_MAX_QP_HINTS	1024

/* The port every mrc device has (one netdev, or one bond of planes). */
#define MRC_LIB_PORT		1

/* Defaults of a QP whose program sets no MRC timeout or retries. */
#define MRC_LIB_DEFAULT_TIMEOUT	16	/* 1.024 us << 16 = 67 ms */
#define MRC_LIB_DEFAULT_LINEAR	7
#define MRC_LIB_MAX_TIMEOUT	24
#define MRC_LIB_MAX_LINEAR	7
#define MRC_LIB_MAX_EXP		25
_Static_assert(MRC_LIB_MAX_EXP == MRC_EXP_RETRY_FOREVER,
	       "the API's and the kernel's endless exponential stage differ");

#define MRC_LIB_QP_BUCKETS	256

struct mrc_context {
	struct ibv_context *vctx;
	uint32_t api_version;
	uint32_t vendor_api_version;
	struct mrc_device_attr dev_attr;

	/* Counts of live children, for EBUSY; under lock. */
	pthread_mutex_t lock;
	unsigned int num_channels;
	unsigned int num_cqs;
	unsigned int num_hints;
	unsigned int num_qps;
	struct mrc_cq *cqs;		/* to recognise async events' CQs */

	/* QPs by number: completions and events name them so. */
	pthread_rwlock_t qp_table_lock;
	struct mrc_qp *qp_table[MRC_LIB_QP_BUCKETS];

	/* The controller API's state (mrc_ctl_lib.h), made on first use. */
	struct mrc_ctl_state *ctl;

	/*
	 * The provider's entry that carries the MRC attributes the kernel
	 * takes (mrc_provider.c); NULL with a provider too old to have it,
	 * and then those attributes are EOPNOTSUPP.
	 */
	mrc_provider_modify_qp_mrc_fn modify_qp_mrc;
	void *provider;		/* its dlopen() handle, released at destroy */
};

struct mrc_comp_channel {
	struct mrc_context *ctx;
	struct ibv_comp_channel *channel;
	unsigned int num_cqs;		/* under ctx->lock */
	/*
	 * An EV event CQ's channel serves it alone: its file descriptor is
	 * the event socket's (mrc_ctl_ev_event.c). Under ctx->lock.
	 */
	struct mrc_cq *ev_cq;
};

struct mrc_ctl_evq;

struct mrc_cq {
	struct mrc_context *ctx;
	struct ibv_cq *cq;		/* its cq_context is this mrc_cq */
	struct mrc_comp_channel *channel;
	void *cq_context;		/* the program's */
	unsigned int num_qps;		/* under ctx->lock */
	struct mrc_cq *next;		/* in ctx->cqs */
	/* An EV event CQ: no verbs CQ (@cq NULL), not in ctx->cqs. */
	struct mrc_ctl_evq *evq;
};

struct mrc_qp_hint {
	struct mrc_context *ctx;
	struct mrc_qp_hint_attr attr;
	unsigned int num_qps;		/* under ctx->lock */
};

/*
 * One posted work request as the library remembers it: the program's
 * wr_id (the device carries a tag instead) and whether it is a WRITE with
 * immediate, counted in flight until its completion or a later one.
 */
struct mrc_wr_slot {
	uint64_t wr_id;
	bool wimm;
};

/*
 * Posted requests in order. Indices run freely; a completion of index i
 * retires every request up to i, which is what an RC queue's in-order
 * completion means for requests that were not signalled.
 */
struct mrc_wr_ring {
	struct mrc_wr_slot *slots;
	uint32_t num_slots;		/* a power of two */
	uint32_t head;			/* next to post */
	uint32_t tail;			/* oldest not completed */
	uint32_t wimm_in_flight;
};

struct mrc_qp {
	struct mrc_context *ctx;
	struct ibv_qp *qp;
	uint32_t qpn;			/* outlives qp, for the table */
	struct mrc_qp_init_attr init_attr;	/* with the granted cap */
	struct mrc_qp_attr attr;		/* MRC attributes in force */
	struct mrc_qp_hint *hint;

	pthread_spinlock_t lock;	/* the rings */
	struct mrc_wr_ring send;
	struct mrc_wr_ring recv;

	struct mrc_qp *hash_next;	/* under ctx->qp_table_lock */
};

/* Work request tags: which ring, and the index in it. */
#define MRC_TAG_SEND	(1ull << 32)
#define MRC_TAG_RECV	(2ull << 32)
#define MRC_TAG_KIND	(3ull << 32)

static inline uint64_t mrc_tag(uint64_t kind, uint32_t index)
{
	return kind | index;
}

/* Sets errno and returns -1. */
static inline int mrc_fail(int err)
{
	errno = err;
	return -1;
}

/* Sets errno and returns it, as libibverbs' errno-returning calls do. */
static inline int mrc_fail_errno(int err)
{
	errno = err;
	return err;
}

/* mrc_ctl_ev_event.c: the EV event CQ's side of the CQ calls. */
int mrc_ctl_ev_cq_destroy(struct mrc_cq *cq);
int mrc_ctl_ev_cq_fd(const struct mrc_cq *cq);
/* Waits for events on @cq (its channel's mrc_get_cq_event()); 0 or -1. */
int mrc_ctl_ev_cq_wait(struct mrc_cq *cq);

/* mrc_device_query.c */
int mrc_fill_device_attr(struct ibv_context *vctx,
			 struct mrc_device_attr *attr, int *supported);

/* mrc_version.c */
int mrc_check_version(uint32_t used, uint32_t current, uint32_t oldest,
		      uint32_t *chosen);

/* mrc_wr_ring.c */
int mrc_wr_ring_init(struct mrc_wr_ring *ring, uint32_t min_slots);
void mrc_wr_ring_free(struct mrc_wr_ring *ring);
uint32_t mrc_wr_ring_free_slots(const struct mrc_wr_ring *ring);
uint32_t mrc_wr_ring_push(struct mrc_wr_ring *ring, uint64_t wr_id, bool wimm);
void mrc_wr_ring_unpush(struct mrc_wr_ring *ring, uint32_t from);
bool mrc_wr_ring_complete(struct mrc_wr_ring *ring, uint32_t index,
			  uint64_t *wr_id);

/* mrc_qp_attr.c */
struct mrc_qp_transition {
	enum ibv_qp_state cur;
	enum ibv_qp_state next;
};
bool mrc_qp_attr_mask_known(int mask);
int mrc_qp_attr_check(const struct mrc_qp *qp, const struct mrc_qp_attr *attr,
		      int mask, struct mrc_qp_transition t);
uint32_t mrc_qp_mpr_granted(const struct mrc_context *ctx, uint32_t mpr);
void mrc_qp_attr_apply(struct mrc_qp_attr *to, const struct mrc_qp_attr *from,
		       int mask);
uint8_t mrc_timeout_to_ib(uint8_t mrc_timeout);

/* mrc_ctl_state.c */
void mrc_ctl_state_free(struct mrc_ctl_state *st);

/* mrc_qp.c */
/*
 * The provider's lib_mrc entry for @vctx (mrc_provider_api.h), and a
 * handle that keeps the provider loaded, for mrc_provider_put(); NULL if
 * the provider has none. The unit tests supply their own.
 */
mrc_provider_modify_qp_mrc_fn mrc_provider_get(struct ibv_context *vctx,
						void **handle);
void mrc_provider_put(void *handle);
/* Whether @vctx's provider has that entry. */
bool mrc_kernel_takes_attrs(struct ibv_context *vctx);

struct mrc_qp *mrc_qp_lookup_locked(struct mrc_context *ctx, uint32_t qpn);
struct mrc_qp *mrc_qp_lookup(struct mrc_context *ctx, uint32_t qpn);

#endif /* LIB_MRC_PRIVATE_H */
