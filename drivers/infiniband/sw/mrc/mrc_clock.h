/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The glue's one clock: CLOCK_MONOTONIC in microseconds. The core takes
 * times as arguments, in these units; the wire's timestamp and the EV
 * state machine's times are its low 32 bits, compared modulo 2^32.
 */
#ifndef MRC_CLOCK_H
#define MRC_CLOCK_H

#include <linux/ktime.h>
#include <linux/math64.h>

static inline u64 mrc_now_us(void)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

#endif /* MRC_CLOCK_H */
