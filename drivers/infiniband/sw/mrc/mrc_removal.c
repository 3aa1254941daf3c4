// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * An ib_client of our own (mrc_removal.h). ib_core removes clients in the
 * reverse order of their registration as the first step of unregistering
 * a device, right after the device stops being found by name; ours is
 * registered after ib_core's own, so its remove runs before theirs.
 */
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_ep.h"
#include "mrc_removal.h"

static int mrc_removal_add(struct ib_device *ibdev)
{
	/* Any error keeps ib_core from calling remove for that device. */
	return mrc_ibdev_is_mrc(ibdev) ? 0 : -EOPNOTSUPP;
}

static void mrc_removal_remove(struct ib_device *ibdev, void *client_data)
{
	/* A controller waiting for probe answers must not hold it up. */
	mrc_ep_dev_close(to_mrc_dev(ibdev));
}

static struct ib_client mrc_removal_client = {
	.name = "mrc_removal",
	.add = mrc_removal_add,
	.remove = mrc_removal_remove,
};

int mrc_removal_init(void)
{
	return ib_register_client(&mrc_removal_client);
}

void mrc_removal_exit(void)
{
	ib_unregister_client(&mrc_removal_client);
}
