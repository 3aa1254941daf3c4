/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The published layout of the OCP MRC API on LP64 (x86_64, aarch64),
 * written down by hand from the companion repository's declarations: each
 * struct's size, each member's offset, each constant's value. abi_test.c
 * holds our headers to it, so that a binary built against the vendor
 * headers and one built against ours pass the same bytes.
 */
#ifndef LIB_MRC_ABI_TABLE_H
#define LIB_MRC_ABI_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct abi_entry {
	const char *name;
	long long actual;
	long long expected;
};

#define ABI_SIZE(type, size)	{ "sizeof(" #type ")", (long long)sizeof(type), size }
#define ABI_OFF(type, member, off) \
	{ "offsetof(" #type ", " #member ")", (long long)offsetof(type, member), off }
#define ABI_MSIZE(type, member, size) \
	{ "sizeof(" #type "." #member ")", (long long)sizeof(((type *)0)->member), size }
/* A member: its offset and its size, two entries. */
#define ABI_FIELD(type, member, off, size) \
	ABI_OFF(type, member, off), ABI_MSIZE(type, member, size)
#define ABI_VAL(name, value)	{ #name, (long long)(name), value }

#endif /* LIB_MRC_ABI_TABLE_H */
