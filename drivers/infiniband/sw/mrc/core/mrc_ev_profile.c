// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Checking and expanding EV profiles. See mrc_ev_profile.h.
 */
#include "mrc_ev_profile.h"

static u32 mrc_ev_format_bits(u8 format)
{
	switch (format) {
	case MRC_EV_FMT_UDP:
		return 16;
	case MRC_EV_FMT_SRV6:
		return 128;
	default:
		return 0;
	}
}

static bool mrc_srv6_dest_usable(const u8 *a)
{
	static const u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	u32 i, nonzero = 0;

	if (a[0] == 0xff)		/* multicast */
		return false;
	if (!memcmp(a, v4mapped, sizeof(v4mapped)))
		return false;
	for (i = 0; i < 15; i++)
		nonzero |= a[i];
	/* :: and ::1 */
	return nonzero || a[15] > 1;
}

int mrc_ev_value_check(const struct mrc_ev_value *ev, u32 num_planes)
{
	if (ev->plane >= num_planes)
		return -ERANGE;
	switch (ev->format) {
	case MRC_EV_FMT_UDP:
		return ev->udp_sport ? 0 : -EINVAL;
	case MRC_EV_FMT_SRV6:
		return mrc_srv6_dest_usable(ev->srv6) ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

static bool mrc_fits(u32 value, u32 width)
{
	return width >= 32 || value < (1u << width);
}

/* A mask must be one contiguous run of set bits, or 0 for a fixed field. */
static bool mrc_mask_contiguous(u32 mask)
{
	u32 low;

	if (!mask)
		return true;
	low = mask & -mask;
	/* Adding the lowest bit carries through a single run and clears it. */
	return ((mask + low) & mask) == 0;
}

static u32 mrc_mask_shift(u32 mask)
{
	u32 shift = 0;

	while (mask && !(mask & 1)) {
		mask >>= 1;
		shift++;
	}
	return shift;
}

/* How many values a field takes: 1 for a fixed field. */
static u32 mrc_field_span(const struct mrc_ev_field *f)
{
	return f->mask ? f->max - f->min + 1 : 1;
}

int mrc_ev_fields_check(u8 format, const struct mrc_ev_field *fields,
			u32 num_fields, u32 *count)
{
	u32 bits = mrc_ev_format_bits(format);
	u32 i, used = 0, total = 1;

	if (!bits || !num_fields || num_fields > MRC_EV_MAX_FIELDS)
		return -EINVAL;

	for (i = 0; i < num_fields; i++) {
		const struct mrc_ev_field *f = &fields[i];

		if (!f->width || f->width > 32)
			return -EINVAL;
		used += f->width;
		if (used > bits)
			return -EINVAL;
		if (!mrc_fits(f->init, f->width) ||
		    !mrc_fits(f->mask, f->width) ||
		    !mrc_mask_contiguous(f->mask))
			return -EINVAL;
		if (!f->mask)
			continue;
		if (f->min > f->max ||
		    f->max > (f->mask >> mrc_mask_shift(f->mask)))
			return -EINVAL;
		/*
		 * Checked as a difference (max - min + 1 wraps for a full
		 * 32-bit range) and before multiplying, so nothing wraps.
		 */
		if (f->max - f->min >= MRC_EV_PROFILE_MAX_EVS)
			return -E2BIG;
		total *= mrc_field_span(f);
		if (total > MRC_EV_PROFILE_MAX_EVS)
			return -E2BIG;
	}
	*count = total;
	return 0;
}

/* Writes the @width low bits of @value at bit @pos (0 = MSB of buf[0]). */
static void mrc_put_bits(u8 *buf, u32 pos, u32 width, u32 value)
{
	u32 i;

	for (i = 0; i < width; i++) {
		u32 bit = (value >> (width - 1 - i)) & 1;
		u32 at = pos + i;
		u8 mask = 0x80 >> (at % 8);

		if (bit)
			buf[at / 8] |= mask;
		else
			buf[at / 8] &= ~mask;
	}
}

void mrc_ev_generate(u8 format, const struct mrc_ev_field *fields,
		     u32 num_fields, u32 index, struct mrc_ev_value *ev)
{
	u8 buf[16] = { 0 };
	u32 bits = mrc_ev_format_bits(format);
	u32 i, used = 0, pos;

	for (i = 0; i < num_fields; i++)
		used += fields[i].width;
	/* A UDP port keeps the fields in its low bits. */
	pos = format == MRC_EV_FMT_UDP ? bits - used : 0;

	/* Mixed radix, last field fastest: peel digits from the right. */
	for (i = num_fields; i-- > 0;) {
		const struct mrc_ev_field *f = &fields[i];
		u32 value = f->init, span = mrc_field_span(f);

		if (f->mask) {
			u32 v = f->min + index % span;

			value = (f->init & ~f->mask) |
				((v << mrc_mask_shift(f->mask)) & f->mask);
		}
		index /= span;
		used -= f->width;
		mrc_put_bits(buf, pos + used, f->width, value);
	}

	ev->format = format;
	if (format == MRC_EV_FMT_UDP) {
		ev->udp_sport = (u16)(buf[0] << 8 | buf[1]);
		memset(ev->srv6, 0, sizeof(ev->srv6));
	} else {
		ev->udp_sport = 0;
		memcpy(ev->srv6, buf, sizeof(ev->srv6));
	}
}

bool mrc_ev_value_equal(const struct mrc_ev_value *a,
			const struct mrc_ev_value *b)
{
	if (a->plane != b->plane || a->format != b->format)
		return false;
	if (a->format == MRC_EV_FMT_UDP)
		return a->udp_sport == b->udp_sport;
	return !memcmp(a->srv6, b->srv6, sizeof(a->srv6));
}

int mrc_ev_profile_path(const struct mrc_ev_value *ev, const u8 final[16],
			struct mrc_ev_path *path)
{
	u32 n = 0, i, last;

	memset(path, 0, sizeof(*path));
	if (ev->format == MRC_EV_FMT_UDP) {
		path->udp_sport = ev->udp_sport;
		return ev->udp_sport ? 0 : -EINVAL;
	}
	if (ev->format != MRC_EV_FMT_SRV6 || memcmp(ev->srv6, final, 4))
		return -EINVAL;
	/* uSIDs run from byte 4 to the first zero uSID (or the end). */
	for (last = 4; last < 16; last += 2)
		if (!ev->srv6[last] && !ev->srv6[last + 1])
			break;
	for (i = last; i < 16; i++)
		if (ev->srv6[i])
			return -EINVAL;	/* a hole, then more uSIDs */
	/* At least the host's own uSID, and it must be @final's. */
	if (last < 6 || memcmp(&ev->srv6[last - 2], &final[4], 2))
		return -EINVAL;
	for (i = 4; i + 2 < last; i += 2) {
		if (n == MRC_EV_MAX_USIDS)
			return -EINVAL;
		path->usids[n++] = (u16)(ev->srv6[i] << 8 | ev->srv6[i + 1]);
	}
	path->n_usids = (u8)n;
	/* A container that is the host itself is no SRv6 path at all. */
	return n ? 0 : -EINVAL;
}
