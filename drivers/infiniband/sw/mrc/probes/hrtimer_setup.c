// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* hrtimer_setup() (6.13) replaced hrtimer_init() and setting ->function. */
#include <linux/hrtimer.h>

static enum hrtimer_restart mrc_probe_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void mrc_probe(struct hrtimer *t);
void mrc_probe(struct hrtimer *t)
{
	hrtimer_setup(t, mrc_probe_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
}
