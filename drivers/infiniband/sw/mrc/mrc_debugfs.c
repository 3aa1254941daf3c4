// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * debugfs, for tests and bring-up (root only, like all of debugfs):
 *
 * /sys/kernel/debug/mrc/xmit
 *	Writing "IBDEV SRC DST SPORT DSCP_ECN HEX" sends one packet through
 *	mrc_net_xmit(): from IP address SRC to DST (both IPv4 or both IPv6),
 *	UDP source port SPORT, DSCP/ECN byte DSCP_ECN, and the UDP payload
 *	HEX (hex digits, MRC headers and payload, at most 1024 bytes). The
 *	write returns what mrc_net_xmit() returned, so a routing failure
 *	shows as the errno of write(2).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_net.h"
#include "mrc_stats.h"

#define MRC_DEBUGFS_XMIT_MAX	1024

static struct dentry *mrc_debugfs_dir;

static int mrc_debugfs_parse_addr(const char *s, struct mrc_net_addr *addr)
{
	memset(addr, 0, sizeof(*addr));
	if (strchr(s, ':')) {
		addr->family = AF_INET6;
		return in6_pton(s, -1, addr->v6.s6_addr, -1, NULL) ? 0 : -EINVAL;
	}
	addr->family = AF_INET;
	return in4_pton(s, -1, (u8 *)&addr->v4, -1, NULL) ? 0 : -EINVAL;
}

static int mrc_debugfs_send(char *cmd)
{
	char *name, *src_s, *dst_s, *sport_s, *tos_s, *hex;
	struct mrc_net_addr src, dst;
	struct ib_device *ibdev;
	struct sk_buff *skb;
	size_t hex_len;
	u16 sport;
	u8 tos;
	int err;

	name = strsep(&cmd, " ");
	src_s = strsep(&cmd, " ");
	dst_s = strsep(&cmd, " ");
	sport_s = strsep(&cmd, " ");
	tos_s = strsep(&cmd, " ");
	hex = strim(cmd ?: "");
	if (!name || !src_s || !dst_s || !sport_s || !tos_s)
		return -EINVAL;
	hex_len = strlen(hex);
	if (hex_len % 2 || hex_len / 2 > MRC_DEBUGFS_XMIT_MAX)
		return -EINVAL;
	if (mrc_debugfs_parse_addr(src_s, &src) ||
	    mrc_debugfs_parse_addr(dst_s, &dst) ||
	    kstrtou16(sport_s, 0, &sport) || kstrtou8(tos_s, 0, &tos))
		return -EINVAL;

	ibdev = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!ibdev)
		return -ENODEV;
	if (!mrc_ibdev_is_mrc(ibdev)) {
		err = -ENODEV;
		goto out;
	}

	skb = mrc_net_alloc_skb(to_mrc_dev(ibdev), &src, &dst, hex_len / 2);
	if (!skb) {
		err = -ENOMEM;
		goto out;
	}
	if (hex2bin(skb_put(skb, hex_len / 2), hex, hex_len / 2)) {
		kfree_skb(skb);
		err = -EINVAL;
		goto out;
	}
	err = mrc_net_xmit(to_mrc_dev(ibdev), skb, &src, &dst, sport, tos);
out:
	ib_device_put(ibdev);
	return err;
}

static ssize_t mrc_debugfs_xmit_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	char *cmd;
	int err;

	if (count > 2 * MRC_DEBUGFS_XMIT_MAX + 256)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	err = mrc_debugfs_send(cmd);
	kfree(cmd);
	return err ? err : count;
}

static const struct file_operations mrc_debugfs_xmit_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = mrc_debugfs_xmit_write,
	.llseek = no_llseek,
};

void mrc_debugfs_init(void)
{
	mrc_debugfs_dir = debugfs_create_dir("mrc", NULL);
	debugfs_create_file("xmit", 0200, mrc_debugfs_dir, NULL,
			    &mrc_debugfs_xmit_fops);
}

void mrc_debugfs_exit(void)
{
	debugfs_remove_recursive(mrc_debugfs_dir);
	mrc_debugfs_dir = NULL;
}
