// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The layouts of libibverbs' private provider ABI that verbs_provider_abi.h
 * declares, against a table written separately from rdma-core's history
 * (libibverbs/driver.h, libibverbs.map.in and CMakeLists.txt of each
 * release tag, 36.0 to 65.0): the version node, the number of
 * verbs_context_ops slots, the slot of every op the provider sets and its
 * prototype, and the prototypes of the two functions that changed. Then
 * check-abi.sh's choice of layout for each rdma-core release.
 *
 * Most layouts are built by no libibverbs installed here (only 36 on
 * Debian 12 and 13, 65 on sid), so this is what catches a slot counted
 * wrong in them.
 */
#include <stdio.h>
#include <string.h>

#include "abi_layout.h"
#include "ktap.h"

#define NO_SLOT ((size_t)-1)

struct layout_fact {
	int layout;
	int pabi;
	size_t slots;
	const char *register_function;
	int get_context_fd_arr;		/* since 57 */
	int create_cq_ex_prov_attr;	/* since 59 */
	/* indexed by ABI_OP_* */
	size_t slot[ABI_OP_COUNT];
};

/*
 * Slots, counted from 0 in each release's alphabetical list: 59 inserted
 * alloc_dmah, dealloc_dmah and reg_mr_ex; 62 dm_export_dmabuf_fd and
 * query_port_speed; 64 alloc_buf and free_buf; 65 create_comp_cntr,
 * destroy_comp_cntr, inc_comp_cntr, inc_err_comp_cntr,
 * qp_attach_comp_cntr, query_comp_cntr_caps, read_comp_cntr,
 * read_err_comp_cntr, set_comp_cntr and set_err_comp_cntr.
 */
#define SLOTS(alloc_pd, create_ah, create_cq, create_cq_ex, create_qp,	\
	      create_qp_ex, create_srq, dealloc_pd, dereg_mr, destroy_ah,	\
	      destroy_cq, destroy_qp, destroy_srq, free_context, modify_qp, \
	      modify_srq, poll_cq, post_recv, post_send, post_srq_recv,	\
	      query_device_ex, query_port, query_qp, query_srq, reg_mr,	\
	      req_notify_cq, resize_cq)					\
	{								\
		[ABI_OP_alloc_pd] = alloc_pd,				\
		[ABI_OP_create_ah] = create_ah,				\
		[ABI_OP_create_cq] = create_cq,				\
		[ABI_OP_create_cq_ex] = create_cq_ex,			\
		[ABI_OP_create_qp] = create_qp,				\
		[ABI_OP_create_qp_ex] = create_qp_ex,			\
		[ABI_OP_create_srq] = create_srq,			\
		[ABI_OP_dealloc_pd] = dealloc_pd,			\
		[ABI_OP_dereg_mr] = dereg_mr,				\
		[ABI_OP_destroy_ah] = destroy_ah,			\
		[ABI_OP_destroy_cq] = destroy_cq,			\
		[ABI_OP_destroy_qp] = destroy_qp,			\
		[ABI_OP_destroy_srq] = destroy_srq,			\
		[ABI_OP_free_context] = free_context,			\
		[ABI_OP_modify_qp] = modify_qp,				\
		[ABI_OP_modify_srq] = modify_srq,			\
		[ABI_OP_poll_cq] = poll_cq,				\
		[ABI_OP_post_recv] = post_recv,				\
		[ABI_OP_post_send] = post_send,				\
		[ABI_OP_post_srq_recv] = post_srq_recv,			\
		[ABI_OP_query_device_ex] = query_device_ex,		\
		[ABI_OP_query_port] = query_port,			\
		[ABI_OP_query_qp] = query_qp,				\
		[ABI_OP_query_srq] = query_srq,				\
		[ABI_OP_reg_mr] = reg_mr,				\
		[ABI_OP_req_notify_cq] = req_notify_cq,			\
		[ABI_OP_resize_cq] = resize_cq,				\
	}

static const struct layout_fact facts[] = {
	{ 36, 34, 76, "verbs_register_driver_34", 0, 0,
	  SLOTS(5, 13, 15, 16, 19, 20, 22, 26, 28, 29, 31, 34, 36, 39, 47,
		49, 53, 54, 55, 57, 58, 60, 61, 64, 68, 69, 71) },
	{ 57, 57, 76, "verbs_register_driver_57", 1, 0,
	  SLOTS(5, 13, 15, 16, 19, 20, 22, 26, 28, 29, 31, 34, 36, 39, 47,
		49, 53, 54, 55, 57, 58, 60, 61, 64, 68, 69, 71) },
	{ 59, 59, 79, "verbs_register_driver_59", 1, 1,
	  SLOTS(6, 14, 16, 17, 20, 21, 23, 28, 30, 31, 33, 36, 38, 41, 49,
		51, 55, 56, 57, 59, 60, 62, 63, 66, 70, 72, 74) },
	{ 62, 59, 81, "verbs_register_driver_59", 1, 1,
	  SLOTS(6, 14, 16, 17, 20, 21, 23, 28, 30, 31, 33, 36, 38, 42, 50,
		52, 56, 57, 58, 60, 61, 63, 65, 68, 72, 74, 76) },
	{ 64, 64, 83, "verbs_register_driver_64", 1, 1,
	  SLOTS(7, 15, 17, 18, 21, 22, 24, 29, 31, 32, 34, 37, 39, 44, 52,
		54, 58, 59, 60, 62, 63, 65, 67, 70, 74, 76, 78) },
	{ 65, 65, 93, "verbs_register_driver_65", 1, 1,
	  SLOTS(7, 15, 18, 19, 22, 23, 25, 30, 32, 33, 36, 39, 41, 46, 56,
		58, 62, 63, 64, 66, 69, 71, 73, 76, 82, 84, 86) },
};

static void check_layout(const struct layout_fact *f,
			 const struct abi_layout_seen *seen)
{
	int i;

	CHECK_EQ(seen->layout, f->layout);
	CHECK_EQ(seen->pabi, f->pabi);
	CHECK_EQ(seen->slots, f->slots);
	CHECK_EQ(seen->last_slot, f->slots - 1);
	if (strcmp(seen->register_function, f->register_function)) {
		printf("# layout %d registers with %s, expected %s\n",
		       f->layout, seen->register_function,
		       f->register_function);
		ktap_case_failed = 1;
	}
	CHECK_EQ(seen->get_context_with_fd_arr, f->get_context_fd_arr);
	CHECK_EQ(seen->get_context_without_fd_arr, !f->get_context_fd_arr);
	CHECK_EQ(seen->create_cq_ex_with_prov_attr, f->create_cq_ex_prov_attr);
	CHECK_EQ(seen->create_cq_ex_without_prov_attr,
		 !f->create_cq_ex_prov_attr);
	CHECK(seen->resize_cq_prototype_ok);
	for (i = 0; i < ABI_OP_COUNT; i++) {
		if (seen->ops[i].slot != f->slot[i])
			printf("# layout %d: %s in slot %zu, expected %zu\n",
			       f->layout, seen->ops[i].name, seen->ops[i].slot,
			       f->slot[i]);
		if (!seen->ops[i].prototype_ok)
			printf("# layout %d: %s has another prototype\n",
			       f->layout, seen->ops[i].name);
		CHECK(seen->ops[i].slot == f->slot[i]);
		CHECK(seen->ops[i].prototype_ok);
	}
}

#define LAYOUT_CASE(n)							\
	static void layout_##n##_matches_rdma_core(void)		\
	{								\
		size_t i;						\
									\
		for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)	\
			if (facts[i].layout == n)			\
				check_layout(&facts[i], &abi_layout_##n); \
	}
LAYOUT_CASE(36)
LAYOUT_CASE(57)
LAYOUT_CASE(59)
LAYOUT_CASE(62)
LAYOUT_CASE(64)
LAYOUT_CASE(65)

/*
 * check-abi.sh's choice: rdma-core release and the version node it must
 * export -> layout, node number and slots; anything else refused.
 */
static const struct {
	int first, last;	/* releases */
	const char *layout;	/* what check-abi.sh layout prints */
	const char *node;
} releases[] = {
	{ 34, 35, NULL, "IBVERBS_PRIVATE_34" },
	{ 36, 56, "36 34 76", "IBVERBS_PRIVATE_34" },
	{ 57, 58, "57 57 76", "IBVERBS_PRIVATE_57" },
	{ 59, 61, "59 59 79", "IBVERBS_PRIVATE_59" },
	{ 62, 63, "62 59 81", "IBVERBS_PRIVATE_59" },
	{ 64, 64, "64 64 83", "IBVERBS_PRIVATE_64" },
	{ 65, 65, "65 65 93", "IBVERBS_PRIVATE_65" },
	{ 66, 67, NULL, "IBVERBS_PRIVATE_66" },
};

static int check_abi_layout(int release, const char *node, char *out,
			    size_t size)
{
	char cmd[256];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd),
		 "sh " CHECK_ABI " layout %d.0 '%s' 2>&1", release, node);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	if (n && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return pclose(p);
}

static void check_abi_picks_the_layout_of_each_release(void)
{
	char out[512];
	size_t i;
	int r, status;

	for (i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		for (r = releases[i].first; r <= releases[i].last; r++) {
			status = check_abi_layout(r, releases[i].node, out,
						  sizeof(out));
			if (releases[i].layout) {
				if (status || strcmp(out, releases[i].layout))
					printf("# %d.0 %s: '%s', expected '%s'\n",
					       r, releases[i].node, out,
					       releases[i].layout);
				CHECK(status == 0);
				CHECK(!strcmp(out, releases[i].layout));
			} else {
				/* One line, naming the release and range. */
				if (!status || !strstr(out, "36 to 65") ||
				    strchr(out, '\n'))
					printf("# %d.0 not refused right: '%s'\n",
					       r, out);
				CHECK(status != 0);
				CHECK(strstr(out, "36 to 65") != NULL);
				CHECK(strchr(out, '\n') == NULL);
			}
		}
	}
}

static void check_abi_refuses_a_wrong_version_node(void)
{
	static const struct {
		int release;
		const char *node;
	} wrong[] = {
		{ 44, "IBVERBS_PRIVATE_57" },
		{ 57, "IBVERBS_PRIVATE_34" },
		/* 62 kept 59's node: another one is not 62. */
		{ 62, "IBVERBS_PRIVATE_62" },
		{ 63, "IBVERBS_PRIVATE_64" },
		{ 65, "IBVERBS_PRIVATE_64" },
		{ 60, "IBVERBS_PRIVATE_59 IBVERBS_PRIVATE_34" },
	};
	char out[512];
	size_t i;

	for (i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		int status = check_abi_layout(wrong[i].release, wrong[i].node,
					      out, sizeof(out));

		if (!status)
			printf("# %d.0 with %s accepted: '%s'\n",
			       wrong[i].release, wrong[i].node, out);
		CHECK(status != 0);
	}
}

static const struct ktap_case cases[] = {
	KTAP_CASE(layout_36_matches_rdma_core),
	KTAP_CASE(layout_57_matches_rdma_core),
	KTAP_CASE(layout_59_matches_rdma_core),
	KTAP_CASE(layout_62_matches_rdma_core),
	KTAP_CASE(layout_64_matches_rdma_core),
	KTAP_CASE(layout_65_matches_rdma_core),
	KTAP_CASE(check_abi_picks_the_layout_of_each_release),
	KTAP_CASE(check_abi_refuses_a_wrong_version_node),
};

KTAP_MAIN("provider_abi_layout", cases)
