// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: port administrative state. Port N of the controller API is
 * plane N - 1 of the device, and its admin state is the IFF_UP of that
 * plane's netdev (what "ip link set dev X up|down" changes;
 * ibv_query_port() then says DOWN): the device's own netdev when it has
 * one plane, the bond's slave in that plane's slot otherwise, as DEV_GET's
 * PLANES nest says (Documentation/mrc-api.rst). A kernel without the nest
 * leaves a bond's ports EOPNOTSUPP.
 */
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mrc_ctl_lib.h"

/* The netdev whose IFF_UP is port @port_num's admin state. */
static int mrc_ctl_port_netdev(struct mrc_ctl_state *st, uint8_t port_num,
			       char *ifname)
{
	const char *name;
	struct mrc_nl_dev d;
	int err;

	err = mrc_nl_dev_get(st->nl, st->dev, &d);
	if (err)
		return err;
	if (port_num < 1 || port_num > d.num_planes)
		return EINVAL;
	if (d.num_plane_info) {
		const struct mrc_nl_dev_plane *pl = &d.planes[port_num - 1];

		/* An empty slot: its slave left the bond; no netdev to ask. */
		if (!pl->netdev[0])
			return ENODEV;
		/*
		 * By its index, which a rename does not change (the kernel
		 * copies the name without the rename lock); then its name now.
		 */
		if (pl->ifindex)
			return if_indextoname(pl->ifindex, ifname) ? 0 : ENODEV;
		name = pl->netdev;
	} else if (d.num_planes > 1) {
		return EOPNOTSUPP;
	} else {
		name = d.netdev;
	}
	if (strlen(name) >= IFNAMSIZ)
		return ENODEV;
	strcpy(ifname, name);
	return 0;
}

/* IFF_UP of @ifname read, and with @set >= 0 written; 0 or an errno. */
static int mrc_ctl_ifflags(const char *ifname, int set, bool *up)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	strcpy(ifr.ifr_name, ifname);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		err = errno;
		goto out;
	}
	if (set >= 0 && !!(ifr.ifr_flags & IFF_UP) != set) {
		if (set)
			ifr.ifr_flags |= IFF_UP;
		else
			ifr.ifr_flags &= ~IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0) {
			err = errno;
			goto out;
		}
	}
	*up = ifr.ifr_flags & IFF_UP;
out:
	close(fd);
	return err;
}

static int mrc_ctl_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask,
			bool modify)
{
	struct mrc_ctl_state *st;
	char ifname[IFNAMSIZ];
	int set = -1, err;
	bool up = false;

	if (!attr || (attr_mask & ~MRC_CTL_PORT_ADMIN_STATE))
		return EINVAL;
	if (modify && (attr_mask & MRC_CTL_PORT_ADMIN_STATE)) {
		if (attr->port_admin_state != MRC_CTL_PORT_ADMIN_DISABLED &&
		    attr->port_admin_state != MRC_CTL_PORT_ADMIN_ENABLED)
			return EINVAL;
		set = attr->port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED;
	}
	err = mrc_ctl_enter(context, &st);
	if (err)
		return err;
	err = mrc_ctl_port_netdev(st, port_num, ifname);
	mrc_ctl_leave(st);
	if (err)
		return err;
	if (!modify && !(attr_mask & MRC_CTL_PORT_ADMIN_STATE))
		return 0;
	if (modify && set < 0)
		return 0;
	err = mrc_ctl_ifflags(ifname, set, &up);
	if (!err && !modify)
		attr->port_admin_state = up ? MRC_CTL_PORT_ADMIN_ENABLED :
					      MRC_CTL_PORT_ADMIN_DISABLED;
	return err;
}

MRC_EXPORT
int mrc_ctl_query_port(struct mrc_context *context, uint8_t port_num,
		       struct mrc_ctl_port_attr *attr, int attr_mask)
{
	int err = mrc_ctl_port(context, port_num, attr, attr_mask, false);

	return err ? mrc_fail(err) : 0;
}

MRC_EXPORT
int mrc_ctl_modify_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask)
{
	int err = mrc_ctl_port(context, port_num, attr, attr_mask, true);

	return err ? mrc_fail(err) : 0;
}
