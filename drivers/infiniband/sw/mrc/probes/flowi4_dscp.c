// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* struct flowi4 carries a dscp_t (flowi4_dscp), not flowi4_tos (after 6.12). */
#include <net/flow.h>
#include <net/inet_dscp.h>

void mrc_probe(struct flowi4 *fl4, u8 dsfield);
void mrc_probe(struct flowi4 *fl4, u8 dsfield)
{
	fl4->flowi4_dscp = inet_dsfield_to_dscp(dsfield);
}
