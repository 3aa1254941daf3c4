// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * timer_delete_sync() (6.2, backported to 6.1.y); del_timer_sync() is gone
 * in 7.x.
 */
#include <linux/timer.h>

int mrc_probe(struct timer_list *t);
int mrc_probe(struct timer_list *t)
{
	return timer_delete_sync(t);
}
