/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * EV profiles: the sets of paths (entropy values, EVs) a controller gives a
 * device, either as an explicit list or as fields whose ranges are expanded
 * (Documentation/paths.rst). This file checks what a controller sends and
 * expands generated profiles; storing profiles and choosing one for a queue
 * pair is the kernel glue's (mrc_profile.c).
 *
 * Protocol core: plain C, no allocation, no locking.
 */
#ifndef MRC_EV_PROFILE_H
#define MRC_EV_PROFILE_H

#include "mrc_core_types.h"
#include "mrc_ev.h"

/*
 * The controller's limits and EV formats, as the core sees them. They are
 * the values of the netlink uapi (rdma/mrc-ctl.h: MRC_CTL_MAX_EVS,
 * MRC_CTL_MAX_FIELDS, MRC_CTL_MAX_PLANES, enum mrc_ctl_ev_format), which the
 * core does not include; the glue that speaks netlink checks at build time
 * that they are equal (mrc_ctl_netlink.c).
 */
#define MRC_EV_PROFILE_MAX_EVS	1024u
#define MRC_EV_MAX_FIELDS	8u
#define MRC_EV_PROFILE_MAX_PLANES	8u

enum mrc_ev_format {
	MRC_EV_FMT_UDP = 1,	/* the path is the UDP source port */
	MRC_EV_FMT_SRV6 = 2,	/* the path is an SRv6 uSID container */
};

/* One path: which plane it leaves on and what the packet carries. */
struct mrc_ev_value {
	u8 plane;
	u8 format;		/* enum mrc_ev_format */
	u16 udp_sport;		/* MRC_EV_FMT_UDP, host order */
	u8 srv6[16];		/* MRC_EV_FMT_SRV6, network order */
};

struct mrc_ev_field {
	u32 width;
	u32 init;
	u32 min;
	u32 max;
	u32 mask;
};

/*
 * Checks one EV from a controller: a source port of 0, or an SRv6
 * destination that is unspecified, loopback, multicast or IPv4-mapped, is
 * refused (-EINVAL), as is a plane at or above @num_planes (-ERANGE).
 */
int mrc_ev_value_check(const struct mrc_ev_value *ev, u32 num_planes);

/*
 * Checks the fields of a generated profile and returns through @count how
 * many values they expand to. -EINVAL for a malformed field (a width of 0 or
 * over 32, a value wider than its field, min > max, a mask that is not one
 * run of bits or too narrow for max, more bits than the format carries);
 * -E2BIG if the product exceeds MRC_EV_PROFILE_MAX_EVS.
 */
int mrc_ev_fields_check(u8 format, const struct mrc_ev_field *fields,
			u32 num_fields, u32 *count);

/*
 * The @index-th value (0 <= index < count) of checked fields. The last
 * field varies fastest. Fills format and the value; plane is left alone.
 */
void mrc_ev_generate(u8 format, const struct mrc_ev_field *fields,
		     u32 num_fields, u32 index, struct mrc_ev_value *ev);

/* Same plane, format and value. */
bool mrc_ev_value_equal(const struct mrc_ev_value *a,
			const struct mrc_ev_value *b);

/*
 * The path of a profile's EV towards the final destination @final (a uSID
 * host address): for UDP, its source port; for SRv6, the switch uSIDs of
 * the container, which must start with @final's 32-bit block and end with
 * @final's own uSID. -EINVAL if the EV does not lead to @final, or holds
 * more switch uSIDs than a path can (MRC_EV_MAX_USIDS).
 */
int mrc_ev_profile_path(const struct mrc_ev_value *ev, const u8 final[16],
			struct mrc_ev_path *path);

#endif /* MRC_EV_PROFILE_H */
