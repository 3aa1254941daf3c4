/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The uapi numbers (include/uapi/rdma/mrc-ctl.h) ctl_test.c builds and
 * reads messages with, restated because the uapi header cannot be
 * included next to mrc_ctl.h; ctl_uapi_check.c asserts each one.
 */
#ifndef LIB_MRC_CTL_TEST_UAPI_H
#define LIB_MRC_CTL_TEST_UAPI_H

enum {
	U_CMD_DEV_GET = 1, U_CMD_PROFILE_NEW, U_CMD_PROFILE_DEL,
	U_CMD_PROFILE_GET, U_CMD_EV_GET, U_CMD_EV_SET, U_CMD_DEV_SET,
	U_CMD_CC_GET, U_CMD_CC_SET, U_CMD_PATH_GET,
	U_CMD_EV_EVENT = 12,
};

enum {
	U_A_DEV = 1, U_A_NETDEV, U_A_NUM_PLANES, U_A_DEFAULT_PROFILE,
	U_A_PROFILE_ID, U_A_FORMAT, U_A_MODE, U_A_MIN_ACTIVE, U_A_PEER,
	U_A_DEFAULT, U_A_PLANE_MASK, U_A_EVS, U_A_EV, U_A_FIELDS, U_A_FIELD,
	U_A_NUM_EVS, U_A_REPLACE, U_A_PAD, U_A_SINGLE_PATH, U_A_DATA_DSCP,
	U_A_CTRL_DSCP, U_A_CC_ENABLED, U_A_CC_ALGORITHM, U_A_CC, U_A_CC_RESET,
	U_A_QPN, U_A_DEST_QPN,
	U_A_EVENT_MASK = 32,
};

enum {
	U_EV_INDEX = 1, U_EV_PLANE, U_EV_UDP_SPORT, U_EV_SRV6, U_EV_STATE,
	U_EV_USIDS, U_EV_PROFILE_INDEX, U_EV_SENT,
	U_EV_REASON = 13, U_EV_DROP_COUNT,
};

enum {
	U_FIELD_WIDTH = 1, U_FIELD_INIT, U_FIELD_MIN, U_FIELD_MAX,
	U_FIELD_MASK,
};

#endif /* LIB_MRC_CTL_TEST_UAPI_H */
