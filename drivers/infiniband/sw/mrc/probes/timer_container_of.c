// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* timer_container_of() replaced from_timer() (6.16). */
#include <linux/timer.h>

struct mrc_probe_obj {
	struct timer_list timer;
};

struct mrc_probe_obj *mrc_probe(struct timer_list *t);
struct mrc_probe_obj *mrc_probe(struct timer_list *t)
{
	struct mrc_probe_obj *obj = timer_container_of(obj, t, timer);

	return obj;
}
