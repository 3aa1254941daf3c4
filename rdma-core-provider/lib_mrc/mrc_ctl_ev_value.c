// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lib_mrc: the controller API's EVs, formats and EV states against the
 * kernel's (Documentation/mrc-api.rst, "EVs").
 *
 * An EV's port is its plane plus one (port N is plane N - 1: every plane
 * is one port of the host). Its value: UDP format, the source port in
 * val[0..1], big-endian, the rest zero; SRv6 format, the uSID container
 * (an IPv6 address) in val[0..15], the rest zero (an SRH segment in
 * val[16..31] is not supported).
 *
 * States: the kernel keeps GOOD, ASSUMED_BAD, DENIED and UNKNOWN per
 * connection and lets the controller deny and allow EVs per profile. The
 * controller sets DENIED (deny) or GOOD (allow: the data path then decides
 * again); it cannot force ASSUMED_BAD (EOPNOTSUPP: the data path retires
 * and restores paths itself) and UNKNOWN is not a state one sets (EINVAL).
 */
#include <string.h>

#include "mrc_ctl_lib.h"

int mrc_ctl_fmt_to_nl(enum mrc_ctl_ev_fmt_mode mode, uint8_t *format)
{
	switch (mode) {
	case MRC_CTL_EV_FMT_MODE_UDP:
		*format = MRC_NL_FMT_UDP;
		return 0;
	case MRC_CTL_EV_FMT_MODE_SRV6:
		*format = MRC_NL_FMT_SRV6;
		return 0;
	case MRC_CTL_EV_FMT_MODE_STEV:
		/* The flow label is not an EV carrier of the kernel's. */
		return EOPNOTSUPP;
	default:
		return EINVAL;
	}
}

enum mrc_ctl_ev_fmt_mode mrc_ctl_fmt_from_nl(uint8_t format)
{
	return format == MRC_NL_FMT_SRV6 ? MRC_CTL_EV_FMT_MODE_SRV6 :
					   MRC_CTL_EV_FMT_MODE_UDP;
}

int mrc_ctl_state_to_nl(enum mrc_ctl_ev_state state, uint8_t *nl_state)
{
	switch (state) {
	case MRC_CTL_EV_GOOD:
		*nl_state = MRC_NL_EV_GOOD;
		return 0;
	case MRC_CTL_EV_DENIED:
		*nl_state = MRC_NL_EV_DENIED;
		return 0;
	case MRC_CTL_EV_ASSUMED_BAD:
		return EOPNOTSUPP;
	default:
		return EINVAL;
	}
}

enum mrc_ctl_ev_state mrc_ctl_state_from_nl(uint8_t nl_state)
{
	switch (nl_state) {
	case MRC_NL_EV_GOOD:
		return MRC_CTL_EV_GOOD;
	case MRC_NL_EV_ASSUMED_BAD:
		return MRC_CTL_EV_ASSUMED_BAD;
	case MRC_NL_EV_DENIED:
		return MRC_CTL_EV_DENIED;
	default:
		return MRC_CTL_EV_UNKNOWN;
	}
}

/* The OCP state bits and the kernel's states, pairwise. */
static const struct {
	int ocp;
	uint8_t nl;
} mrc_ctl_states[] = {
	{ MRC_CTL_EV_GOOD, MRC_NL_EV_GOOD },
	{ MRC_CTL_EV_ASSUMED_BAD, MRC_NL_EV_ASSUMED_BAD },
	{ MRC_CTL_EV_DENIED, MRC_NL_EV_DENIED },
	{ MRC_CTL_EV_UNKNOWN, MRC_NL_EV_UNKNOWN },
};

int mrc_ctl_event_mask_to_nl(int mask, uint32_t *nl_mask)
{
	unsigned int rest = (unsigned int)mask;
	size_t i;

	*nl_mask = 0;
	for (i = 0; i < sizeof(mrc_ctl_states) / sizeof(mrc_ctl_states[0]);
	     i++) {
		if (!(rest & (unsigned int)mrc_ctl_states[i].ocp))
			continue;
		rest &= ~(unsigned int)mrc_ctl_states[i].ocp;
		*nl_mask |= 1u << mrc_ctl_states[i].nl;
	}
	return rest ? EINVAL : 0;
}

int mrc_ctl_event_mask_from_nl(uint32_t nl_mask)
{
	unsigned int mask = 0;
	size_t i;

	for (i = 0; i < sizeof(mrc_ctl_states) / sizeof(mrc_ctl_states[0]);
	     i++)
		if (nl_mask & (1u << mrc_ctl_states[i].nl))
			mask |= (unsigned int)mrc_ctl_states[i].ocp;
	return (int)mask;
}

bool mrc_ctl_ev_unpopulated(const struct mrc_ctl_ev *ev)
{
	return !ev->port && mrc_ctl_bytes_zero(ev->val, sizeof(ev->val));
}

bool mrc_ctl_ev_equal(const struct mrc_ctl_ev *a, const struct mrc_ctl_ev *b)
{
	return a->port == b->port && !memcmp(a->val, b->val, sizeof(a->val));
}

/*
 * @ev in the kernel's terms; EINVAL for a port outside 1..8, a source port
 * of 0 or bytes past the format's, EOPNOTSUPP for an SRH segment. The
 * kernel checks the rest (the plane against the device's, the SRv6
 * address's kind).
 */
int mrc_ctl_ev_to_nl(const struct mrc_ctl_ev *ev, uint8_t format,
		     struct mrc_nl_ev *out)
{
	memset(out, 0, sizeof(*out));
	if (ev->port < 1 || ev->port > MRC_NL_MAX_PLANES)
		return EINVAL;
	out->plane = ev->port - 1;
	if (format == MRC_NL_FMT_UDP) {
		if (!mrc_ctl_bytes_zero(ev->val + 2, sizeof(ev->val) - 2))
			return EINVAL;
		out->udp_sport = (uint16_t)(ev->val[0] << 8 | ev->val[1]);
		return out->udp_sport ? 0 : EINVAL;
	}
	if (!mrc_ctl_bytes_zero(ev->val + 16, sizeof(ev->val) - 16))
		return EOPNOTSUPP;
	memcpy(out->srv6, ev->val, sizeof(out->srv6));
	return mrc_ctl_bytes_zero(out->srv6, sizeof(out->srv6)) ? EINVAL : 0;
}

void mrc_ctl_ev_from_nl(const struct mrc_nl_ev *ev, uint8_t format,
			struct mrc_ctl_ev *out)
{
	memset(out, 0, sizeof(*out));
	out->port = (uint8_t)(ev->plane + 1);
	if (format == MRC_NL_FMT_UDP) {
		out->val[0] = ev->udp_sport >> 8;
		out->val[1] = ev->udp_sport & 0xff;
	} else {
		memcpy(out->val, ev->srv6, sizeof(ev->srv6));
	}
}
