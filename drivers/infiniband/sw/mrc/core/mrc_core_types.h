/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The protocol core (wire format, PSN and SACK tracking, path state,
 * congestion control) is plain C that builds both into the module and into
 * userspace unit tests and simulators. This header is its only view of the
 * environment: fixed-width types, errno values, string functions and a
 * 64-bit division, and nothing else that needs the kernel. No other core
 * file includes a header from outside core/ or tests __KERNEL__
 * (scripts/core-lint, run by scripts/lint).
 */
#ifndef MRC_CORE_TYPES_H
#define MRC_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/types.h>
#include <linux/string.h>

/* 64-bit division: 32-bit kernels have no libgcc helper for '/'. */
#define mrc_div64(a, b)	div64_u64((a), (b))
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

#define mrc_div64(a, b)	((u64)(a) / (u64)(b))
#endif

#endif /* MRC_CORE_TYPES_H */
