// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests of EV profile checking and expansion (mrc_ev_profile.h). */
#include <arpa/inet.h>

#include "ktap.h"
#include "mrc_ev_profile.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static struct mrc_ev_value srv6_ev(const char *addr, u8 plane)
{
	struct mrc_ev_value ev = { .plane = plane,
				   .format = MRC_EV_FMT_SRV6 };

	if (inet_pton(AF_INET6, addr, ev.srv6) != 1)
		abort();
	return ev;
}

static void explicit_values_are_checked(void)
{
	struct mrc_ev_value udp = { .format = MRC_EV_FMT_UDP,
				    .udp_sport = 49152 };
	struct mrc_ev_value ev;

	CHECK_EQ(mrc_ev_value_check(&udp, 1), 0);
	udp.udp_sport = 0;
	CHECK_EQ(mrc_ev_value_check(&udp, 1), -EINVAL);

	ev = srv6_ev("fc00:0:100:200::", 1);
	CHECK_EQ(mrc_ev_value_check(&ev, 2), 0);
	CHECK_EQ(mrc_ev_value_check(&ev, 1), -ERANGE);
	ev = srv6_ev("::", 0);
	CHECK_EQ(mrc_ev_value_check(&ev, 1), -EINVAL);
	ev = srv6_ev("::1", 0);
	CHECK_EQ(mrc_ev_value_check(&ev, 1), -EINVAL);
	ev = srv6_ev("::2", 0);
	CHECK_EQ(mrc_ev_value_check(&ev, 1), 0);
	ev = srv6_ev("ff02::1", 0);
	CHECK_EQ(mrc_ev_value_check(&ev, 1), -EINVAL);
	ev = srv6_ev("::ffff:192.0.2.1", 0);
	CHECK_EQ(mrc_ev_value_check(&ev, 1), -EINVAL);
	ev.format = 9;
	CHECK_EQ(mrc_ev_value_check(&ev, 1), -EINVAL);
}

static void malformed_fields_are_refused(void)
{
	struct mrc_ev_field f = { .width = 8, .max = 3, .mask = 0x03 };
	u32 count = 77;

	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count), 0);
	CHECK_EQ(count, 4);

	f.width = 0;
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count),
		 -EINVAL);
	f.width = 33;
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_SRV6, &f, 1, &count),
		 -EINVAL);
	/* 17 bits do not fit a UDP port; they fit an IPv6 address. */
	f.width = 17;
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count),
		 -EINVAL);
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_SRV6, &f, 1, &count), 0);
	f.width = 8;
	f.init = 0x100;				/* wider than its field */
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count),
		 -EINVAL);
	f.init = 0;
	f.mask = 0x05;				/* not one run of bits */
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count),
		 -EINVAL);
	f.mask = 0x0c;
	f.max = 4;				/* needs 3 bits, mask has 2 */
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count),
		 -EINVAL);
	f.max = 3;
	f.min = 4;				/* min > max */
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count),
		 -EINVAL);
	f.min = 0;
	CHECK_EQ(mrc_ev_fields_check(7, &f, 1, &count), -EINVAL);
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 0, &count),
		 -EINVAL);
}

static void too_many_values_are_refused(void)
{
	/* 32 * 64 = 2048 > 1024, and a 2^32 span that must not wrap. */
	struct mrc_ev_field two[] = {
		{ .width = 5, .max = 31, .mask = 0x1f },
		{ .width = 6, .max = 63, .mask = 0x3f },
	};
	struct mrc_ev_field huge = { .width = 32, .max = 0xffffffff,
				     .mask = 0xffffffff };
	u32 count;

	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_SRV6, two, 2, &count),
		 -E2BIG);
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_SRV6, &huge, 1, &count),
		 -E2BIG);
	two[1].max = 31;
	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_SRV6, two, 2, &count), 0);
	CHECK_EQ(count, 1024);
}

/* The OCP-style example: a fixed locator, then tier uSIDs 0x1NN, 0x2NN. */
static void srv6_fields_pack_from_the_top(void)
{
	const struct mrc_ev_field fields[] = {
		{ .width = 32, .init = 0xfc000000 },
		{ .width = 16, .init = 0x100, .min = 1, .max = 2,
		  .mask = 0xff },
		{ .width = 16, .init = 0x200, .min = 0, .max = 2,
		  .mask = 0xff },
		{ .width = 16, .init = 0x0300 },
	};
	struct mrc_ev_value ev = { .plane = 5 }, want;
	u32 count;

	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_SRV6, fields,
				     ARRAY_LEN(fields), &count), 0);
	CHECK_EQ(count, 6);

	mrc_ev_generate(MRC_EV_FMT_SRV6, fields, ARRAY_LEN(fields), 0,
			&ev);
	want = srv6_ev("fc00:0:101:200:300::", 5);
	CHECK(mrc_ev_value_equal(&ev, &want));

	/* The last field varies fastest. */
	mrc_ev_generate(MRC_EV_FMT_SRV6, fields, ARRAY_LEN(fields), 2,
			&ev);
	want = srv6_ev("fc00:0:101:202:300::", 5);
	CHECK(mrc_ev_value_equal(&ev, &want));
	mrc_ev_generate(MRC_EV_FMT_SRV6, fields, ARRAY_LEN(fields), 3,
			&ev);
	want = srv6_ev("fc00:0:102:200:300::", 5);
	CHECK(mrc_ev_value_equal(&ev, &want));
	CHECK_EQ(ev.plane, 5);
}

static void udp_fields_fill_the_low_bits(void)
{
	/* 0b11 fixed, then 6 generated bits: ports 0xc0..0xff. */
	const struct mrc_ev_field fields[] = {
		{ .width = 2, .init = 3 },
		{ .width = 6, .min = 0, .max = 63, .mask = 0x3f },
	};
	struct mrc_ev_value ev = { 0 };
	u32 count, i;
	int seen[256] = { 0 };

	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, fields, 2, &count),
		 0);
	CHECK_EQ(count, 64);
	for (i = 0; i < count; i++) {
		mrc_ev_generate(MRC_EV_FMT_UDP, fields, 2, i, &ev);
		CHECK_EQ(ev.format, MRC_EV_FMT_UDP);
		CHECK(ev.udp_sport >= 0xc0 && ev.udp_sport <= 0xff);
		if (ev.udp_sport < 256)
			seen[ev.udp_sport]++;
	}
	/* Every value exactly once. */
	for (i = 0xc0; i <= 0xff; i++)
		CHECK_EQ(seen[i], 1);
}

static void mask_keeps_fixed_bits(void)
{
	/* Upper nibble fixed at 0xa from init, lower 4 bits generated. */
	const struct mrc_ev_field f = { .width = 8, .init = 0xa5, .min = 2,
					.max = 3, .mask = 0x0f };
	struct mrc_ev_value ev;
	u32 count;

	CHECK_EQ(mrc_ev_fields_check(MRC_EV_FMT_UDP, &f, 1, &count), 0);
	CHECK_EQ(count, 2);
	mrc_ev_generate(MRC_EV_FMT_UDP, &f, 1, 0, &ev);
	CHECK_EQ(ev.udp_sport, 0xa2);
	mrc_ev_generate(MRC_EV_FMT_UDP, &f, 1, 1, &ev);
	CHECK_EQ(ev.udp_sport, 0xa3);
}

static void equality_needs_plane_format_and_value(void)
{
	struct mrc_ev_value a = srv6_ev("fc00:0:1::", 0);
	struct mrc_ev_value b = a;

	CHECK(mrc_ev_value_equal(&a, &b));
	b.plane = 1;
	CHECK(!mrc_ev_value_equal(&a, &b));
	b = srv6_ev("fc00:0:2::", 0);
	CHECK(!mrc_ev_value_equal(&a, &b));
	b = a;
	b.format = MRC_EV_FMT_UDP;
	CHECK(!mrc_ev_value_equal(&a, &b));
}

static void containers_become_switch_usids(void)
{
	struct mrc_ev_value ev = srv6_ev("fc00:0:100:200:300:2::", 1);
	struct mrc_ev_value udp = { .format = MRC_EV_FMT_UDP,
				    .udp_sport = 0xc001 };
	struct mrc_ev_path path;
	u8 final[16], other[16];

	inet_pton(AF_INET6, "fc00:0:2::", final);
	inet_pton(AF_INET6, "fc00:0:3::", other);

	CHECK_EQ(mrc_ev_profile_path(&ev, final, &path), 0);
	CHECK_EQ(path.n_usids, 3);
	CHECK_EQ(path.usids[0], 0x100);
	CHECK_EQ(path.usids[1], 0x200);
	CHECK_EQ(path.usids[2], 0x300);
	CHECK_EQ(path.udp_sport, 0);

	/* Leads to another host. */
	CHECK_EQ(mrc_ev_profile_path(&ev, other, &path), -EINVAL);
	/* Another locator block. */
	ev = srv6_ev("fc01:0:100:2::", 0);
	CHECK_EQ(mrc_ev_profile_path(&ev, final, &path), -EINVAL);
	/* Just the host: no switch to steer through. */
	ev = srv6_ev("fc00:0:2::", 0);
	CHECK_EQ(mrc_ev_profile_path(&ev, final, &path), -EINVAL);
	/* A zero uSID in the middle. */
	ev = srv6_ev("fc00:0:100:0:2::", 0);
	CHECK_EQ(mrc_ev_profile_path(&ev, final, &path), -EINVAL);
	/* Five switches fit (six uSIDs in all), a full container. */
	ev = srv6_ev("fc00:0:1:2:3:4:5:2", 0);
	CHECK_EQ(mrc_ev_profile_path(&ev, final, &path), 0);
	CHECK_EQ(path.n_usids, 5);
	CHECK_EQ(path.usids[4], 5);

	CHECK_EQ(mrc_ev_profile_path(&udp, final, &path), 0);
	CHECK_EQ(path.udp_sport, 0xc001);
	CHECK_EQ(path.n_usids, 0);
}

static const struct ktap_case cases[] = {
	KTAP_CASE(containers_become_switch_usids),
	KTAP_CASE(explicit_values_are_checked),
	KTAP_CASE(malformed_fields_are_refused),
	KTAP_CASE(too_many_values_are_refused),
	KTAP_CASE(srv6_fields_pack_from_the_top),
	KTAP_CASE(udp_fields_fill_the_low_bits),
	KTAP_CASE(mask_keeps_fixed_bits),
	KTAP_CASE(equality_needs_plane_format_and_value),
};

KTAP_MAIN("ev_profile", cases)
