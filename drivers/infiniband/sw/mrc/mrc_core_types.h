/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The protocol core (wire format, PSN and SACK tracking, path state,
 * congestion control) is plain C that builds both into the module and into
 * userspace unit tests and simulators. This header is its only view of the
 * environment: fixed-width types, errno values, and nothing that needs the
 * kernel.
 */
#ifndef MRC_CORE_TYPES_H
#define MRC_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The compiler's own fixed-width types, under the kernel's names. */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;
#endif

#endif /* MRC_CORE_TYPES_H */
