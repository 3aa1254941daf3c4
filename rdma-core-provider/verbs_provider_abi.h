/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The libibverbs provider ABI, as far as soft-MRC uses it.
 *
 * rdma-core does not install the header that describes its provider ABI
 * (libibverbs/driver.h and kern-abi.h are internal to the rdma-core tree),
 * so an out-of-tree provider has to declare that ABI itself. These are our
 * own declarations, written from the rdma-core sources; they are meant to be
 * checked, not trusted, hence the asserts at the end of this file.
 *
 * Which rdma-core releases this matches
 * -------------------------------------
 * rdma-core changes this ABI at will, so it comes in layouts, one of which
 * is chosen at build time by MRC_VERBS_LAYOUT, the first rdma-core release
 * that has it. The Makefile sets it from the libibverbs it links against
 * (check-abi.sh detect); the provider is then built for that layout only.
 *
 *   layout  releases  version node        ops   differences
 *   36      36 - 56   IBVERBS_PRIVATE_34  76
 *   57      57 - 58   IBVERBS_PRIVATE_57  76    ibv_cmd_get_context() fd_arr
 *   59      59 - 61   IBVERBS_PRIVATE_59  79    ibv_cmd_create_cq_ex() prov_attr
 *   62      62 - 63   IBVERBS_PRIVATE_59  81    (slots inserted, same version)
 *   64      64        IBVERBS_PRIVATE_64  83
 *   65      65        IBVERBS_PRIVATE_65  93
 *
 * The provider file is lib<name>-rdmav<N>.so with N the number of the
 * version node (34, 57, 59, 64, 65). In all of these releases (stable
 * tags included) the other provider structs below, and the prototypes of
 * the other private functions we call, have identical text; so do the 76
 * ops slots of layout 36, which later layouts only add to (in alphabetical
 * order, so the added slots move the ones after them).
 *
 * The version node alone is not enough to trust a libibverbs, because
 * rdma-core changed layouts without changing it:
 *  - v34.x and v35.x also export IBVERBS_PRIVATE_34, but v35 inserted
 *    import_dm and unimport_dm into struct verbs_context_ops and num_ports
 *    into struct verbs_sysfs_dev, and v36 inserted query_qp_data_in_order,
 *    so on those releases every op after the inserted slots sits at a
 *    different offset. They are not supported.
 *  - v62 inserted dm_export_dmabuf_fd and query_port_speed and kept
 *    IBVERBS_PRIVATE_59.
 * check-abi.sh therefore takes the layout from the rdma-core release (the
 * library's file name) and checks that the library exports the version
 * node of that release; after the link it also counts the slots the
 * library's verbs_set_ops() reads.
 *
 * Public structs of the installed <infiniband/verbs.h> are embedded below
 * (struct verbs_context grows at its start in 59, 62 and 64); their sizes
 * are asserted per layout, which also catches headers from another
 * release than the library (e.g. -L to one rdma-core, -I to another).
 *
 * One public struct embedded below changes within layout 36: ibv_qp_ex,
 * part of struct verbs_qp, grew in v44 and again in v45; see the asserts
 * of struct verbs_qp for why that is harmless.
 *
 * How the numbers in the asserts were derived
 * -------------------------------------------
 * rdma-core v44.0 (the release Debian 12 ships) was configured with cmake in
 * a scratch directory, which publishes driver.h, kern-abi.h and the generated
 * kernel-abi headers there. A throwaway C program including that driver.h
 * printed sizeof() of each struct below and offsetof() of every member, on
 * x86_64. Neither the scratch tree nor the program is part of this project;
 * only the printed numbers are copied into the asserts. The slot numbers of
 * verbs_context_ops are those offsets divided by the pointer size. For the
 * other layouts the slot numbers are the positions of the names in
 * driver.h's struct verbs_context_ops of each release (every slot is one
 * function pointer), read in rdma-core's git history; the layouts 36 and
 * 65 are also built against the libibverbs of Debian trixie (56.1) and
 * sid (65.0), whose verbs_set_ops() check-abi.sh reads the slot count from.
 * tests/abi_layout_test.c checks every layout against a table of its own.
 */
#ifndef MRC_VERBS_PROVIDER_ABI_H
#define MRC_VERBS_PROVIDER_ABI_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/*
 * <infiniband/verbs.h> first: its verbs_api.h defines RDMA_UAPI_PTR
 * unconditionally, while the kernel's <rdma/ib_user_ioctl_verbs.h> defines
 * it only if still undefined. In the other order the compiler warns about
 * the redefinition, which -Werror turns into an error; it is silent only
 * while both come from a system include directory, not from an -I one.
 */
#if defined(RDMA_UAPI_PTR) && !defined(VERBS_API_H)
#error "include verbs_provider_abi.h (or mrc.h) before any <rdma/ib_user_ioctl_*.h>"
#endif
#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>

/* The layout, chosen by the Makefile; see the top of this file. */
#if !defined(MRC_VERBS_LAYOUT)
#error "MRC_VERBS_LAYOUT is not set: build with the Makefile, which takes it from the libibverbs it links"
#elif MRC_VERBS_LAYOUT == 36
#define MRC_VERBS_PABI		34
#define MRC_VERBS_OPS_SLOTS	76
#elif MRC_VERBS_LAYOUT == 57
#define MRC_VERBS_PABI		57
#define MRC_VERBS_OPS_SLOTS	76
#elif MRC_VERBS_LAYOUT == 59
#define MRC_VERBS_PABI		59
#define MRC_VERBS_OPS_SLOTS	79
#elif MRC_VERBS_LAYOUT == 62
#define MRC_VERBS_PABI		59
#define MRC_VERBS_OPS_SLOTS	81
#elif MRC_VERBS_LAYOUT == 64
#define MRC_VERBS_PABI		64
#define MRC_VERBS_OPS_SLOTS	83
#elif MRC_VERBS_LAYOUT == 65
#define MRC_VERBS_PABI		65
#define MRC_VERBS_OPS_SLOTS	93
#else
#error "unknown MRC_VERBS_LAYOUT (36, 57, 59, 62, 64 or 65)"
#endif

/*
 * Types that only some releases' verbs.h (or only libibverbs' private
 * driver.h) define, used through pointers in slots and arguments we leave
 * NULL. Declared here so that every layout compiles against any verbs.h.
 */
struct ibv_buf;
struct ibv_comp_cntr;
struct ibv_comp_cntr_caps;
struct ibv_comp_cntr_init_attr;
struct ibv_dmah;
struct ibv_dmah_init_attr;
struct ibv_fd_arr;
struct ibv_mr_init_attr;
struct ibv_qp_attach_comp_cntr_attr;
struct verbs_create_cq_prov_attr;

/* What kind of MR a struct verbs_mr is (rdma-core's enum ibv_mr_type). */
enum verbs_mr_type {
	VERBS_MR_TYPE_MR,		/* ibv_reg_mr() */
	VERBS_MR_TYPE_NULL_MR,
	VERBS_MR_TYPE_IMPORTED_MR,
	VERBS_MR_TYPE_DMABUF_MR,
};

/*
 * A memory region. The provider allocates it (usually embedded first in its
 * own struct), ibv_cmd_reg_mr() fills in handle, keys, context, mr_type and
 * access, and libibverbs fills in pd, addr and length and reads mr_type and
 * access again in ibv_dereg_mr().
 */
struct verbs_mr {
	struct ibv_mr ibv_mr;
	enum verbs_mr_type mr_type;
	int access;
};

/* ccan's struct list_node; libibverbs links our device into its lists. */
struct verbs_list_node {
	struct verbs_list_node *next;
	struct verbs_list_node *prev;
};

/* Values of verbs_match_ent.kind that we use. */
enum {
	VERBS_MATCH_SENTINEL = 0,	/* end of a match table */
	VERBS_MATCH_MODALIAS = 2,	/* fnmatch() pattern in u.modalias */
};

/*
 * One entry of a provider's match table. libibverbs walks the table until
 * kind == VERBS_MATCH_SENTINEL; for VERBS_MATCH_MODALIAS it fnmatch()es
 * u.modalias against "rdma_device:N<ibdev name>" and, failing that, against
 * the parent device's modalias file.
 */
struct verbs_match_ent {
	void *driver_data;		/* opaque to libibverbs */
	union {
		const char *modalias;	/* VERBS_MATCH_MODALIAS pattern */
		uint64_t driver_id;	/* enum rdma_driver_id */
	} u;
	uint16_t vendor;		/* PCI ids, when matching PCI devices */
	uint16_t device;
	uint8_t kind;
};

/*
 * What libibverbs learnt about an RDMA device from sysfs and netlink. It owns
 * this struct; providers only read it (we read match and driver_id). It is
 * declared in full so that the offsets of those two can be asserted.
 */
struct verbs_sysfs_dev {
	struct verbs_list_node entry;
	void *provider_data;
	/* The table entry that matched, or NULL. */
	const struct verbs_match_ent *match;
	unsigned int flags;
	char sysfs_name[IBV_SYSFS_NAME_MAX];	/* "uverbs0" */
	dev_t sysfs_cdev;
	char ibdev_name[IBV_SYSFS_NAME_MAX];	/* "mrc0" */
	char ibdev_path[IBV_SYSFS_PATH_MAX];
	char modalias[512];
	uint64_t node_guid;
	uint32_t driver_id;			/* enum rdma_driver_id */
	enum ibv_node_type node_type;
	int ibdev_idx;
	uint32_t num_ports;
	uint32_t abi_ver;			/* sysfs abi_version */
	struct timespec time_created;
};

struct verbs_device;

/*
 * How a provider introduces itself to libibverbs. libibverbs keeps the
 * pointer passed to verbs_register_driver_34(), so this must stay alive for
 * the life of the process (static storage).
 */
struct verbs_device_ops {
	const char *name;

	/* Range of sysfs abi_version the provider accepts. */
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	/* Only for providers linked statically into libibverbs. */
	const struct verbs_device_ops **static_providers;

	/* Called after the table match; has the final say. */
	bool (*match_device)(struct verbs_sysfs_dev *sysfs_dev);

	/* Takes ownership of cmd_fd, closing it on failure. */
	struct verbs_context *(*alloc_context)(struct ibv_device *device,
					       int cmd_fd, void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device,
						int cmd_fd);

	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

/*
 * The per-device object. The provider allocates it (zeroed) in
 * alloc_device, usually embedded in a bigger struct; libibverbs fills in
 * every field and hands it back to uninit_device when the last reference
 * goes away.
 */
struct verbs_device {
	struct ibv_device device;		/* what applications see */
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct verbs_list_node entry;		/* in libibverbs' list */
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;			/* from GET_CONTEXT */
};

/*
 * Every context op a provider may supply. verbs_set_ops() reads each slot by
 * its offset as compiled into libibverbs and copies the non-NULL ones over
 * the EOPNOTSUPP defaults that verbs_init_context() installed, so this
 * declaration must have every slot, in rdma-core's (alphabetical) order,
 * even those we leave NULL. The slots later releases inserted are marked
 * with the layout that has them first.
 */
struct verbs_context_ops {
	int (*advise_mr)(struct ibv_pd *, enum ibv_advise_mr_advice, uint32_t,
			 struct ibv_sge *, uint32_t);
#if MRC_VERBS_LAYOUT >= 64
	void *(*alloc_buf)(struct ibv_pd *, size_t, struct ibv_buf **);
#endif
	struct ibv_dm *(*alloc_dm)(struct ibv_context *,
				   struct ibv_alloc_dm_attr *);
#if MRC_VERBS_LAYOUT >= 59
	struct ibv_dmah *(*alloc_dmah)(struct ibv_context *,
				       struct ibv_dmah_init_attr *);
#endif
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *, enum ibv_mw_type);
	struct ibv_mr *(*alloc_null_mr)(struct ibv_pd *);
	struct ibv_pd *(*alloc_parent_domain)(
		struct ibv_context *, struct ibv_parent_domain_init_attr *);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *);
	struct ibv_td *(*alloc_td)(struct ibv_context *,
				   struct ibv_td_init_attr *);
	void (*async_event)(struct ibv_context *, struct ibv_async_event *);
	int (*attach_counters_point_flow)(struct ibv_counters *,
					  struct ibv_counter_attach_attr *,
					  struct ibv_flow *);
	int (*attach_mcast)(struct ibv_qp *, const union ibv_gid *, uint16_t);
	int (*bind_mw)(struct ibv_qp *, struct ibv_mw *, struct ibv_mw_bind *);
	int (*close_xrcd)(struct ibv_xrcd *);
	void (*cq_event)(struct ibv_cq *);
	struct ibv_ah *(*create_ah)(struct ibv_pd *, struct ibv_ah_attr *);
#if MRC_VERBS_LAYOUT >= 65
	struct ibv_comp_cntr *(*create_comp_cntr)(
		struct ibv_context *, struct ibv_comp_cntr_init_attr *);
#endif
	struct ibv_counters *(*create_counters)(
		struct ibv_context *, struct ibv_counters_init_attr *);
	struct ibv_cq *(*create_cq)(struct ibv_context *, int,
				    struct ibv_comp_channel *, int);
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *,
					  struct ibv_cq_init_attr_ex *);
	struct ibv_flow *(*create_flow)(struct ibv_qp *,
					struct ibv_flow_attr *);
	struct ibv_flow_action *(*create_flow_action_esp)(
		struct ibv_context *, struct ibv_flow_action_esp_attr *);
	struct ibv_qp *(*create_qp)(struct ibv_pd *, struct ibv_qp_init_attr *);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *,
				       struct ibv_qp_init_attr_ex *);
	struct ibv_rwq_ind_table *(*create_rwq_ind_table)(
		struct ibv_context *, struct ibv_rwq_ind_table_init_attr *);
	struct ibv_srq *(*create_srq)(struct ibv_pd *,
				      struct ibv_srq_init_attr *);
	struct ibv_srq *(*create_srq_ex)(struct ibv_context *,
					 struct ibv_srq_init_attr_ex *);
	struct ibv_wq *(*create_wq)(struct ibv_context *,
				    struct ibv_wq_init_attr *);
#if MRC_VERBS_LAYOUT >= 59
	int (*dealloc_dmah)(struct ibv_dmah *);
#endif
	int (*dealloc_mw)(struct ibv_mw *);
	int (*dealloc_pd)(struct ibv_pd *);
	int (*dealloc_td)(struct ibv_td *);
	int (*dereg_mr)(struct verbs_mr *);
	int (*destroy_ah)(struct ibv_ah *);
#if MRC_VERBS_LAYOUT >= 65
	int (*destroy_comp_cntr)(struct ibv_comp_cntr *);
#endif
	int (*destroy_counters)(struct ibv_counters *);
	int (*destroy_cq)(struct ibv_cq *);
	int (*destroy_flow)(struct ibv_flow *);
	int (*destroy_flow_action)(struct ibv_flow_action *);
	int (*destroy_qp)(struct ibv_qp *);
	int (*destroy_rwq_ind_table)(struct ibv_rwq_ind_table *);
	int (*destroy_srq)(struct ibv_srq *);
	int (*destroy_wq)(struct ibv_wq *);
	int (*detach_mcast)(struct ibv_qp *, const union ibv_gid *, uint16_t);
#if MRC_VERBS_LAYOUT >= 62
	int (*dm_export_dmabuf_fd)(struct ibv_dm *);
#endif
#if MRC_VERBS_LAYOUT >= 64
	void (*free_buf)(struct ibv_buf *);
#endif
	void (*free_context)(struct ibv_context *);
	int (*free_dm)(struct ibv_dm *);
	int (*get_srq_num)(struct ibv_srq *, uint32_t *);
	struct ibv_dm *(*import_dm)(struct ibv_context *, uint32_t);
	struct ibv_mr *(*import_mr)(struct ibv_pd *, uint32_t);
	struct ibv_pd *(*import_pd)(struct ibv_context *, uint32_t);
#if MRC_VERBS_LAYOUT >= 65
	int (*inc_comp_cntr)(struct ibv_comp_cntr *, uint64_t);
	int (*inc_err_comp_cntr)(struct ibv_comp_cntr *, uint64_t);
#endif
	int (*modify_cq)(struct ibv_cq *, struct ibv_modify_cq_attr *);
	int (*modify_flow_action_esp)(struct ibv_flow_action *,
				      struct ibv_flow_action_esp_attr *);
	int (*modify_qp)(struct ibv_qp *, struct ibv_qp_attr *, int);
	int (*modify_qp_rate_limit)(struct ibv_qp *,
				    struct ibv_qp_rate_limit_attr *);
	int (*modify_srq)(struct ibv_srq *, struct ibv_srq_attr *, int);
	int (*modify_wq)(struct ibv_wq *, struct ibv_wq_attr *);
	struct ibv_qp *(*open_qp)(struct ibv_context *,
				  struct ibv_qp_open_attr *);
	struct ibv_xrcd *(*open_xrcd)(struct ibv_context *,
				      struct ibv_xrcd_init_attr *);
	int (*poll_cq)(struct ibv_cq *, int, struct ibv_wc *);
	int (*post_recv)(struct ibv_qp *, struct ibv_recv_wr *,
			 struct ibv_recv_wr **);
	int (*post_send)(struct ibv_qp *, struct ibv_send_wr *,
			 struct ibv_send_wr **);
	int (*post_srq_ops)(struct ibv_srq *, struct ibv_ops_wr *,
			    struct ibv_ops_wr **);
	int (*post_srq_recv)(struct ibv_srq *, struct ibv_recv_wr *,
			     struct ibv_recv_wr **);
#if MRC_VERBS_LAYOUT >= 65
	int (*qp_attach_comp_cntr)(struct ibv_qp *, struct ibv_comp_cntr *,
				   struct ibv_qp_attach_comp_cntr_attr *);
	int (*query_comp_cntr_caps)(struct ibv_context *,
				    struct ibv_comp_cntr_caps *, size_t);
#endif
	int (*query_device_ex)(struct ibv_context *,
			       const struct ibv_query_device_ex_input *,
			       struct ibv_device_attr_ex *, size_t);
	int (*query_ece)(struct ibv_qp *, struct ibv_ece *);
	int (*query_port)(struct ibv_context *, uint8_t,
			  struct ibv_port_attr *);
#if MRC_VERBS_LAYOUT >= 62
	int (*query_port_speed)(struct ibv_context *, uint32_t, uint64_t *);
#endif
	int (*query_qp)(struct ibv_qp *, struct ibv_qp_attr *, int,
			struct ibv_qp_init_attr *);
	int (*query_qp_data_in_order)(struct ibv_qp *, enum ibv_wr_opcode,
				      uint32_t);
	int (*query_rt_values)(struct ibv_context *, struct ibv_values_ex *);
	int (*query_srq)(struct ibv_srq *, struct ibv_srq_attr *);
#if MRC_VERBS_LAYOUT >= 65
	int (*read_comp_cntr)(struct ibv_comp_cntr *, uint64_t *);
#endif
	int (*read_counters)(struct ibv_counters *, uint64_t *, uint32_t,
			     uint32_t);
#if MRC_VERBS_LAYOUT >= 65
	int (*read_err_comp_cntr)(struct ibv_comp_cntr *, uint64_t *);
#endif
	struct ibv_mr *(*reg_dm_mr)(struct ibv_pd *, struct ibv_dm *, uint64_t,
				    size_t, unsigned int);
	struct ibv_mr *(*reg_dmabuf_mr)(struct ibv_pd *, uint64_t, size_t,
					uint64_t, int, int);
	struct ibv_mr *(*reg_mr)(struct ibv_pd *, void *, size_t, uint64_t,
				 int);
#if MRC_VERBS_LAYOUT >= 59
	struct ibv_mr *(*reg_mr_ex)(struct ibv_pd *, struct ibv_mr_init_attr *);
#endif
	int (*req_notify_cq)(struct ibv_cq *, int);
	int (*rereg_mr)(struct verbs_mr *, int, struct ibv_pd *, void *,
			size_t, int);
	int (*resize_cq)(struct ibv_cq *, int);
#if MRC_VERBS_LAYOUT >= 65
	int (*set_comp_cntr)(struct ibv_comp_cntr *, uint64_t);
#endif
	int (*set_ece)(struct ibv_qp *, struct ibv_ece *);
#if MRC_VERBS_LAYOUT >= 65
	int (*set_err_comp_cntr)(struct ibv_comp_cntr *, uint64_t);
#endif
	void (*unimport_dm)(struct ibv_dm *);
	void (*unimport_mr)(struct ibv_mr *);
	void (*unimport_pd)(struct ibv_pd *);
};

/*
 * Legacy write() command buffers that the ibv_cmd_* helpers below take: the
 * uverbs command header followed by the kernel's request struct, then any
 * driver-private request. rdma-core calls these struct ibv_get_context,
 * struct ibv_query_port and struct ibv_alloc_pd; we use other names so they
 * are not mistaken for the public functions of those names. libibverbs
 * fills in hdr (and the port number) itself; the helpers treat everything
 * past the core request as driver data.
 */
struct verbs_cmd_get_context {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_get_context core_payload;
};

struct verbs_cmd_query_port {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_port core_payload;
};

struct verbs_cmd_alloc_pd {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_alloc_pd core_payload;
};

/* rdma-core's struct ibv_alloc_mw. */
struct verbs_cmd_alloc_mw {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_alloc_mw core_payload;
};

/* rdma-core's struct ibv_reg_mr. */
struct verbs_cmd_reg_mr {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_reg_mr core_payload;
};

/*
 * Queue pairs and completion queues as libibverbs sees them: it casts every
 * ibv_qp to struct verbs_qp, and ibv_cmd_create_cq_ex() takes a struct
 * verbs_cq. Our QPs and CQs therefore begin with these.
 *
 * ibv_qp_to_qp_ex() returns &qp_ex when comp_mask has VERBS_QP_EX, else
 * NULL; the provider sets it, with qp_ex's wr_* ops, on a QP created with
 * send_ops_flags. The create helpers overwrite comp_mask (VERBS_QP_XRCD
 * or 0), so it is set after them. The value was read off the libraries:
 * ibv_qp_to_qp_ex() is "testb $0x2, 0x160(%rdi)" in v44.0 (bit 1 of the
 * word at byte 352, where the asserts below put comp_mask) and "testb
 * $0x2, 0x168(%rdi)" in v56.1 and v65.0, whose ibv_qp_ex is 360 bytes.
 */
struct verbs_xrcd;	/* only through a pointer libibverbs leaves NULL */

enum verbs_qp_mask {
	VERBS_QP_XRCD = 1 << 0,		/* xrcd is set */
	VERBS_QP_EX = 1 << 1,		/* qp_ex is the ibv_wr_* API */
};

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;		/* rdma-core's VERBS_QP_XRCD, _EX */
	struct verbs_xrcd *xrcd;
};

struct verbs_cq {
	union {
		struct ibv_cq cq;
		struct ibv_cq_ex cq_ex;
	};
};

/*
 * rdma-core's struct ibv_modify_qp, ibv_query_qp, ibv_modify_srq and
 * ibv_query_srq: the helpers fill in the core request themselves.
 */
struct verbs_cmd_modify_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_qp core_payload;
};

/*
 * rdma-core's struct ibv_modify_qp_ex: the extended header, the core
 * request, then the driver data (ours: struct mrc_modify_qp_mrc), which
 * libibverbs sends as the provider part of the request.
 */
struct verbs_cmd_modify_qp_ex {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_ex_cmd_hdr ex_hdr;
	struct ib_uverbs_ex_modify_qp core_payload;
};

struct verbs_cmd_query_qp {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_qp core_payload;
};

struct verbs_cmd_modify_srq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_modify_srq core_payload;
};

struct verbs_cmd_query_srq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_query_srq core_payload;
};

/*
 * rdma-core's struct ibv_resize_cq: ibv_cmd_resize_cq() fills in cq_handle
 * and cqe, through an anonymous struct at the offsets of core_payload's.
 */
struct verbs_cmd_resize_cq {
	struct ib_uverbs_cmd_hdr hdr;
	struct ib_uverbs_resize_cq core_payload;
};

/*
 * rdma-core's struct ibv_create_cq, ibv_create_cq_ex, ibv_create_qp and
 * ibv_create_srq. mrc has no driver request data for these, so we pass NULL
 * with size 0 and libibverbs builds the request on its own stack; the types
 * stay incomplete, so there is no layout of ours to get wrong.
 */
struct verbs_cmd_create_cq;
struct verbs_cmd_create_cq_ex;
struct verbs_cmd_create_qp;
struct verbs_cmd_create_srq;

/*
 * Private functions of libibverbs, all versioned IBVERBS_PRIVATE_<PABI>.
 * Unless noted, ibv_cmd_* return 0 or a positive errno value.
 */

/*
 * The registration function carries the version number in its name
 * (verbs_register_driver_34, ..._65), so a provider built for one version
 * node cannot load into a libibverbs of another.
 */
#define MRC_VERBS_PASTE_(a, b)	a##b
#define MRC_VERBS_PASTE(a, b)	MRC_VERBS_PASTE_(a, b)
#define verbs_register_driver						\
	MRC_VERBS_PASTE(verbs_register_driver_, MRC_VERBS_PABI)
void verbs_register_driver(const struct verbs_device_ops *ops);

/*
 * Allocates alloc_size zeroed bytes, of which the verbs_context sits at byte
 * offset (uintptr_t)context_offset, and initialises that context with the
 * EOPNOTSUPP ops. Returns the allocation, or NULL with errno set and cmd_fd
 * closed.
 */
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd,
				    size_t alloc_size,
				    struct verbs_context *context_offset,
				    uint32_t driver_id);
/* Undoes the above except the free(); also closes cmd_fd and async_fd. */
void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *context,
		   const struct verbs_context_ops *ops);

/*
 * resp_size counts the core response plus the driver-private tail. From
 * layout 57 on, fd_arr passes file descriptors to the kernel's ioctl;
 * NULL passes none.
 */
#if MRC_VERBS_LAYOUT >= 57
int ibv_cmd_get_context(struct verbs_context *context,
			struct verbs_cmd_get_context *cmd, size_t cmd_size,
			struct ibv_fd_arr *fd_arr,
			struct ib_uverbs_get_context_resp *resp,
			size_t resp_size);
#else
int ibv_cmd_get_context(struct verbs_context *context,
			struct verbs_cmd_get_context *cmd, size_t cmd_size,
			struct ib_uverbs_get_context_resp *resp,
			size_t resp_size);
#endif

/* ibv_cmd_get_context() with no file descriptors, in every layout. */
static inline int
mrc_cmd_get_context(struct verbs_context *context,
		    struct verbs_cmd_get_context *cmd, size_t cmd_size,
		    struct ib_uverbs_get_context_resp *resp, size_t resp_size)
{
#if MRC_VERBS_LAYOUT >= 57
	return ibv_cmd_get_context(context, cmd, cmd_size, NULL, resp,
				   resp_size);
#else
	return ibv_cmd_get_context(context, cmd, cmd_size, resp, resp_size);
#endif
}
/* resp and resp_size may both be NULL when no driver data is wanted. */
int ibv_cmd_query_device_any(struct ibv_context *context,
			     const struct ibv_query_device_ex_input *input,
			     struct ibv_device_attr_ex *attr, size_t attr_size,
			     struct ib_uverbs_ex_query_device_resp *resp,
			     size_t *resp_size);
int ibv_cmd_query_port(struct ibv_context *context, uint8_t port_num,
		       struct ibv_port_attr *port_attr,
		       struct verbs_cmd_query_port *cmd, size_t cmd_size);
int ibv_cmd_alloc_pd(struct ibv_context *context, struct ibv_pd *pd,
		     struct verbs_cmd_alloc_pd *cmd, size_t cmd_size,
		     struct ib_uverbs_alloc_pd_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_pd(struct ibv_pd *pd);
/*
 * Fills in cmd (start, length, hca_va, pd_handle, access_flags) and, on
 * success, vmr's handle, lkey, rkey, context, mr_type and access.
 */
int ibv_cmd_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
		   uint64_t hca_va, int access, struct verbs_mr *vmr,
		   struct verbs_cmd_reg_mr *cmd, size_t cmd_size,
		   struct ib_uverbs_reg_mr_resp *resp, size_t resp_size);
/* Treats a device already gone (EIO) as success, like every destroy. */
int ibv_cmd_dereg_mr(struct verbs_mr *vmr);
/*
 * Fills in cmd (pd_handle, mw_type) and, on success, mw's context, pd,
 * rkey, handle and type. The dealloc treats EIO as success too.
 */
int ibv_cmd_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type,
		     struct ibv_mw *mw, struct verbs_cmd_alloc_mw *cmd,
		     size_t cmd_size,
		     struct ib_uverbs_alloc_mw_resp *resp, size_t resp_size);
int ibv_cmd_dealloc_mw(struct ibv_mw *mw);

/*
 * Queue objects. The create helpers set the object's handle (and cqe, QPN,
 * ...) and write what the kernel granted back into the attributes (cq->cqe;
 * attr->cap for QPs; attr->attr.max_wr and max_sge for SRQs). resp_size
 * counts the core response plus our driver tail, which libibverbs splits at
 * sizeof() of its core response struct. The destroy helpers wait for the
 * object's reported events to be acknowledged and, like ibv_cmd_dereg_mr(),
 * treat a device already gone (EIO) as success.
 */
int ibv_cmd_create_cq(struct ibv_context *context, int cqe,
		      struct ibv_comp_channel *channel, int comp_vector,
		      struct ibv_cq *cq, struct verbs_cmd_create_cq *cmd,
		      size_t cmd_size, struct ib_uverbs_create_cq_resp *resp,
		      size_t resp_size);
/*
 * cmd_flags: rdma-core's enum create_cq_cmd_flags; we pass 0. From layout
 * 59 on, prov_attr describes a CQ buffer the provider allocated itself,
 * needed only with the flags WITH_MEM_VA and WITH_MEM_DMABUF; NULL without.
 */
#if MRC_VERBS_LAYOUT >= 59
int ibv_cmd_create_cq_ex(struct ibv_context *context,
			 const struct ibv_cq_init_attr_ex *cq_attr,
			 struct verbs_create_cq_prov_attr *prov_attr,
			 struct verbs_cq *cq, struct verbs_cmd_create_cq_ex *cmd,
			 size_t cmd_size,
			 struct ib_uverbs_ex_create_cq_resp *resp,
			 size_t resp_size, uint32_t cmd_flags);
#else
int ibv_cmd_create_cq_ex(struct ibv_context *context,
			 const struct ibv_cq_init_attr_ex *cq_attr,
			 struct verbs_cq *cq, struct verbs_cmd_create_cq_ex *cmd,
			 size_t cmd_size,
			 struct ib_uverbs_ex_create_cq_resp *resp,
			 size_t resp_size, uint32_t cmd_flags);
#endif

/* ibv_cmd_create_cq_ex() for a CQ whose ring the kernel allocates. */
static inline int
mrc_cmd_create_cq_ex(struct ibv_context *context,
		     const struct ibv_cq_init_attr_ex *cq_attr,
		     struct verbs_cq *cq, struct verbs_cmd_create_cq_ex *cmd,
		     size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp,
		     size_t resp_size, uint32_t cmd_flags)
{
#if MRC_VERBS_LAYOUT >= 59
	return ibv_cmd_create_cq_ex(context, cq_attr, NULL, cq, cmd, cmd_size,
				    resp, resp_size, cmd_flags);
#else
	return ibv_cmd_create_cq_ex(context, cq_attr, cq, cmd, cmd_size,
				    resp, resp_size, cmd_flags);
#endif
}
int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only);
/*
 * The same in every layout. Sets cq->cqe from the response on success;
 * resp_size counts the core response (8 bytes) plus our driver tail.
 */
int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe,
		      struct verbs_cmd_resize_cq *cmd, size_t cmd_size,
		      struct ib_uverbs_resize_cq_resp *resp, size_t resp_size);
int ibv_cmd_destroy_cq(struct ibv_cq *cq);

int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp,
		      struct ibv_qp_init_attr *attr,
		      struct verbs_cmd_create_qp *cmd, size_t cmd_size,
		      struct ib_uverbs_create_qp_resp *resp, size_t resp_size);
/* Accepts only comp_mask bits IBV_QP_INIT_ATTR_PD, _XRCD, _SEND_OPS_FLAGS. */
int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp,
			 struct ibv_qp_init_attr_ex *attr_ex,
			 struct verbs_cmd_create_qp *cmd, size_t cmd_size,
			 struct ib_uverbs_create_qp_resp *resp,
			 size_t resp_size);
/* Both refuse attr_mask bits from IBV_QP_RATE_LIMIT up (EOPNOTSUPP). */
int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr,
		      int attr_mask, struct verbs_cmd_modify_qp *cmd,
		      size_t cmd_size);
/* The same in every layout; resp may carry no driver data (ours none). */
int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr,
			 int attr_mask, struct verbs_cmd_modify_qp_ex *cmd,
			 size_t cmd_size,
			 struct ib_uverbs_ex_modify_qp_resp *resp,
			 size_t resp_size);
int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr,
		     int attr_mask, struct ibv_qp_init_attr *qp_init_attr,
		     struct verbs_cmd_query_qp *cmd, size_t cmd_size);
int ibv_cmd_destroy_qp(struct ibv_qp *qp);

int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq,
		       struct ibv_srq_init_attr *attr,
		       struct verbs_cmd_create_srq *cmd, size_t cmd_size,
		       struct ib_uverbs_create_srq_resp *resp,
		       size_t resp_size);
int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		       int srq_attr_mask, struct verbs_cmd_modify_srq *cmd,
		       size_t cmd_size);
int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr,
		      struct verbs_cmd_query_srq *cmd, size_t cmd_size);
int ibv_cmd_destroy_srq(struct ibv_srq *srq);

/*
 * Builds the whole request itself, so no driver request data; resp_size
 * could cover a driver tail after the core response (mrc has none).
 */
int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah,
		      struct ibv_ah_attr *attr,
		      struct ib_uverbs_create_ah_resp *resp, size_t resp_size);
int ibv_cmd_destroy_ah(struct ibv_ah *ah);

/*
 * Layout checks on x86_64 (see the top of this file): the numbers were
 * measured against rdma-core v44.0 and hold for every layout unless the
 * assert says otherwise. The byte counts assume LP64.
 */
_Static_assert(sizeof(void *) == 8 && sizeof(long) == 8,
	       "verbs provider ABI layouts below were derived for LP64");

#define VERBS_ABI_STR_(x) #x
#define VERBS_ABI_STR(x) VERBS_ABI_STR_(x)
#define VERBS_ABI_ASSERT_OFFSET(type, member, offset)			\
	_Static_assert(offsetof(struct type, member) == (offset),	\
		       #type "." #member " is not at byte " #offset	\
		       " as in layout " VERBS_ABI_STR(MRC_VERBS_LAYOUT))
#define VERBS_ABI_ASSERT_SIZE(type, size)				\
	_Static_assert(sizeof(struct type) == (size),			\
		       "sizeof(struct " #type ") is not " #size		\
		       " as in layout " VERBS_ABI_STR(MRC_VERBS_LAYOUT))

/*
 * Public structs from the installed verbs.h that the ones below embed.
 * struct verbs_context grows at its start: reg_mr_ex, dealloc_dmah and
 * alloc_dmah in 59, dm_export_dmabuf_fd in 62, free_buf and alloc_buf in
 * 64. A mismatch here means the verbs.h the compiler found is not from the
 * rdma-core release whose library the Makefile found. tests/ compiles
 * every layout against one verbs.h, so it leaves this check out.
 */
VERBS_ABI_ASSERT_SIZE(ibv_device, 664);
#ifndef MRC_VERBS_ABI_ANY_VERBS_H
#if MRC_VERBS_LAYOUT >= 64
#define VERBS_CONTEXT_GROWN	(6 * 8)
#elif MRC_VERBS_LAYOUT >= 62
#define VERBS_CONTEXT_GROWN	(4 * 8)
#elif MRC_VERBS_LAYOUT >= 59
#define VERBS_CONTEXT_GROWN	(3 * 8)
#else
#define VERBS_CONTEXT_GROWN	0
#endif
_Static_assert(sizeof(struct verbs_context) == 648 + VERBS_CONTEXT_GROWN &&
	       offsetof(struct verbs_context, priv) ==
	       208 + VERBS_CONTEXT_GROWN &&
	       offsetof(struct verbs_context, context) ==
	       320 + VERBS_CONTEXT_GROWN,
	       "<infiniband/verbs.h> is not from an rdma-core release of layout "
	       VERBS_ABI_STR(MRC_VERBS_LAYOUT)
	       " (the one of the libibverbs the Makefile links)");
#endif
_Static_assert(offsetof(struct verbs_context, context) + sizeof(struct ibv_context) ==
	       sizeof(struct verbs_context),
	       "struct ibv_context is not the last member of struct verbs_context");

VERBS_ABI_ASSERT_SIZE(verbs_match_ent, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_match_ent, driver_data, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_match_ent, u.modalias, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_match_ent, u.driver_id, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_match_ent, vendor, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_match_ent, device, 18);
VERBS_ABI_ASSERT_OFFSET(verbs_match_ent, kind, 20);

VERBS_ABI_ASSERT_SIZE(verbs_sysfs_dev, 992);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, entry, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, provider_data, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, match, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, flags, 32);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, sysfs_name, 36);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, sysfs_cdev, 104);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, ibdev_name, 112);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, ibdev_path, 176);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, modalias, 432);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, node_guid, 944);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, driver_id, 952);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, node_type, 956);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, ibdev_idx, 960);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, num_ports, 964);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, abi_ver, 968);
VERBS_ABI_ASSERT_OFFSET(verbs_sysfs_dev, time_created, 976);

VERBS_ABI_ASSERT_SIZE(verbs_device_ops, 72);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, name, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, match_min_abi_version, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, match_max_abi_version, 12);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, match_table, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, static_providers, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, match_device, 32);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, alloc_context, 40);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, import_context, 48);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, alloc_device, 56);
VERBS_ABI_ASSERT_OFFSET(verbs_device_ops, uninit_device, 64);

VERBS_ABI_ASSERT_SIZE(verbs_device, 712);
VERBS_ABI_ASSERT_OFFSET(verbs_device, device, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_device, ops, 664);
VERBS_ABI_ASSERT_OFFSET(verbs_device, refcount, 672);
VERBS_ABI_ASSERT_OFFSET(verbs_device, entry, 680);
VERBS_ABI_ASSERT_OFFSET(verbs_device, sysfs, 696);
VERBS_ABI_ASSERT_OFFSET(verbs_device, core_support, 704);

/* MRC_VERBS_OPS_SLOTS slots of one function pointer each. */
VERBS_ABI_ASSERT_SIZE(verbs_context_ops, MRC_VERBS_OPS_SLOTS * 8);
#define VERBS_ABI_ASSERT_OP_SLOT(op, slot)				\
	VERBS_ABI_ASSERT_OFFSET(verbs_context_ops, op, (slot) * 8)
/* The alphabet's ends stayed the ends. */
VERBS_ABI_ASSERT_OP_SLOT(advise_mr, 0);
VERBS_ABI_ASSERT_OP_SLOT(unimport_pd, MRC_VERBS_OPS_SLOTS - 1);
/*
 * The measured slots of rdma-core v44.0, for layouts 36 and 57; those of
 * the later layouts are checked by tests/abi_layout_test.c.
 */
#if MRC_VERBS_LAYOUT <= 57
VERBS_ABI_ASSERT_OP_SLOT(advise_mr, 0);
VERBS_ABI_ASSERT_OP_SLOT(alloc_dm, 1);
VERBS_ABI_ASSERT_OP_SLOT(alloc_mw, 2);
VERBS_ABI_ASSERT_OP_SLOT(alloc_null_mr, 3);
VERBS_ABI_ASSERT_OP_SLOT(alloc_parent_domain, 4);
VERBS_ABI_ASSERT_OP_SLOT(alloc_pd, 5);
VERBS_ABI_ASSERT_OP_SLOT(alloc_td, 6);
VERBS_ABI_ASSERT_OP_SLOT(async_event, 7);
VERBS_ABI_ASSERT_OP_SLOT(attach_counters_point_flow, 8);
VERBS_ABI_ASSERT_OP_SLOT(attach_mcast, 9);
VERBS_ABI_ASSERT_OP_SLOT(bind_mw, 10);
VERBS_ABI_ASSERT_OP_SLOT(close_xrcd, 11);
VERBS_ABI_ASSERT_OP_SLOT(cq_event, 12);
VERBS_ABI_ASSERT_OP_SLOT(create_ah, 13);
VERBS_ABI_ASSERT_OP_SLOT(create_counters, 14);
VERBS_ABI_ASSERT_OP_SLOT(create_cq, 15);
VERBS_ABI_ASSERT_OP_SLOT(create_cq_ex, 16);
VERBS_ABI_ASSERT_OP_SLOT(create_flow, 17);
VERBS_ABI_ASSERT_OP_SLOT(create_flow_action_esp, 18);
VERBS_ABI_ASSERT_OP_SLOT(create_qp, 19);
VERBS_ABI_ASSERT_OP_SLOT(create_qp_ex, 20);
VERBS_ABI_ASSERT_OP_SLOT(create_rwq_ind_table, 21);
VERBS_ABI_ASSERT_OP_SLOT(create_srq, 22);
VERBS_ABI_ASSERT_OP_SLOT(create_srq_ex, 23);
VERBS_ABI_ASSERT_OP_SLOT(create_wq, 24);
VERBS_ABI_ASSERT_OP_SLOT(dealloc_mw, 25);
VERBS_ABI_ASSERT_OP_SLOT(dealloc_pd, 26);
VERBS_ABI_ASSERT_OP_SLOT(dealloc_td, 27);
VERBS_ABI_ASSERT_OP_SLOT(dereg_mr, 28);
VERBS_ABI_ASSERT_OP_SLOT(destroy_ah, 29);
VERBS_ABI_ASSERT_OP_SLOT(destroy_counters, 30);
VERBS_ABI_ASSERT_OP_SLOT(destroy_cq, 31);
VERBS_ABI_ASSERT_OP_SLOT(destroy_flow, 32);
VERBS_ABI_ASSERT_OP_SLOT(destroy_flow_action, 33);
VERBS_ABI_ASSERT_OP_SLOT(destroy_qp, 34);
VERBS_ABI_ASSERT_OP_SLOT(destroy_rwq_ind_table, 35);
VERBS_ABI_ASSERT_OP_SLOT(destroy_srq, 36);
VERBS_ABI_ASSERT_OP_SLOT(destroy_wq, 37);
VERBS_ABI_ASSERT_OP_SLOT(detach_mcast, 38);
VERBS_ABI_ASSERT_OP_SLOT(free_context, 39);
VERBS_ABI_ASSERT_OP_SLOT(free_dm, 40);
VERBS_ABI_ASSERT_OP_SLOT(get_srq_num, 41);
VERBS_ABI_ASSERT_OP_SLOT(import_dm, 42);
VERBS_ABI_ASSERT_OP_SLOT(import_mr, 43);
VERBS_ABI_ASSERT_OP_SLOT(import_pd, 44);
VERBS_ABI_ASSERT_OP_SLOT(modify_cq, 45);
VERBS_ABI_ASSERT_OP_SLOT(modify_flow_action_esp, 46);
VERBS_ABI_ASSERT_OP_SLOT(modify_qp, 47);
VERBS_ABI_ASSERT_OP_SLOT(modify_qp_rate_limit, 48);
VERBS_ABI_ASSERT_OP_SLOT(modify_srq, 49);
VERBS_ABI_ASSERT_OP_SLOT(modify_wq, 50);
VERBS_ABI_ASSERT_OP_SLOT(open_qp, 51);
VERBS_ABI_ASSERT_OP_SLOT(open_xrcd, 52);
VERBS_ABI_ASSERT_OP_SLOT(poll_cq, 53);
VERBS_ABI_ASSERT_OP_SLOT(post_recv, 54);
VERBS_ABI_ASSERT_OP_SLOT(post_send, 55);
VERBS_ABI_ASSERT_OP_SLOT(post_srq_ops, 56);
VERBS_ABI_ASSERT_OP_SLOT(post_srq_recv, 57);
VERBS_ABI_ASSERT_OP_SLOT(query_device_ex, 58);
VERBS_ABI_ASSERT_OP_SLOT(query_ece, 59);
VERBS_ABI_ASSERT_OP_SLOT(query_port, 60);
VERBS_ABI_ASSERT_OP_SLOT(query_qp, 61);
VERBS_ABI_ASSERT_OP_SLOT(query_qp_data_in_order, 62);
VERBS_ABI_ASSERT_OP_SLOT(query_rt_values, 63);
VERBS_ABI_ASSERT_OP_SLOT(query_srq, 64);
VERBS_ABI_ASSERT_OP_SLOT(read_counters, 65);
VERBS_ABI_ASSERT_OP_SLOT(reg_dm_mr, 66);
VERBS_ABI_ASSERT_OP_SLOT(reg_dmabuf_mr, 67);
VERBS_ABI_ASSERT_OP_SLOT(reg_mr, 68);
VERBS_ABI_ASSERT_OP_SLOT(req_notify_cq, 69);
VERBS_ABI_ASSERT_OP_SLOT(rereg_mr, 70);
VERBS_ABI_ASSERT_OP_SLOT(resize_cq, 71);
VERBS_ABI_ASSERT_OP_SLOT(set_ece, 72);
VERBS_ABI_ASSERT_OP_SLOT(unimport_dm, 73);
VERBS_ABI_ASSERT_OP_SLOT(unimport_mr, 74);
VERBS_ABI_ASSERT_OP_SLOT(unimport_pd, 75);
#endif

/*
 * libibverbs computes the driver-data split from sizeof() of its own
 * versions of these, and writes the port number at a fixed offset.
 */
VERBS_ABI_ASSERT_SIZE(verbs_cmd_get_context, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_get_context, core_payload, 8);
VERBS_ABI_ASSERT_SIZE(verbs_cmd_query_port, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_port, core_payload, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_port, core_payload.port_num, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_port, core_payload.reserved, 17);
VERBS_ABI_ASSERT_SIZE(verbs_cmd_alloc_pd, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_alloc_pd, core_payload, 8);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_get_context_resp, 8);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_alloc_pd_resp, 4);
VERBS_ABI_ASSERT_SIZE(verbs_cmd_reg_mr, 48);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_reg_mr, core_payload, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_reg_mr, core_payload.start, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_reg_mr, core_payload.access_flags, 44);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_reg_mr_resp, 12);
/* ibv_cmd_resize_cq() stores the response pointer, handle and count here. */
VERBS_ABI_ASSERT_SIZE(verbs_cmd_resize_cq, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_resize_cq, core_payload.response, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_resize_cq, core_payload.cq_handle, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_resize_cq, core_payload.cqe, 20);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_resize_cq_resp, 8);

/* libibverbs reads mr_type and access in ibv_dereg_mr(). */
VERBS_ABI_ASSERT_SIZE(ibv_mr, 48);
VERBS_ABI_ASSERT_SIZE(verbs_mr, 56);
VERBS_ABI_ASSERT_OFFSET(verbs_mr, ibv_mr, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_mr, mr_type, 48);
VERBS_ABI_ASSERT_OFFSET(verbs_mr, access, 52);
_Static_assert(sizeof(enum verbs_mr_type) == 4 && VERBS_MR_TYPE_MR == 0,
	       "enum verbs_mr_type differs from rdma-core's ibv_mr_type");

/*
 * Queue objects. rdma-core puts verbs_qp.comp_mask right after the union of
 * ibv_qp and ibv_qp_ex, and since ibv_qp_ex grew in v44 (wr_atomic_write)
 * and v45 (wr_flush) its offset depends on the release. Both libibverbs and
 * we take ibv_qp_ex from the same release's verbs.h (libibverbs-dev comes
 * with the library), so the relation below is what has to hold; in v44.0
 * the numbers are sizeof(ibv_qp_ex) 352, comp_mask at 352, xrcd at 360 and
 * sizeof(verbs_qp) 368.
 */
VERBS_ABI_ASSERT_SIZE(ibv_qp, 160);
VERBS_ABI_ASSERT_OFFSET(verbs_qp, qp, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_qp, qp_ex, 0);
_Static_assert(offsetof(struct verbs_qp, comp_mask) ==
	       sizeof(struct ibv_qp_ex) &&
	       offsetof(struct verbs_qp, xrcd) ==
	       sizeof(struct ibv_qp_ex) + 8 &&
	       sizeof(struct verbs_qp) == sizeof(struct ibv_qp_ex) + 16,
	       "verbs_qp is not laid out as rdma-core's: union, comp_mask, xrcd");
VERBS_ABI_ASSERT_SIZE(ibv_cq, 128);
VERBS_ABI_ASSERT_SIZE(verbs_cq, 288);
VERBS_ABI_ASSERT_OFFSET(verbs_cq, cq, 0);
VERBS_ABI_ASSERT_OFFSET(verbs_cq, cq_ex, 0);
VERBS_ABI_ASSERT_SIZE(ibv_srq, 128);
VERBS_ABI_ASSERT_SIZE(ibv_ah, 24);

VERBS_ABI_ASSERT_SIZE(verbs_cmd_modify_qp, 120);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_modify_qp, core_payload, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_modify_qp, core_payload.qp_handle, 72);
VERBS_ABI_ASSERT_SIZE(verbs_cmd_query_qp, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_qp, core_payload, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_qp, core_payload.qp_handle, 16);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_qp, core_payload.attr_mask, 20);
VERBS_ABI_ASSERT_SIZE(verbs_cmd_modify_srq, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_modify_srq, core_payload, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_modify_srq, core_payload.srq_handle, 8);
VERBS_ABI_ASSERT_SIZE(verbs_cmd_query_srq, 24);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_srq, core_payload, 8);
VERBS_ABI_ASSERT_OFFSET(verbs_cmd_query_srq, core_payload.srq_handle, 16);

/* Where libibverbs splits core response from our driver tail. */
VERBS_ABI_ASSERT_SIZE(ib_uverbs_create_cq_resp, 8);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_ex_create_cq_resp, 16);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_create_qp_resp, 32);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_create_srq_resp, 16);
VERBS_ABI_ASSERT_SIZE(ib_uverbs_create_ah_resp, 4);

#endif /* MRC_VERBS_PROVIDER_ABI_H */
