// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A dump's parsed attributes are in genl_dumpit_info.info (6.2). */
#include <net/genetlink.h>

struct nlattr **mrc_probe(struct netlink_callback *cb);
struct nlattr **mrc_probe(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->info.attrs;
}
