// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Compiled once per layout (-DMRC_VERBS_LAYOUT=N -DABI_LAYOUT_SEEN=
 * abi_layout_N): records what verbs_provider_abi.h declares for it. Only
 * types and offsets are taken, so nothing here links against libibverbs.
 */
#include "verbs_provider_abi.h"
#include "abi_layout.h"

/* The two prototypes of each function that changed, written out here. */
typedef int get_context_fd_arr_fn(struct verbs_context *,
				  struct verbs_cmd_get_context *, size_t,
				  struct ibv_fd_arr *,
				  struct ib_uverbs_get_context_resp *, size_t);
typedef int get_context_fn(struct verbs_context *,
			   struct verbs_cmd_get_context *, size_t,
			   struct ib_uverbs_get_context_resp *, size_t);
typedef int create_cq_ex_prov_attr_fn(struct ibv_context *,
				      const struct ibv_cq_init_attr_ex *,
				      struct verbs_create_cq_prov_attr *,
				      struct verbs_cq *,
				      struct verbs_cmd_create_cq_ex *, size_t,
				      struct ib_uverbs_ex_create_cq_resp *,
				      size_t, uint32_t);
typedef int create_cq_ex_fn(struct ibv_context *,
			    const struct ibv_cq_init_attr_ex *,
			    struct verbs_cq *, struct verbs_cmd_create_cq_ex *,
			    size_t, struct ib_uverbs_ex_create_cq_resp *,
			    size_t, uint32_t);

/* Unchanged from 36 to 65. */
typedef int resize_cq_fn(struct ibv_cq *, int, struct verbs_cmd_resize_cq *,
			 size_t, struct ib_uverbs_resize_cq_resp *, size_t);

#define SAME_TYPE(a, b) __builtin_types_compatible_p(a, b)
#define OP_SEEN(name, type)						\
	[ABI_OP_##name] = {						\
		#name,							\
		offsetof(struct verbs_context_ops, name) / sizeof(void *), \
		SAME_TYPE(__typeof__(((struct verbs_context_ops *)0)->name), \
			  type),					\
	},

const struct abi_layout_seen ABI_LAYOUT_SEEN = {
	.layout = MRC_VERBS_LAYOUT,
	.pabi = MRC_VERBS_PABI,
	.slots = sizeof(struct verbs_context_ops) / sizeof(void *),
	.last_slot = offsetof(struct verbs_context_ops, unimport_pd) /
		     sizeof(void *),
	.register_function = VERBS_ABI_STR(verbs_register_driver),
	.get_context_with_fd_arr =
		SAME_TYPE(__typeof__(ibv_cmd_get_context),
			  get_context_fd_arr_fn),
	.get_context_without_fd_arr =
		SAME_TYPE(__typeof__(ibv_cmd_get_context), get_context_fn),
	.create_cq_ex_with_prov_attr =
		SAME_TYPE(__typeof__(ibv_cmd_create_cq_ex),
			  create_cq_ex_prov_attr_fn),
	.create_cq_ex_without_prov_attr =
		SAME_TYPE(__typeof__(ibv_cmd_create_cq_ex), create_cq_ex_fn),
	.resize_cq_prototype_ok =
		SAME_TYPE(__typeof__(ibv_cmd_resize_cq), resize_cq_fn),
	.ops = { ABI_SET_OPS(OP_SEEN) },
};
