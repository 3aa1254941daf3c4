/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The errno checks api_test and ctl_test share: a call documented to
 * return -1 with errno set must do both.
 */
#ifndef LIB_MRC_TEST_CHECK_ERRNO_H
#define LIB_MRC_TEST_CHECK_ERRNO_H

#include <errno.h>

#include "ktap.h"

#define CHECK_FAILS(call, err)						\
	do {								\
		errno = 0;						\
		CHECK_EQ((long long)(call), -1);			\
		CHECK_EQ(errno, err);					\
	} while (0)

#endif /* LIB_MRC_TEST_CHECK_ERRNO_H */
