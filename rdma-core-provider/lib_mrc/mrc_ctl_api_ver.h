/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * soft-MRC: version numbers of the OCP MRC controller API (mrc_ctl.h).
 *
 * Written for soft-MRC from the published facts of the API (the macro
 * names, their values and the rules an including program is held to), so
 * that programs built against either header agree on every number.
 *
 * A version is one 32-bit word: MAJOR in bits 31..24, MINOR in 23..16 and
 * SUBMINOR in 15..0. A new MAJOR breaks callers; a new MINOR only adds; a
 * new SUBMINOR only fixes. A program states the version it is written for
 * in MRC_CTL_API_VER_USED before including mrc_ctl.h (by default the
 * current one); it may not ask for a version newer than this header or
 * older than the oldest one still supported. The vendor version is a second, independent
 * number with the same encoding and the same rules.
 */
#ifndef SOFT_MRC_OCP_CTL_API_VER_H
#define SOFT_MRC_OCP_CTL_API_VER_H

#define MRC_CTL_API_VER_MAJOR_OFFSET	24
#define MRC_CTL_API_VER_MINOR_OFFSET	16
#define MRC_CTL_API_VER_SUBMINOR_OFFSET	0

/* Usable both in C and in #if; arguments must be non-negative. */
#define MRC_CTL_API_VER(_major, _minor, _sub_minor)			\
	(((_major) << MRC_CTL_API_VER_MAJOR_OFFSET) |		\
	 ((_minor) << MRC_CTL_API_VER_MINOR_OFFSET) |		\
	 ((_sub_minor) << MRC_CTL_API_VER_SUBMINOR_OFFSET))

/* "Whatever this header is": every field at its maximum (0xffffffff). */
#define MRC_CTL_API_VER_LATEST	MRC_CTL_API_VER(0xFFu, 0xFFu, 0xFFFFu)

#define MRC_CTL_API_CURRENT_VERSION		MRC_CTL_API_VER(1, 0, 1)
#define MRC_CTL_API_LAST_SUPPORTED_VERSION	MRC_CTL_API_VER(0, 0, 0)

#ifndef MRC_CTL_API_VER_USED
#define MRC_CTL_API_VER_USED MRC_CTL_API_CURRENT_VERSION
#elif MRC_CTL_API_VER_USED == MRC_CTL_API_VER_LATEST
#undef MRC_CTL_API_VER_USED
#define MRC_CTL_API_VER_USED MRC_CTL_API_CURRENT_VERSION
#endif

#if MRC_CTL_API_VER_USED > MRC_CTL_API_CURRENT_VERSION
#error "MRC_CTL_API_VER_USED is newer than this mrc_ctl_api_ver.h (MRC_CTL_API_CURRENT_VERSION)"
#elif MRC_CTL_API_VER_USED < MRC_CTL_API_LAST_SUPPORTED_VERSION
#error "MRC_CTL_API_VER_USED is older than MRC_CTL_API_LAST_SUPPORTED_VERSION"
#elif MRC_CTL_API_VER_USED == MRC_CTL_API_LAST_SUPPORTED_VERSION
#warning "MRC_CTL_API_VER_USED is the oldest supported version and may be dropped"
#endif

#define MRC_CTL_VENDOR_API_CURRENT_VERSION		MRC_CTL_API_VER(1, 0, 0)
#define MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION	MRC_CTL_API_VER(0, 0, 0)

#ifndef MRC_CTL_VENDOR_API_VER_USED
#define MRC_CTL_VENDOR_API_VER_USED MRC_CTL_VENDOR_API_CURRENT_VERSION
#elif MRC_CTL_VENDOR_API_VER_USED == MRC_CTL_API_VER_LATEST
#undef MRC_CTL_VENDOR_API_VER_USED
#define MRC_CTL_VENDOR_API_VER_USED MRC_CTL_VENDOR_API_CURRENT_VERSION
#endif

#if MRC_CTL_VENDOR_API_VER_USED > MRC_CTL_VENDOR_API_CURRENT_VERSION
#error "MRC_CTL_VENDOR_API_VER_USED is newer than MRC_CTL_VENDOR_API_CURRENT_VERSION"
#elif MRC_CTL_VENDOR_API_VER_USED < MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION
#error "MRC_CTL_VENDOR_API_VER_USED is older than MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION"
#elif MRC_CTL_VENDOR_API_VER_USED == MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION
#warning "MRC_CTL_VENDOR_API_VER_USED is the oldest supported vendor version and may be dropped"
#endif

#endif /* SOFT_MRC_OCP_CTL_API_VER_H */
