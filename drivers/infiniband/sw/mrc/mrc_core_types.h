/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The protocol core (wire format, PSN and SACK tracking, path state,
 * congestion control) is plain C that builds both into the module and into
 * userspace unit tests and simulators. This header is its only view of the
 * environment: fixed-width types and nothing that needs the kernel.
 */
#ifndef MRC_CORE_TYPES_H
#define MRC_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

#endif /* MRC_CORE_TYPES_H */
