// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* netdev_hold() with a tracker (6.0): the oldest API mrc needs, no bridge. */
#include <linux/netdevice.h>

void mrc_probe(struct net_device *dev);
void mrc_probe(struct net_device *dev)
{
	netdevice_tracker tracker;

	netdev_hold(dev, &tracker, GFP_KERNEL);
	netdev_put(dev, &tracker);
}
