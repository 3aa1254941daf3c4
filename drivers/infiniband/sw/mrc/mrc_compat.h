/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Every bridge between the kernel APIs mrc.ko builds against, 6.1 to the
 * newest 7.x (Documentation/supported-kernels.rst). The driver is written
 * against the newest API; what an older kernel lacks is provided here.
 *
 * Each choice follows a compile-time probe of the target kernel
 * (probes/NAME.c compiles -> MRC_HAVE_NAME in the generated
 * mrc_compat_probes.h), never a version number: distributions backport.
 * Glue only: the protocol core (mrc_core_types.h) never includes this.
 */
#ifndef MRC_COMPAT_H
#define MRC_COMPAT_H

#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/hrtimer.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "mrc_compat_probes.h"

/* Too old, or a needed API gone with no bridge: say which, and stop. */
#ifndef MRC_HAVE_NETDEV_HOLD
#error "mrc: this kernel lacks netdev_hold() (6.0); supported: 6.1 to 7.x"
#endif
#if !defined(MRC_HAVE_IB_UMEM_GET_VA) && !defined(MRC_HAVE_IB_UMEM_GET)
#error "mrc: this kernel has neither ib_umem_get_va() nor ib_umem_get(); supported: 6.1 to 7.x"
#endif

#ifdef MRC_HAVE_LINUX_HEX_H
#include <linux/hex.h>
#endif
#ifdef MRC_HAVE_IPV6_STUBS_H
#include <net/ipv6_stubs.h>
#endif

/* vma->vm_flags became read-only in 6.3, written through these setters. */
#ifndef MRC_HAVE_VM_FLAGS_SET
static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/* timer_delete_sync() (6.2, in 6.1.y) and timer_container_of() (6.16). */
#ifndef MRC_HAVE_TIMER_DELETE_SYNC
static inline int timer_delete_sync(struct timer_list *timer)
{
	return del_timer_sync(timer);
}
#endif
#ifndef MRC_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/* hrtimer_setup() (6.13) sets the callback that hrtimer_init() left. */
#ifndef MRC_HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * ib_umem_get_va() is ib_umem_get() renamed (7.x), when the core learnt to
 * take user memory from uverbs attributes too: with none, as here, it pins
 * the same pages of the same virtual range with the same access.
 */
#ifndef MRC_HAVE_IB_UMEM_GET_VA
static inline struct ib_umem *ib_umem_get_va(struct ib_device *device,
					     unsigned long addr, size_t size,
					     int access)
{
	return ib_umem_get(device, addr, size, access);
}
#endif

/*
 * CQ creation. The driver implements
 *	int fn(struct ib_cq *, const struct ib_cq_init_attr *,
 *	       struct ib_udata *udata)
 * with a NULL udata for a kernel CQ, which is create_cq itself up to 6.10.
 * From 6.11 create_cq takes the uverbs attribute bundle instead: NULL for a
 * kernel CQ (ib_alloc_cq()), the user's udata in ->driver_udata otherwise.
 * A kernel with create_user_cq calls it for every user CQ and create_cq for
 * kernel ones only; upstream is removing the fallback that sends user CQs
 * to create_cq, so both are set wherever create_user_cq exists.
 *
 * MRC_COMPAT_CREATE_CQ(fn) defines the entry points the kernel calls,
 * MRC_COMPAT_CREATE_CQ_OPS(fn) names them in a struct ib_device_ops.
 */
#ifdef MRC_HAVE_CREATE_CQ_ATTRS
#define MRC_COMPAT_CREATE_CQ(fn)					\
static int fn##_attrs(struct ib_cq *ibcq,				\
		      const struct ib_cq_init_attr *attr,		\
		      struct uverbs_attr_bundle *attrs)			\
{									\
	return fn(ibcq, attr, attrs ? &attrs->driver_udata : NULL);	\
}

#ifdef MRC_HAVE_CREATE_USER_CQ
#define MRC_COMPAT_CREATE_CQ_OPS(fn)					\
	.create_cq = fn##_attrs,					\
	.create_user_cq = fn##_attrs
#else
#define MRC_COMPAT_CREATE_CQ_OPS(fn)					\
	.create_cq = fn##_attrs
#endif
#else
#define MRC_COMPAT_CREATE_CQ(fn)
#define MRC_COMPAT_CREATE_CQ_OPS(fn)					\
	.create_cq = fn
#endif

/*
 * CQ resize. The driver implements
 *	int fn(struct ib_cq *, unsigned int cqe, struct ib_udata *udata)
 * with a NULL udata for a kernel CQ. Up to 6.x that is resize_cq, with an
 * int cqe straight from userspace, which ib_resize_cq() also calls for
 * kernel CQs; 7.x renamed it resize_user_cq, took the unsigned count and
 * dropped ib_resize_cq(), so only user CQs are resized there.
 *
 * MRC_COMPAT_RESIZE_CQ(fn) defines the entry point the kernel calls,
 * MRC_COMPAT_RESIZE_CQ_OPS(fn) names it in a struct ib_device_ops.
 */
#ifdef MRC_HAVE_RESIZE_USER_CQ
#define MRC_COMPAT_RESIZE_CQ(fn)
#define MRC_COMPAT_RESIZE_CQ_OPS(fn)					\
	.resize_user_cq = fn
#else
#define MRC_COMPAT_RESIZE_CQ(fn)					\
static int fn##_int(struct ib_cq *ibcq, int cqe, struct ib_udata *udata) \
{									\
	/* A negative count would turn into a huge unsigned one. */	\
	return cqe < 1 ? -EINVAL : fn(ibcq, cqe, udata);		\
}

#define MRC_COMPAT_RESIZE_CQ_OPS(fn)					\
	.resize_cq = fn##_int
#endif

/*
 * reg_user_mr gained a DMA handle (struct ib_dmah, 6.17): placement hints
 * (CPU, TPH steering tag) for a device's DMA to the MR. mrc does no DMA and
 * offers no alloc_dmah, so uverbs never passes one; refuse one anyway
 * rather than ignore what was asked for.
 *
 * MRC_COMPAT_REG_USER_MR(fn) adapts
 *	struct ib_mr *fn(struct ib_pd *, u64 start, u64 length, u64 iova,
 *			 int access, struct ib_udata *)
 * and MRC_COMPAT_REG_USER_MR_OPS(fn) names the result in the ops.
 */
#ifdef MRC_HAVE_REG_USER_MR_DMAH
#define MRC_COMPAT_REG_USER_MR(fn)					\
static struct ib_mr *fn##_dmah(struct ib_pd *ibpd, u64 start,		\
			       u64 length, u64 iova, int access,	\
			       struct ib_dmah *dmah,			\
			       struct ib_udata *udata)			\
{									\
	if (dmah)							\
		return ERR_PTR(-EOPNOTSUPP);				\
	return fn(ibpd, start, length, iova, access, udata);		\
}

#define MRC_COMPAT_REG_USER_MR_OPS(fn)					\
	.reg_user_mr = fn##_dmah
#else
#define MRC_COMPAT_REG_USER_MR(fn)
#define MRC_COMPAT_REG_USER_MR_OPS(fn)					\
	.reg_user_mr = fn
#endif

/*
 * The RDMA device named @name, with a registration reference
 * (ib_device_put()), or NULL. Where ib_core no longer exports
 * ib_device_get_by_name() (7.x), mrc's own device list answers: it knows
 * mrc devices only, where the core's lookup by RDMA_DRIVER_UNKNOWN also
 * found other out-of-tree drivers' devices.
 */
struct ib_device *mrc_ibdev_get_by_name(const char *name);

static inline struct ib_device *mrc_ib_device_get_by_name(const char *name)
{
#ifdef MRC_HAVE_IB_DEVICE_GET_BY_NAME
	return ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
#else
	return mrc_ibdev_get_by_name(name);
#endif
}

/* A dump's parsed attributes moved into genl_dumpit_info.info in 6.2. */
static inline struct nlattr **mrc_genl_dump_attrs(struct netlink_callback *cb)
{
#ifdef MRC_HAVE_GENL_DUMPIT_INFO_INFO
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * EV events need genetlink to keep non-admins out of their multicast group
 * (GENL_MCAST_CAP_NET_ADMIN: 6.7, backported to 6.1.64). Older kernels
 * check nothing when a socket joins a generic netlink group and offer the
 * family no hook to check it, so there the family registers no group and
 * sends no event (mrc_ctl_netlink.c).
 */
#ifdef MRC_HAVE_GENL_MCAST_CAP_NET_ADMIN
#define MRC_HAVE_EV_EVENTS		1
#define MRC_GENL_MCGRP_ADMIN_ONLY	.flags = GENL_MCAST_CAP_NET_ADMIN,
#else
#define MRC_HAVE_EV_EVENTS		0
#define MRC_GENL_MCGRP_ADMIN_ONLY
#endif

/*
 * The IPv6 route lookup. ipv6_stub let built-in code reach IPv6 when it was
 * a module; 7.x calls ip6_dst_lookup_flow() directly (an -EAFNOSUPPORT
 * stub without IPv6), the function the stub pointed to.
 */
static inline struct dst_entry *
mrc_ip6_dst_lookup_flow(struct net *net, const struct sock *sk,
			struct flowi6 *fl6)
{
#ifdef MRC_HAVE_IPV6_STUBS_H
	return ipv6_stub->ipv6_dst_lookup_flow(net, sk, fl6, NULL);
#else
	return ip6_dst_lookup_flow(net, sk, fl6, NULL);
#endif
}

/*
 * The tunnel socket calls take the struct sock in 7.x (and 7.0.y/7.1.y
 * stable updates); the socket is still made by udp_sock_create() and
 * released whole by udp_tunnel_sock_release(). The driver relies on the
 * release waiting for encap_rcv calls in flight, which the struct socket
 * version does (synchronize_rcu() after clearing sk_user_data); after the
 * struct sock version, wait for them explicitly: the socket is unhashed
 * by then, so no new call starts.
 */
static inline void mrc_setup_udp_tunnel_sock(struct net *net,
					     struct socket *sock,
					     struct udp_tunnel_sock_cfg *cfg)
{
#ifdef MRC_HAVE_UDP_TUNNEL_SOCK_SK
	setup_udp_tunnel_sock(net, sock->sk, cfg);
#else
	setup_udp_tunnel_sock(net, sock, cfg);
#endif
}

static inline void mrc_udp_tunnel_sock_release(struct socket *sock)
{
#ifdef MRC_HAVE_UDP_TUNNEL_SOCK_SK
	udp_tunnel_sock_release(sock->sk);
	synchronize_rcu();
#else
	udp_tunnel_sock_release(sock);
#endif
}

/*
 * The route lookup key of the outer IPv4 header's DS field. Up to 6.x the
 * flow carries the TOS bits (RT_TOS(); the lookup uses those under
 * IPTOS_RT_MASK); later kernels carry the whole DSCP (flowi4_dscp), so
 * tos/dscp routes and rules see all six DSCP bits, as for the kernel's
 * own tunnels.
 */
static inline void mrc_flowi4_set_dsfield(struct flowi4 *fl4, u8 dsfield)
{
#ifdef MRC_HAVE_FLOWI4_DSCP
	fl4->flowi4_dscp = inet_dsfield_to_dscp(dsfield);
#else
	fl4->flowi4_tos = RT_TOS(dsfield);
#endif
}

#endif /* MRC_COMPAT_H */
