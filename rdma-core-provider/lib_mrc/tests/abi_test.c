// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ABI check of lib_mrc's public headers against the published layout of the
 * OCP MRC API (the table below, written from the companion repository's
 * declarations, not computed from our headers). A wrong type, a reordered
 * member or a renumbered constant fails the case that covers it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <mrc.h>
#include <mrc_ctl.h>

#include "abi_table.h"
#include "ktap.h"

/* The controller event without its 1.0.1 member (abi_ctl_100.c). */
size_t abi_ctl_100_ev_event_size(void);

static int check_table(const struct abi_entry *t, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (t[i].actual != t[i].expected) {
			printf("# %s is %lld, published %lld\n", t[i].name,
			       t[i].actual, t[i].expected);
			bad = 1;
		}
	}
	return bad;
}

#define CHECK_TABLE(t) \
	do { if (check_table(t, sizeof(t) / sizeof(t[0]))) ktap_case_failed = 1; } while (0)

static void app_structs_match_published_layout(void)
{
	static const struct abi_entry t[] = {
		ABI_SIZE(struct mrc_device_attr, 20),
		ABI_FIELD(struct mrc_device_attr, mrc_protocol_version, 0, 4),
		ABI_FIELD(struct mrc_device_attr, wimm_attr.max_wimm, 4, 2),
		ABI_FIELD(struct mrc_device_attr, wimm_attr.max_wimm_dest, 6, 2),
		ABI_FIELD(struct mrc_device_attr, mpr_attr.max_mpr, 8, 1),
		ABI_FIELD(struct mrc_device_attr, mpr_attr.mpr_resolution, 9, 1),
		ABI_FIELD(struct mrc_device_attr, qp_attr.max_qp_hint, 12, 4),
		ABI_FIELD(struct mrc_device_attr, cap, 16, 4),

		ABI_SIZE(struct mrc_context_attr, 8),
		ABI_FIELD(struct mrc_context_attr, mrc_api_version_used, 0, 4),
		ABI_FIELD(struct mrc_context_attr, mrc_vendor_api_version_used, 4, 4),

		ABI_SIZE(struct mrc_qp_hint_attr, 140),
		ABI_FIELD(struct mrc_qp_hint_attr, num_qps_per_peer, 0, 4),
		ABI_FIELD(struct mrc_qp_hint_attr, num_send_peers, 4, 4),
		ABI_FIELD(struct mrc_qp_hint_attr, num_remote_recv_peers, 8, 4),
		ABI_FIELD(struct mrc_qp_hint_attr, vendor_cfg, 12, 128),
		ABI_SIZE(struct mrc_qp_hint_init_attr, 140),
		ABI_FIELD(struct mrc_qp_hint_init_attr, attr, 0, 140),

		ABI_SIZE(struct mrc_qp_init_attr, 72),
		ABI_FIELD(struct mrc_qp_init_attr, qp_context, 0, 8),
		ABI_FIELD(struct mrc_qp_init_attr, send_cq, 8, 8),
		ABI_FIELD(struct mrc_qp_init_attr, recv_cq, 16, 8),
		ABI_FIELD(struct mrc_qp_init_attr, cap, 24, 20),
		ABI_FIELD(struct mrc_qp_init_attr, sq_sig_all, 44, 4),
		ABI_FIELD(struct mrc_qp_init_attr, pd, 48, 8),
		ABI_FIELD(struct mrc_qp_init_attr, send_ops_flags, 56, 8),
		ABI_FIELD(struct mrc_qp_init_attr, protocol_version, 64, 4),

		ABI_SIZE(struct mrc_qp_attr, 176),
		ABI_FIELD(struct mrc_qp_attr, mpr.mpr, 0, 1),
		ABI_FIELD(struct mrc_qp_attr, mpr.mpr_dest, 1, 1),
		ABI_FIELD(struct mrc_qp_attr, wimm.max_wimm, 2, 2),
		ABI_FIELD(struct mrc_qp_attr, wimm.max_wimm_dest, 4, 2),
		ABI_FIELD(struct mrc_qp_attr, timeout, 6, 1),
		ABI_FIELD(struct mrc_qp_attr, profile.ev_profile_id, 8, 8),
		ABI_FIELD(struct mrc_qp_attr, profile.cc_profile_id, 16, 8),
		ABI_FIELD(struct mrc_qp_attr, retry.linear_cnt, 24, 1),
		ABI_FIELD(struct mrc_qp_attr, retry.exp_cnt, 25, 1),
		ABI_FIELD(struct mrc_qp_attr, qp_hint, 32, 8),
		ABI_FIELD(struct mrc_qp_attr, cap, 40, 4),
		ABI_FIELD(struct mrc_qp_attr, vendor_cfg, 44, 128),

		ABI_SIZE(struct mrc_async_event, 16),
		ABI_FIELD(struct mrc_async_event, element.cq, 0, 8),
		ABI_FIELD(struct mrc_async_event, element.qp, 0, 8),
		ABI_FIELD(struct mrc_async_event, element.port_num, 0, 4),
		ABI_FIELD(struct mrc_async_event, event_type, 8, 4),
	};

	CHECK_TABLE(t);
}

static void app_constants_match_published_values(void)
{
	static const struct abi_entry t[] = {
		ABI_VAL(MRC_MAX_VENDOR_CFG_SIZE, 128),
		ABI_VAL(MRC_PROTOCOL_VERSION_0, 0),
		ABI_VAL(MRC_PROTOCOL_VERSION_1, 1),
		ABI_VAL(MRC_DEVICE_CAP_TRIM_NACK, 1),
		ABI_VAL(MRC_DEVICE_CAP_DYNAMIC_MPR, 2),
		ABI_VAL(MRC_DEVICE_CAP_SVC_TIME, 4),
		ABI_VAL(MRC_QP_HINT_NUM_QPS_PER_PEER, 1),
		ABI_VAL(MRC_QP_HINT_NUM_SEND_PEERS, 2),
		ABI_VAL(MRC_QP_HINT_NUM_REMOTE_RECV_PEERS, 4),
		ABI_VAL((uint32_t)MRC_QP_HINT_VENDOR_CFG, 0x80000000LL),
		ABI_VAL(MRC_QP_MAX_WIMM, 1),
		ABI_VAL(MRC_QP_MAX_WIMM_DEST, 2),
		ABI_VAL(MRC_QP_MPR, 4),
		ABI_VAL(MRC_QP_MPR_DEST, 8),
		ABI_VAL(MRC_QP_TIMEOUT, 16),
		ABI_VAL(MRC_QP_EV_PROFILE_ID, 32),
		ABI_VAL(MRC_QP_CC_PROFILE_ID, 64),
		ABI_VAL(MRC_QP_HINT, 128),
		ABI_VAL(MRC_QP_RETRY_CNT, 256),
		ABI_VAL(MRC_QP_CAP, 512),
		ABI_VAL((uint32_t)MRC_QP_VENDOR_CFG, 0x80000000LL),
		ABI_VAL(MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED, 1),
		ABI_VAL(MRC_QP_CAP_DYNAMIC_MPR, 2),
		ABI_VAL(MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED, 4),
		ABI_VAL(sizeof(enum mrc_qp_attr_mask), 4),
		ABI_VAL(sizeof(enum mrc_protocol_version), 4),
	};

	CHECK_TABLE(t);
}

static void version_macros_match_published_values(void)
{
	static const struct abi_entry t[] = {
		ABI_VAL(MRC_API_VER_MAJOR_OFFSET, 24),
		ABI_VAL(MRC_API_VER_MINOR_OFFSET, 16),
		ABI_VAL(MRC_API_VER_SUBMINOR_OFFSET, 0),
		ABI_VAL(MRC_API_VER(1, 2, 3), 0x01020003),
		ABI_VAL((uint32_t)MRC_API_VER_LATEST, 0xffffffffLL),
		ABI_VAL(MRC_API_CURRENT_VERSION, 0x01000001),
		ABI_VAL(MRC_API_LAST_SUPPORTED_VERSION, 0),
		ABI_VAL(MRC_API_VER_USED, 0x01000001),
		ABI_VAL(MRC_VENDOR_API_CURRENT_VERSION, 0x01000000),
		ABI_VAL(MRC_VENDOR_API_LAST_SUPPORTED_VERSION, 0),
		ABI_VAL(MRC_VENDOR_API_VER_USED, 0x01000000),
		ABI_VAL(MRC_CTL_API_VER_MAJOR_OFFSET, 24),
		ABI_VAL(MRC_CTL_API_VER_MINOR_OFFSET, 16),
		ABI_VAL(MRC_CTL_API_VER_SUBMINOR_OFFSET, 0),
		ABI_VAL(MRC_CTL_API_VER(1, 2, 3), 0x01020003),
		ABI_VAL((uint32_t)MRC_CTL_API_VER_LATEST, 0xffffffffLL),
		ABI_VAL(MRC_CTL_API_CURRENT_VERSION, 0x01000001),
		ABI_VAL(MRC_CTL_API_LAST_SUPPORTED_VERSION, 0),
		ABI_VAL(MRC_CTL_API_VER_USED, 0x01000001),
		ABI_VAL(MRC_CTL_VENDOR_API_CURRENT_VERSION, 0x01000000),
		ABI_VAL(MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION, 0),
		ABI_VAL(MRC_CTL_VENDOR_API_VER_USED, 0x01000000),
	};

	CHECK_TABLE(t);
}

static void ctl_structs_match_published_layout(void)
{
	static const struct abi_entry t[] = {
		ABI_SIZE(struct mrc_ctl_device_attr, 72),
		ABI_FIELD(struct mrc_ctl_device_attr, mrc_ctl_protocol_version, 0, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_max_fmt_profiles, 4, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_max_profiles, 8, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_max_count, 12, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_free_count, 16, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_max_count_profile, 20, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_count_align, 24, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_max_width, 28, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_fmt_mode_mask, 32, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_mode_mask, 36, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, ev.ev_op_max_entries, 40, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, cc.cc_max_profiles, 48, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, cc.algorithms, 56, 8),
		ABI_FIELD(struct mrc_ctl_device_attr, phy_port_mask, 64, 4),
		ABI_FIELD(struct mrc_ctl_device_attr, opt_attr, 68, 4),

		ABI_SIZE(struct mrc_ctl_port_attr, 4),
		ABI_FIELD(struct mrc_ctl_port_attr, port_admin_state, 0, 4),

		ABI_SIZE(struct mrc_ctl_ev_fmt_field, 1),
		ABI_SIZE(struct mrc_ctl_ev_fmt_profile_attr, 168),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, profile_state, 0, 4),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, cur_profile_state, 4, 4),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_mode, 8, 4),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.op, 16, 4),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_fields, 24, 8),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, ev_fmt_op.fmt_field_count, 32, 4),
		ABI_FIELD(struct mrc_ctl_ev_fmt_profile_attr, vendor_cfg, 40, 128),

		ABI_SIZE(mrc_ctl_ev_t, 32),
		ABI_SIZE(struct mrc_ctl_ev, 33),
		ABI_FIELD(struct mrc_ctl_ev, val, 0, 32),
		ABI_FIELD(struct mrc_ctl_ev, port, 32, 1),

		ABI_SIZE(struct mrc_ctl_ev_field, 20),
		ABI_FIELD(struct mrc_ctl_ev_field, width, 0, 4),
		ABI_FIELD(struct mrc_ctl_ev_field, init_val, 4, 4),
		ABI_FIELD(struct mrc_ctl_ev_field, min_val, 8, 4),
		ABI_FIELD(struct mrc_ctl_ev_field, max_val, 12, 4),
		ABI_FIELD(struct mrc_ctl_ev_field, mask, 16, 4),

		ABI_SIZE(struct mrc_ctl_ev_op_entry, 76),
		ABI_FIELD(struct mrc_ctl_ev_op_entry, ev, 0, 33),
		ABI_FIELD(struct mrc_ctl_ev_op_entry, ev_new, 33, 33),
		ABI_FIELD(struct mrc_ctl_ev_op_entry, state, 68, 4),
		ABI_FIELD(struct mrc_ctl_ev_op_entry, flags, 72, 4),

		ABI_SIZE(struct mrc_ctl_ev_profile_attr, 216),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, profile_state, 0, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, cur_profile_state, 4, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_mode, 8, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_fmt_profile_id, 16, 8),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_count, 24, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_min_active, 28, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_event_mask, 32, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_op.op, 40, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_op.entries, 48, 8),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_op.entry_count, 56, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op.op, 64, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op.fields, 72, 8),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, ev_fields_op.field_count, 80, 4),
		ABI_FIELD(struct mrc_ctl_ev_profile_attr, vendor_cfg, 88, 128),

		ABI_SIZE(struct mrc_ctl_cc_profile_attr, 152),
		ABI_FIELD(struct mrc_ctl_cc_profile_attr, profile_state, 0, 4),
		ABI_FIELD(struct mrc_ctl_cc_profile_attr, cur_profile_state, 4, 4),
		ABI_FIELD(struct mrc_ctl_cc_profile_attr, algorithm, 8, 8),
		ABI_FIELD(struct mrc_ctl_cc_profile_attr, cc_config, 16, 8),
		ABI_FIELD(struct mrc_ctl_cc_profile_attr, vendor_cfg, 24, 128),

		ABI_SIZE(struct mrc_ctl_cc_nscc_cfg, 52),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, disable_qa, 0, 1),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, adjust_bytes_threshold, 4, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, adjust_period_threshold, 8, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, base_rtt, 12, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, eta, 16, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, fi, 20, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, fi_scale, 24, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, gamma, 28, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, max_md_jump, 32, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, max_cwnd, 36, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, qa_gate, 40, 1),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, qa_threshold, 44, 4),
		ABI_FIELD(struct mrc_ctl_cc_nscc_cfg, target_delay, 48, 4),

		ABI_SIZE(struct mrc_ctl_ev_event, 56),
		ABI_FIELD(struct mrc_ctl_ev_event, profile_id, 0, 8),
		ABI_FIELD(struct mrc_ctl_ev_event, ev, 8, 33),
		ABI_FIELD(struct mrc_ctl_ev_event, drop_count, 44, 4),
		ABI_FIELD(struct mrc_ctl_ev_event, state, 48, 4),

		ABI_SIZE(struct mrc_ctl_ep_req, 88),
		ABI_FIELD(struct mrc_ctl_ep_req, req_id, 0, 2),
		ABI_FIELD(struct mrc_ctl_ep_req, sgid, 8, 16),
		ABI_FIELD(struct mrc_ctl_ep_req, dgid, 24, 16),
		ABI_FIELD(struct mrc_ctl_ep_req, ev_fmt_mode, 40, 4),
		ABI_FIELD(struct mrc_ctl_ep_req, req_ev, 44, 33),
		ABI_FIELD(struct mrc_ctl_ep_req, op.port_status_update.port_status, 80, 4),

		ABI_SIZE(struct mrc_ctl_ep_rsp, 12),
		ABI_FIELD(struct mrc_ctl_ep_rsp, req_id, 0, 2),
		ABI_FIELD(struct mrc_ctl_ep_rsp, port, 2, 1),
		ABI_FIELD(struct mrc_ctl_ep_rsp, rtt, 4, 4),
		ABI_FIELD(struct mrc_ctl_ep_rsp, adj_svc_time, 8, 1),
	};

	CHECK_TABLE(t);
}

static void ctl_constants_match_published_values(void)
{
	static const struct abi_entry t[] = {
		ABI_VAL(MRC_CTL_MAX_VENDOR_CFG_SIZE, 128),
		ABI_VAL(MRC_CTL_EV_MAX_BYTES, 32),
		ABI_VAL(MRC_CTL_PROTOCOL_VERSION_0, 0),
		ABI_VAL(MRC_CTL_PROTOCOL_VERSION_1, 1),
		ABI_VAL(MRC_CTL_PROFILE_INIT, 0),
		ABI_VAL(MRC_CTL_PROFILE_OFFLINE, 1),
		ABI_VAL(MRC_CTL_PROFILE_ONLINE, 2),
		ABI_VAL(MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE, 1),
		ABI_VAL(MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE, 2),
		ABI_VAL(MRC_CTL_OPT_CAP_EV_EVENT, 4),
		ABI_VAL(MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE, 8),
		ABI_VAL(MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT, 16),
		ABI_VAL(MRC_CTL_OPT_CAP_EP_OP_EV_PROBE, 32),
		ABI_VAL(MRC_CTL_PORT_ADMIN_DISABLED, 0),
		ABI_VAL(MRC_CTL_PORT_ADMIN_ENABLED, 1),
		ABI_VAL(MRC_CTL_PORT_ADMIN_STATE, 1),
		ABI_VAL(MRC_CTL_EV_FMT_MODE_STEV, 1),
		ABI_VAL(MRC_CTL_EV_FMT_MODE_SRV6, 2),
		ABI_VAL(MRC_CTL_EV_FMT_MODE_UDP, 4),
		ABI_VAL(MRC_CTL_EV_FMT_OP_MODIFY_FIELDS, 0),
		ABI_VAL(MRC_CTL_EV_FMT_OP_QUERY_FIELDS, 1),
		ABI_VAL(MRC_CTL_EV_FMT_PROFILE_STATE, 1),
		ABI_VAL(MRC_CTL_EV_FMT_PROFILE_CUR_STATE, 2),
		ABI_VAL(MRC_CTL_EV_FMT_PROFILE_MODE, 4),
		ABI_VAL(MRC_CTL_EV_FMT_PROFILE_OP, 8),
		ABI_VAL((uint32_t)MRC_CTL_EV_FMT_VENDOR_CFG, 0x80000000LL),
		ABI_VAL(MRC_CTL_EV_GOOD, 1),
		ABI_VAL(MRC_CTL_EV_ASSUMED_BAD, 2),
		ABI_VAL(MRC_CTL_EV_DENIED, 4),
		ABI_VAL((uint32_t)MRC_CTL_EV_UNKNOWN, 0x80000000LL),
		ABI_VAL(MRC_CTL_EV_MODE_AUTO, 1),
		ABI_VAL(MRC_CTL_EV_MODE_EXP, 2),
		ABI_VAL(MRC_CTL_EV_MODE_GEN, 4),
		ABI_VAL(MRC_CTL_EV_OP_REPLACE_EV, 0),
		ABI_VAL(MRC_CTL_EV_OP_MODIFY_EV_STATE, 1),
		ABI_VAL(MRC_CTL_EV_OP_QUERY_EV_STATE, 2),
		ABI_VAL(MRC_CTL_EV_OP_QUERY_EV_ARRAY, 3),
		ABI_VAL(MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS, 0),
		ABI_VAL(MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS, 1),
		ABI_VAL(MRC_CTL_EV_PROFILE_STATE, 1),
		ABI_VAL(MRC_CTL_EV_PROFILE_CUR_STATE, 2),
		ABI_VAL(MRC_CTL_EV_PROFILE_MODE, 4),
		ABI_VAL(MRC_CTL_EV_PROFILE_FMT_ID, 8),
		ABI_VAL(MRC_CTL_EV_PROFILE_COUNT, 16),
		ABI_VAL(MRC_CTL_EV_PROFILE_MIN_ACTIVE, 32),
		ABI_VAL(MRC_CTL_EV_PROFILE_EVENT_MASK, 64),
		ABI_VAL(MRC_CTL_EV_PROFILE_EV_OP, 128),
		ABI_VAL(MRC_CTL_EV_PROFILE_EV_FIELDS_OP, 256),
		ABI_VAL((uint32_t)MRC_CTL_EV_PROFILE_VENDOR_CFG, 0x80000000LL),
		ABI_VAL(MRC_CTL_EV_OP_F_ALL_COPIES, 1),
		ABI_VAL(MRC_CTL_CC_PROFILE_STATE, 1),
		ABI_VAL(MRC_CTL_CC_PROFILE_CUR_STATE, 2),
		ABI_VAL(MRC_CTL_CC_PROFILE_ALGORITHM, 4),
		ABI_VAL(MRC_CTL_CC_PROFILE_CONFIG, 8),
		ABI_VAL((uint32_t)MRC_CTL_CC_PROFILE_VENDOR_CFG, 0x80000000LL),
		ABI_VAL(MRC_CTL_EP_OP_EV_PROBE, 0),
		ABI_VAL(MRC_CTL_EP_OP_PORT_STATUS_UPDATE, 1),
	};

	CHECK_TABLE(t);
}

static void ctl_ev_event_of_1_0_0_has_no_state(void)
{
	CHECK_EQ(abi_ctl_100_ev_event_size(), 48);
}

static void unpopulated_ev_is_all_zero(void)
{
	static const uint8_t zero[sizeof(struct mrc_ctl_ev)];
	struct mrc_ctl_ev ev;

	memset(&ev, 0xa5, sizeof(ev));
	ev = MRC_CTL_EV_UNPOPULATED;
	CHECK(memcmp(&ev.val, zero, sizeof(ev.val)) == 0);
	CHECK_EQ(ev.port, 0);
}

/* The table is LP64's; on another data model every case would mislead. */
static void data_model_is_lp64(void)
{
	CHECK_EQ(sizeof(void *), 8);
	CHECK_EQ(sizeof(long), 8);
	CHECK_EQ(sizeof(int), 4);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(data_model_is_lp64),
	KTAP_CASE(app_structs_match_published_layout),
	KTAP_CASE(app_constants_match_published_values),
	KTAP_CASE(version_macros_match_published_values),
	KTAP_CASE(ctl_structs_match_published_layout),
	KTAP_CASE(ctl_constants_match_published_values),
	KTAP_CASE(ctl_ev_event_of_1_0_0_has_no_state),
	KTAP_CASE(unpopulated_ev_is_all_zero),
};

KTAP_MAIN("lib_mrc_abi", cases)
