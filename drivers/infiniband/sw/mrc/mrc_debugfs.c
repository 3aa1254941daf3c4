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
 *
 * /sys/kernel/debug/mrc/xmit_ev
 *	Writing "IBDEV PLANE SRC DST SPORT DSCP_ECN USIDS HEX" sends one
 *	packet through mrc_net_xmit_ev() on plane PLANE along the EV whose
 *	UDP source port is SPORT and whose uSIDs are USIDS: "-" for none
 *	(UDP mode), else comma-separated hex uSIDs (SRv6 mode), e.g.
 *	"100,300". The other fields are those of xmit.
 *
 * /sys/kernel/debug/mrc/planes
 *	One line per plane of every mrc device: "IBDEV NETDEV PLANE PORT
 *	STATE TX VIA_MASTER": the plane's index, its netdev (a bond slave,
 *	the device's netdev itself, or "-" for an empty slot), "up" or
 *	"down", packets mrc_net_xmit_ev() sent directly on it, and packets
 *	for it that went through the bond's IP output instead.
 *
 * /sys/kernel/debug/mrc/paths
 *	One line per EV of every RC QP: "IBDEV QPN EV PLANE STATE SENT ACKED
 *	LOST PATH": the EV's index and plane, its state (GOOD, ASSUMED_BAD,
 *	DENIED, UNKNOWN), packets sprayed on it, ACKs and losses it had, and
 *	its path: "udp:PORT" or "usids:U1,U2,..." (hex).
 *
 * /sys/kernel/debug/mrc/req
 *	One line per RC QP that reached RTS: "IBDEV QPN CC CWND INFLIGHT
 *	SRTT RTTVAR RTO BACKOFF TXQ THROTTLES WAIT WINDOW PEAK RX_WINDOW": CC is "nscc" or "fixed",
 *	CWND the window in bytes (NSCC's, or the fixed window in payload
 *	MTUs), INFLIGHT the bytes congestion control counts in flight,
 *	SRTT, RTTVAR and RTO the adaptive RTO's state in microseconds,
 *	BACKOFF the timeouts in a row, TXQ the QP's packets in this host's
 *	transmit queues, THROTTLES the times it waited for them to drain
 *	(mrc_txq.h), WAIT the smoothed time from a packet's build to
 *	its departure in microseconds (mrc_departure.h), WINDOW the PSNs
 *	that may be outstanding (the MPR's, or all 1024), PEAK the most
 *	that ever were, and RX_WINDOW the QP's responder's reordering window
 *	(MPR_DEST's, or all 1024).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_compat.h"
#include "mrc_devices.h"
#include "mrc_net.h"
#include "mrc_qp_paths.h"
#include "mrc_req.h"

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

/* "-" or up to MRC_EV_MAX_USIDS comma-separated hex uSIDs. */
static int mrc_debugfs_parse_usids(char *s, struct mrc_ev_path *path)
{
	char *tok;

	path->n_usids = 0;
	if (!strcmp(s, "-"))
		return 0;
	while ((tok = strsep(&s, ","))) {
		if (path->n_usids == MRC_EV_MAX_USIDS ||
		    kstrtou16(tok, 16, &path->usids[path->n_usids]))
			return -EINVAL;
		path->n_usids++;
	}
	return 0;
}

/* The packet's bytes from HEX, in an skb for @src -> @dst. */
static struct sk_buff *mrc_debugfs_skb(struct mrc_dev *mdev,
				       const struct mrc_net_addr *src,
				       const struct mrc_net_addr *dst,
				       const char *hex, size_t hex_len)
{
	struct sk_buff *skb;

	skb = mrc_net_alloc_skb(mdev, src, dst, hex_len / 2);
	if (!skb)
		return ERR_PTR(-ENOMEM);
	if (hex2bin(skb_put(skb, hex_len / 2), hex, hex_len / 2)) {
		kfree_skb(skb);
		return ERR_PTR(-EINVAL);
	}
	return skb;
}

static int mrc_debugfs_send_ev(char *cmd)
{
	char *name, *plane_s, *src_s, *dst_s, *sport_s, *tos_s, *usids_s, *hex;
	struct mrc_ev_path path = {};
	struct mrc_net_addr src, dst;
	struct ib_device *ibdev;
	struct sk_buff *skb;
	size_t hex_len;
	u8 plane, tos;
	int err;

	name = strsep(&cmd, " ");
	plane_s = strsep(&cmd, " ");
	src_s = strsep(&cmd, " ");
	dst_s = strsep(&cmd, " ");
	sport_s = strsep(&cmd, " ");
	tos_s = strsep(&cmd, " ");
	usids_s = strsep(&cmd, " ");
	hex = strim(cmd ?: "");
	if (!name || !plane_s || !src_s || !dst_s || !sport_s || !tos_s ||
	    !usids_s)
		return -EINVAL;
	hex_len = strlen(hex);
	if (hex_len % 2 || hex_len / 2 > MRC_DEBUGFS_XMIT_MAX)
		return -EINVAL;
	if (kstrtou8(plane_s, 0, &plane) ||
	    mrc_debugfs_parse_addr(src_s, &src) ||
	    mrc_debugfs_parse_addr(dst_s, &dst) ||
	    kstrtou16(sport_s, 0, &path.udp_sport) ||
	    kstrtou8(tos_s, 0, &tos) ||
	    mrc_debugfs_parse_usids(usids_s, &path))
		return -EINVAL;

	ibdev = mrc_ib_device_get_by_name(name);
	if (!ibdev)
		return -ENODEV;
	if (!mrc_ibdev_is_mrc(ibdev)) {
		err = -ENODEV;
		goto out;
	}
	skb = mrc_debugfs_skb(to_mrc_dev(ibdev), &src, &dst, hex, hex_len);
	if (IS_ERR(skb)) {
		err = PTR_ERR(skb);
		goto out;
	}
	err = mrc_net_xmit_ev(to_mrc_dev(ibdev), skb, plane, &path, &src,
			      &dst, tos, NULL);
out:
	ib_device_put(ibdev);
	return err;
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

	ibdev = mrc_ib_device_get_by_name(name);
	if (!ibdev)
		return -ENODEV;
	if (!mrc_ibdev_is_mrc(ibdev)) {
		err = -ENODEV;
		goto out;
	}

	skb = mrc_debugfs_skb(to_mrc_dev(ibdev), &src, &dst, hex, hex_len);
	if (IS_ERR(skb)) {
		err = PTR_ERR(skb);
		goto out;
	}
	err = mrc_net_xmit(to_mrc_dev(ibdev), skb, &src, &dst, sport, tos);
out:
	ib_device_put(ibdev);
	return err;
}

static ssize_t mrc_debugfs_write(const char __user *ubuf, size_t count,
				 int (*send)(char *cmd))
{
	char *cmd;
	int err;

	if (count > 2 * MRC_DEBUGFS_XMIT_MAX + 256)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, count);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	err = send(cmd);
	kfree(cmd);
	return err ? err : count;
}

static ssize_t mrc_debugfs_xmit_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	return mrc_debugfs_write(ubuf, count, mrc_debugfs_send);
}

static ssize_t mrc_debugfs_xmit_ev_write(struct file *file,
					 const char __user *ubuf, size_t count,
					 loff_t *ppos)
{
	return mrc_debugfs_write(ubuf, count, mrc_debugfs_send_ev);
}

static const struct file_operations mrc_debugfs_xmit_ev_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = mrc_debugfs_xmit_ev_write,
};

static int mrc_debugfs_planes_show(struct seq_file *m, void *unused)
{
	mrc_devices_show(m, mrc_planes_show);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mrc_debugfs_planes);

static int mrc_debugfs_paths_show(struct seq_file *m, void *unused)
{
	mrc_devices_show(m, mrc_qp_paths_show);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mrc_debugfs_paths);

static int mrc_debugfs_req_show(struct seq_file *m, void *unused)
{
	mrc_devices_show(m, mrc_req_show);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mrc_debugfs_req);

static const struct file_operations mrc_debugfs_xmit_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = mrc_debugfs_xmit_write,
};

void mrc_debugfs_init(void)
{
	mrc_debugfs_dir = debugfs_create_dir("mrc", NULL);
	debugfs_create_file("xmit", 0200, mrc_debugfs_dir, NULL,
			    &mrc_debugfs_xmit_fops);
	debugfs_create_file("xmit_ev", 0200, mrc_debugfs_dir, NULL,
			    &mrc_debugfs_xmit_ev_fops);
	debugfs_create_file("planes", 0400, mrc_debugfs_dir, NULL,
			    &mrc_debugfs_planes_fops);
	debugfs_create_file("paths", 0400, mrc_debugfs_dir, NULL,
			    &mrc_debugfs_paths_fops);
	debugfs_create_file("req", 0400, mrc_debugfs_dir, NULL,
			    &mrc_debugfs_req_fops);
}

void mrc_debugfs_exit(void)
{
	debugfs_remove_recursive(mrc_debugfs_dir);
	mrc_debugfs_dir = NULL;
}
