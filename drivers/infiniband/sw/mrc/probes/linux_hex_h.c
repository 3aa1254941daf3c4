// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* <linux/hex.h> (after 6.1); <linux/kernel.h> no longer includes it in 7.x. */
#include <linux/hex.h>

int mrc_probe(u8 *dst, const char *src);
int mrc_probe(u8 *dst, const char *src)
{
	return hex2bin(dst, src, 1);
}
