// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests of 24-bit PSN serial arithmetic (mrc_psn.h). */
#include "ktap.h"
#include "mrc_psn.h"

static void psn_add_wraps_at_24_bits(void)
{
	CHECK_EQ(mrc_psn_add(MRC_PSN_MASK, 1), 0);
	CHECK_EQ(mrc_psn_add(MRC_PSN_MASK - 1, 5), 3);
	CHECK_EQ(mrc_psn_add(10, 0), 10);
	CHECK_EQ(mrc_psn(0x12345678), 0x345678);
}

static void psn_distance_is_forward(void)
{
	CHECK_EQ(mrc_psn_distance(5, 9), 4);
	CHECK_EQ(mrc_psn_distance(9, 5), (1u << 24) - 4);
	CHECK_EQ(mrc_psn_distance(MRC_PSN_MASK, 2), 3);
	CHECK_EQ(mrc_psn_distance(7, 7), 0);
}

static void psn_diff_is_signed_and_wraps(void)
{
	CHECK_EQ(mrc_psn_diff(100, 90), -10);
	CHECK_EQ(mrc_psn_diff(90, 100), 10);
	CHECK_EQ(mrc_psn_diff(MRC_PSN_MASK - 2, 3), 6);
	CHECK_EQ(mrc_psn_diff(3, MRC_PSN_MASK - 2), -6);
	/* Exactly half apart is defined as "after", never both or neither. */
	CHECK_EQ(mrc_psn_diff(0, MRC_PSN_HALF), (long long)MRC_PSN_HALF);
	CHECK_EQ(mrc_psn_diff(MRC_PSN_HALF, 0), (long long)MRC_PSN_HALF);
}

static void psn_before_after_are_antisymmetric(void)
{
	static const unsigned int samples[] = {
		0, 1, 2, 1000, MRC_PSN_HALF - 1, MRC_PSN_HALF,
		MRC_PSN_HALF + 1, MRC_PSN_MASK - 1, MRC_PSN_MASK,
	};
	unsigned int n = sizeof(samples) / sizeof(samples[0]);

	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < n; j++) {
			u32 a = samples[i], b = samples[j];

			if (a == b) {
				CHECK(!mrc_psn_before(a, b));
				CHECK(!mrc_psn_after(a, b));
			} else if (mrc_psn_distance(a, b) != MRC_PSN_HALF) {
				CHECK(mrc_psn_before(a, b) !=
				      mrc_psn_before(b, a));
				CHECK(mrc_psn_after(a, b) ==
				      mrc_psn_before(b, a));
			}
		}
	}
	CHECK(mrc_psn_before(MRC_PSN_MASK, 0));
	CHECK(mrc_psn_after(0, MRC_PSN_MASK));
}

static void psn_window_handles_wrap(void)
{
	CHECK(mrc_psn_in_window(MRC_PSN_MASK, MRC_PSN_MASK - 1, 4));
	CHECK(mrc_psn_in_window(1, MRC_PSN_MASK - 1, 4));
	CHECK(!mrc_psn_in_window(2, MRC_PSN_MASK - 1, 4));
	CHECK(!mrc_psn_in_window(MRC_PSN_MASK - 2, MRC_PSN_MASK - 1, 4));
	CHECK(!mrc_psn_in_window(5, 5, 0));
}

static const struct ktap_case cases[] = {
	KTAP_CASE(psn_add_wraps_at_24_bits),
	KTAP_CASE(psn_distance_is_forward),
	KTAP_CASE(psn_diff_is_signed_and_wraps),
	KTAP_CASE(psn_before_after_are_antisymmetric),
	KTAP_CASE(psn_window_handles_wrap),
};

KTAP_MAIN("psn", cases)
