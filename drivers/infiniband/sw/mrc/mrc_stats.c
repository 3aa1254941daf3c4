// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-device counters (mrc_stats.h), reported to ib_core as the hardware
 * counters of port 1.
 */
#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include <rdma/ib_verbs.h>

#include "mrc.h"
#include "mrc_stats.h"

#define MRC_STAT_NAME_LEN	32

static char mrc_wire_drop_names[MRC_DROP_REASON_COUNT][MRC_STAT_NAME_LEN];

/* Names of the counters; the decoder's drop reasons are filled in at init. */
static struct rdma_stat_desc mrc_stat_descs[MRC_CNT_NUM] = {
	[MRC_CNT_RX_PACKETS].name		= "rx_packets",
	[MRC_CNT_RX_BYTES].name			= "rx_bytes",
	[MRC_CNT_TX_PACKETS].name		= "tx_packets",
	[MRC_CNT_TX_BYTES].name			= "tx_bytes",
	[MRC_CNT_TX_ERRORS].name		= "tx_errors",
	[MRC_CNT_RX_DROP_BAD_CHECKSUM].name	= "rx_drop_bad_checksum",
	[MRC_CNT_RX_DROP_NO_DEVICE].name	= "rx_drop_no_device",
	[MRC_CNT_RX_DROP_BAD_ADDRESS].name	= "rx_drop_bad_address",
	[MRC_CNT_RX_DROP_NO_MEMORY].name	= "rx_drop_no_memory",
	[MRC_CNT_RX_DROP_NO_QP].name		= "rx_drop_no_qp",
	[MRC_CNT_RX_DROP_QP_STATE].name		= "rx_drop_qp_state",
	[MRC_CNT_RX_DROP_BAD_SOURCE_QP].name	= "rx_drop_bad_source_qp",
	[MRC_CNT_RX_DROP_OUT_OF_WINDOW].name	= "rx_drop_out_of_window",
	[MRC_CNT_RETRANSMITS].name		= "retransmits",
	[MRC_CNT_OUT_OF_ORDER].name		= "out_of_order",
	[MRC_CNT_DUPLICATES].name		= "duplicates",
	[MRC_CNT_TIMEOUTS].name			= "timeouts",
	[MRC_CNT_TRIMS].name			= "trims",
	[MRC_CNT_RX_DROP_BAD_QKEY].name		= "rx_drop_bad_qkey",
	[MRC_CNT_RX_DROP_NO_RECV].name		= "rx_drop_no_recv",
	[MRC_CNT_RX_DROP_RECV_TOO_SMALL].name	= "rx_drop_recv_too_small",
	[MRC_CNT_RX_DROP_UD_TRIMMED].name	= "rx_drop_ud_trimmed",
	[MRC_CNT_EV_RETIRED].name		= "ev_retired",
	[MRC_CNT_PROBES_SENT].name		= "probes_sent",
	[MRC_CNT_PROBES_ANSWERED].name		= "probes_answered",
	[MRC_CNT_PROBES_LOST].name		= "probes_lost",
	[MRC_CNT_RETRANSMITS_TRIM].name		= "retransmits_trim",
	[MRC_CNT_RETRANSMITS_LOSS].name		= "retransmits_loss",
	[MRC_CNT_RETRANSMITS_TIMEOUT].name	= "retransmits_timeout",
	[MRC_CNT_RETRANSMITS_RNR].name		= "retransmits_rnr",
	[MRC_CNT_CC_DECREASES].name		= "cc_decreases",
	[MRC_CNT_CC_QUICK_ADAPTS].name		= "cc_quick_adapts",
	[MRC_CNT_CC_EV_SWITCHES].name		= "cc_ev_switches",
	[MRC_CNT_TIMER_LATE].name		= "rto_timer_late",
	[MRC_CNT_PLANE_STATE_SENT].name		= "plane_state_sent",
	[MRC_CNT_PLANE_STATE_APPLIED].name	= "plane_state_applied",
	[MRC_CNT_EV_CHARGES_CANCELLED].name	= "ev_charges_cancelled",
	[MRC_CNT_PATH_BACK_RESTARTS].name	= "path_back_restarts",
	[MRC_CNT_UC_MSGS_DROPPED].name		= "uc_msgs_dropped",
	[MRC_CNT_UC_PKTS_DISCARDED].name	= "uc_pkts_discarded",
	[MRC_CNT_EP_PROBES_SENT].name		= "ep_probes_sent",
	[MRC_CNT_EP_PROBES_ANSWERED].name	= "ep_probes_answered",
	[MRC_CNT_EP_REPLIES_SENT].name		= "ep_replies_sent",
	[MRC_CNT_EP_REPLIES_LIMITED].name	= "ep_replies_limited",
	[MRC_CNT_RX_DROP_EP_SOURCE].name	= "rx_drop_ep_source",
	[MRC_CNT_RX_DROP_EP_UNMATCHED].name	= "rx_drop_ep_unmatched",
	[MRC_CNT_EXP_TIMEOUTS].name		= "exp_timeouts",
	[MRC_CNT_EP_PORT_STATUS_SENT].name	= "ep_port_status_sent",
	[MRC_CNT_EP_PORT_STATUS_ANSWERED].name	= "ep_port_status_answered",
	[MRC_CNT_EP_PORT_STATUS_APPLIED].name	= "ep_port_status_applied",
	[MRC_CNT_RX_DROP_EP_PORTS_FULL].name	= "rx_drop_ep_ports_full",
	[MRC_CNT_RETRANSMITS_PLANE].name	= "retransmits_plane",
	[MRC_CNT_TRIMS_UNANSWERED].name		= "trims_unanswered",
};

/* Module init, before any device exists: rx_drop_<reason> for the codec. */
void mrc_stats_init(void)
{
	enum mrc_drop_reason reason;

	for (reason = MRC_DROP_NONE + 1; reason < MRC_DROP_REASON_COUNT;
	     reason++) {
		snprintf(mrc_wire_drop_names[reason], MRC_STAT_NAME_LEN,
			 "rx_drop_%s", mrc_drop_reason_name(reason));
		mrc_stat_descs[mrc_cnt_wire_drop(reason)].name =
			mrc_wire_drop_names[reason];
	}
}

int mrc_stats_dev_alloc(struct mrc_dev *mdev)
{
	int cpu;

	mdev->stats = alloc_percpu(struct mrc_pcpu_stats);
	if (!mdev->stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(mdev->stats, cpu)->syncp);
	return 0;
}

void mrc_stats_dev_free(struct mrc_dev *mdev)
{
	free_percpu(mdev->stats);
	mdev->stats = NULL;
}

void mrc_stats_add(struct mrc_dev *mdev, enum mrc_counter cnt, u64 val)
{
	struct mrc_pcpu_stats *s = get_cpu_ptr(mdev->stats);
	unsigned long flags;

	/* Process and softirq context may both count on one CPU. */
	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->cnt[cnt], val);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	put_cpu_ptr(mdev->stats);
}

static void mrc_stats_sum(struct mrc_dev *mdev, u64 *sum)
{
	const struct mrc_pcpu_stats *s;
	atomic64_t *ns_drops;
	unsigned int start, i;
	u64 v[MRC_CNT_NUM];
	int cpu;

	memset(sum, 0, sizeof(*sum) * MRC_CNT_NUM);
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(mdev->stats, cpu);
		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < MRC_CNT_NUM; i++)
				v[i] = u64_stats_read(&s->cnt[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < MRC_CNT_NUM; i++)
			sum[i] += v[i];
	}
	/* Namespace-wide drops before a device was found (counters.rst). */
	ns_drops = READ_ONCE(mdev->ns_rx_drop_no_device);
	sum[MRC_CNT_RX_DROP_NO_DEVICE] = ns_drops ? atomic64_read(ns_drops) : 0;
}

u64 mrc_stats_read(struct mrc_dev *mdev, enum mrc_counter cnt)
{
	u64 sum[MRC_CNT_NUM];

	mrc_stats_sum(mdev, sum);
	return sum[cnt];
}

static struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
						     u32 port_num)
{
	return rdma_alloc_hw_stats_struct(mrc_stat_descs, MRC_CNT_NUM,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int mrc_get_hw_stats(struct ib_device *ibdev,
			    struct rdma_hw_stats *stats, u32 port, int index)
{
	BUILD_BUG_ON(ARRAY_SIZE(mrc_stat_descs) != MRC_CNT_NUM);

	if (port != 1 || stats->num_counters != MRC_CNT_NUM)
		return -EINVAL;
	mrc_stats_sum(to_mrc_dev(ibdev), stats->value);
	return MRC_CNT_NUM;
}

const struct ib_device_ops mrc_stats_ops = {
	.alloc_hw_port_stats = mrc_alloc_hw_port_stats,
	.get_hw_stats = mrc_get_hw_stats,
};
