/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What abi_layout.c finds in verbs_provider_abi.h when compiled for one
 * layout, for abi_layout_test.c to compare with its table.
 */
#ifndef MRC_ABI_LAYOUT_H
#define MRC_ABI_LAYOUT_H

#include <stddef.h>

/*
 * The context ops the provider sets, with the prototype each must have.
 * rdma-core never changed the prototype of these slots (36 to 65), so one
 * type serves every layout.
 */
#define ABI_SET_OPS(X)							\
	X(alloc_pd, struct ibv_pd *(*)(struct ibv_context *))		\
	X(create_ah, struct ibv_ah *(*)(struct ibv_pd *,		\
					struct ibv_ah_attr *))		\
	X(create_cq, struct ibv_cq *(*)(struct ibv_context *, int,	\
					struct ibv_comp_channel *, int)) \
	X(create_cq_ex, struct ibv_cq_ex *(*)(struct ibv_context *,	\
					struct ibv_cq_init_attr_ex *))	\
	X(create_qp, struct ibv_qp *(*)(struct ibv_pd *,		\
					struct ibv_qp_init_attr *))	\
	X(create_qp_ex, struct ibv_qp *(*)(struct ibv_context *,	\
					struct ibv_qp_init_attr_ex *))	\
	X(create_srq, struct ibv_srq *(*)(struct ibv_pd *,		\
					struct ibv_srq_init_attr *))	\
	X(dealloc_pd, int (*)(struct ibv_pd *))				\
	X(dereg_mr, int (*)(struct verbs_mr *))				\
	X(destroy_ah, int (*)(struct ibv_ah *))				\
	X(destroy_cq, int (*)(struct ibv_cq *))				\
	X(destroy_qp, int (*)(struct ibv_qp *))				\
	X(destroy_srq, int (*)(struct ibv_srq *))			\
	X(free_context, void (*)(struct ibv_context *))			\
	X(modify_qp, int (*)(struct ibv_qp *, struct ibv_qp_attr *, int)) \
	X(modify_srq, int (*)(struct ibv_srq *, struct ibv_srq_attr *, int)) \
	X(poll_cq, int (*)(struct ibv_cq *, int, struct ibv_wc *))	\
	X(post_recv, int (*)(struct ibv_qp *, struct ibv_recv_wr *,	\
			     struct ibv_recv_wr **))			\
	X(post_send, int (*)(struct ibv_qp *, struct ibv_send_wr *,	\
			     struct ibv_send_wr **))			\
	X(post_srq_recv, int (*)(struct ibv_srq *, struct ibv_recv_wr *, \
				 struct ibv_recv_wr **))		\
	X(query_device_ex, int (*)(struct ibv_context *,		\
				const struct ibv_query_device_ex_input *, \
				struct ibv_device_attr_ex *, size_t))	\
	X(query_port, int (*)(struct ibv_context *, uint8_t,		\
			      struct ibv_port_attr *))			\
	X(query_qp, int (*)(struct ibv_qp *, struct ibv_qp_attr *, int,	\
			    struct ibv_qp_init_attr *))			\
	X(query_srq, int (*)(struct ibv_srq *, struct ibv_srq_attr *))	\
	X(reg_mr, struct ibv_mr *(*)(struct ibv_pd *, void *, size_t,	\
				     uint64_t, int))			\
	X(req_notify_cq, int (*)(struct ibv_cq *, int))			\
	X(resize_cq, int (*)(struct ibv_cq *, int))

#define ABI_OP_ENUM(name, type) ABI_OP_##name,
enum { ABI_SET_OPS(ABI_OP_ENUM) ABI_OP_COUNT };

struct abi_op_seen {
	const char *name;
	size_t slot;		/* offset in struct verbs_context_ops / 8 */
	int prototype_ok;	/* the slot has the type above */
};

struct abi_layout_seen {
	int layout;		/* MRC_VERBS_LAYOUT */
	int pabi;		/* MRC_VERBS_PABI */
	size_t slots;		/* sizeof(struct verbs_context_ops) / 8 */
	size_t last_slot;	/* slot of unimport_pd */
	const char *register_function;
	/* Which of the two prototypes each changed function has. */
	int get_context_with_fd_arr;
	int get_context_without_fd_arr;
	int create_cq_ex_with_prov_attr;
	int create_cq_ex_without_prov_attr;
	/* ibv_cmd_resize_cq() has its one prototype. */
	int resize_cq_prototype_ok;
	struct abi_op_seen ops[ABI_OP_COUNT];
};

extern const struct abi_layout_seen abi_layout_36, abi_layout_57,
	abi_layout_59, abi_layout_62, abi_layout_64, abi_layout_65;

#endif /* MRC_ABI_LAYOUT_H */
