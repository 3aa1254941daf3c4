/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A stand-in for libibverbs and the mrc device, for lib_mrc's unit tests:
 * the ibv_* functions lib_mrc calls, over objects in ordinary memory. Sends
 * and receives wait until the test completes them; the test can make the
 * device look like another vendor's and make a post fail part-way.
 */
#ifndef LIB_MRC_FAKE_VERBS_H
#define LIB_MRC_FAKE_VERBS_H

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <rdma/mrc-abi.h>

#define FAKE_MAX_WR	256
#define FAKE_CQ_DEPTH	1024

struct fake_wr {
	uint64_t wr_id;
	bool signaled;
	bool done;
	enum ibv_wr_opcode opcode;
};

struct fake_qp {
	struct ibv_qp qp;
	struct ibv_qp_attr attr;	/* as the last modify left it */
	int last_mask;
	struct ibv_qp_attr last_attr;
	/* The MRC attributes of the last modify through the provider entry. */
	struct mrc_modify_qp_mrc last_mrc;
	int mrc_modifies;
	bool sq_sig_all;
	struct fake_wr send[FAKE_MAX_WR];
	int num_send;
	struct fake_wr recv[FAKE_MAX_WR];
	int num_recv;
};

struct fake_cq {
	struct ibv_cq cq;
	struct ibv_wc wc[FAKE_CQ_DEPTH];
	int head, tail;
	int armed;
};

struct fake_device {
	struct ibv_context ctx;
	struct ibv_pd pd;
	uint32_t vendor_id;
	uint32_t vendor_part_id;
	int live_cqs, live_qps, live_channels;
	/* the index of the send request the device refuses, or -1 */
	int post_send_fail_at;
	int async_acks;
	int cq_event_acks;
	/* References lib_mrc holds on the provider (mrc_provider_get()). */
	int provider_refs;
};

extern struct fake_device fake;
extern struct fake_device fake_other;	/* a second device */

void fake_reset(void);
struct fake_qp *fake_qp_of(struct ibv_qp *qp);
struct fake_cq *fake_cq_of(struct ibv_cq *cq);
/* Completes the first @n outstanding sends; signalled ones (or all, on error) complete. */
void fake_complete_sends(struct ibv_qp *qp, int n, enum ibv_wc_status status);
/* The oldest outstanding receive consumed by a WRITE with immediate. */
void fake_complete_recv(struct ibv_qp *qp, uint32_t imm, uint32_t byte_len);
void fake_push_async_event(struct ibv_async_event ev);
void fake_push_cq_event(struct ibv_cq *cq);

#endif /* LIB_MRC_FAKE_VERBS_H */
