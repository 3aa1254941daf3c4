/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Limits and fixed attributes the mrc device advertises. Each limit that a
 * verb enforces is enforced against the value here, so what ibv_devinfo
 * prints is what the device really accepts.
 */
#ifndef MRC_PARAM_H
#define MRC_PARAM_H

#include <linux/bits.h>
#include <linux/netdevice.h>
#include <linux/sizes.h>
#include <rdma/ib_verbs.h>

#include "mrc_wire.h"

/*
 * No IEEE OUI is assigned to soft-MRC. 0xffffff, not a valid OUI, says so:
 * 0 reads as "not reported" and verbs test suites (rdma-core's pyverbs)
 * refuse it.
 */
#define MRC_VENDOR_ID			0xffffff
#define MRC_VENDOR_PART_ID		0x4d52	/* "MR" */
#define MRC_HW_VERSION			1

#define MRC_MAX_UCONTEXT		512
#define MRC_MAX_PD			0x10000

/*
 * Memory regions (mrc_mr.h). The MR count is also the size of the key
 * index space: keys are index << 8 | key byte, index 1..MRC_MAX_MR. A user
 * MR keeps one page pointer per page, 128 MiB at the largest size.
 */
#define MRC_MAX_MR			0x10000
#define MRC_MAX_MR_SIZE			BIT_ULL(36)	/* 64 GiB */
/* Memory windows (mrc_mw.h): their own index space, of this size. */
#define MRC_MAX_MW			0x10000
#define MRC_MAX_FAST_REG_PAGES		512

#define MRC_MAX_CQ			0x4000
/*
 * A ring of up to 1 Mi slots. libfabric's RxM asks for (tx + rx queue
 * sizes) * universe size entries per CQ: 65536 with its defaults.
 */
#define MRC_MAX_CQE			(BIT(20) - 1)

#define MRC_MAX_QP			0x10000
/*
 * QPN 0 and 1 are IB's SMI and GSI (the GSI QP of ib_mad is QPN 1);
 * other queue pairs start above them.
 */
#define MRC_GSI_QPN			1
#define MRC_MIN_QPN			16
#define MRC_MAX_QPN			0xffffff
#define MRC_MAX_QP_WR			0x4000
#define MRC_MAX_SGE			32
#define MRC_MAX_INLINE_DATA		512
#define MRC_MAX_RD_ATOMIC		128

/* Address handles; handles run over a wider space than live AHs. */
#define MRC_MAX_AH			0x10000
#define MRC_MAX_AH_HANDLE		0xffffff

#define MRC_MAX_SRQ			0x4000
#define MRC_MAX_SRQ_WR			0x4000
#define MRC_MAX_SRQ_SGE			MRC_MAX_SGE

#define MRC_PORT_GID_TABLE_LEN		128
#define MRC_PORT_PKEY_TABLE_LEN		1
#define MRC_DEFAULT_PKEY		0xffff
#define MRC_PORT_MAX_MSG_SIZE		SZ_2G

/*
 * Bytes of each Ethernet frame that are not RDMA payload: the outer IPv6
 * header (the larger of the two IP versions), UDP, and the largest MRC
 * header a data packet carries. The active MTU is the largest IB MTU that
 * fits in what is left of the netdev's MTU.
 */
#define MRC_IP_UDP_OVERHEAD		(40 + 8)
#define MRC_ENCAP_OVERHEAD		(MRC_IP_UDP_OVERHEAD + MRC_MAX_DATA_HDR_LEN)

/*
 * The port's active MTU, for query_port and for the QPs' payload size:
 * the largest IB MTU whose packets, encapsulated, fit @ndev's MTU now.
 */
static inline enum ib_mtu mrc_active_mtu(const struct net_device *ndev)
{
	int room = (int)READ_ONCE(ndev->mtu) - MRC_ENCAP_OVERHEAD;

	if (room >= 4096)
		return IB_MTU_4096;
	if (room >= 2048)
		return IB_MTU_2048;
	if (room >= 1024)
		return IB_MTU_1024;
	if (room >= 512)
		return IB_MTU_512;
	return IB_MTU_256;
}

#endif /* MRC_PARAM_H */
