/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * User/kernel ABI of the mrc RDMA device (soft-MRC).
 *
 * The uverbs commands themselves are the standard ones from
 * <rdma/ib_user_verbs.h>; this header holds only what is specific to mrc:
 * the ABI version both sides must agree on and the driver-private parts of
 * command requests and responses. Every structure is padded to 8 bytes and
 * uses fixed-width types so that 32-bit and 64-bit userspace see one layout.
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>

/*
 * Bumped whenever a structure below changes incompatibly. The kernel reports
 * it as the device's uverbs ABI version; the provider refuses any other.
 */
#define MRC_UVERBS_ABI_VERSION 1

/* Device names start with this; libibverbs matches the provider by it. */
#define MRC_DEVICE_NAME_PREFIX "mrc"

/* Driver-private tail of the GET_CONTEXT response. */
struct mrc_alloc_context_resp {
	__u32 abi_version;	/* MRC_UVERBS_ABI_VERSION, echoed */
	__u32 reserved;
};

#endif /* MRC_ABI_USER_H */
