/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An EV set for the unit tests: @per_plane EVs on each of @planes planes,
 * in plane order round-robin, UDP source ports from 0xc000, the default
 * EV parameters.
 */
#ifndef EV_SET_FIXTURE_H
#define EV_SET_FIXTURE_H

#include <string.h>

#include "ktap.h"
#include "mrc_ev.h"

static inline void ev_set_fixture(struct mrc_ev_set *set, struct mrc_ev *evs,
				  u8 planes, u32 per_plane)
{
	struct mrc_ev_desc descs[MRC_EV_MAX];
	struct mrc_ev_params params;
	u32 i, n = planes * per_plane;

	mrc_ev_params_default(&params);
	memset(descs, 0, sizeof(descs));
	for (i = 0; i < n; i++) {
		descs[i].plane = (u8)(i % planes);
		descs[i].path.udp_sport = (u16)(0xc000 + i);
	}
	CHECK_EQ(mrc_ev_set_init(set, evs, n, planes, descs, &params), 0);
}

#endif /* EV_SET_FIXTURE_H */
