/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lib_mrc's controller half: what an mrc_context keeps for mrc_ctl.h,
 * and the helpers its mrc_ctl_*.c files share. Not installed. Never
 * include rdma/mrc-ctl.h next to this (see mrc_ctl_nl.h).
 *
 * Lock: mrc_ctl_state.lock serialises every controller call of a context
 * (each is one or a few netlink round trips, never on a data path) and
 * guards everything below it.
 */
#ifndef LIB_MRC_CTL_PRIVATE_H
#define LIB_MRC_CTL_PRIVATE_H

#include <stddef.h>

#include "mrc_lib.h"
#include "mrc_ctl.h"
#include "mrc_ctl_nl.h"

/* Profile ids of every kind: the kernel's EV profile ids (1..64). */
#define MRC_CTL_LIB_ID_MIN	MRC_NL_PROFILE_ID_MIN
#define MRC_CTL_LIB_ID_MAX	MRC_NL_PROFILE_ID_MAX

/* The one CC profile of a device (the kernel has one per device). */
#define MRC_CTL_LIB_CC_ID	1

/*
 * EV profile vendor configuration, soft-MRC's layout: byte 0 holds flags,
 * bytes 16..31 the peer address (IPv6, or IPv4-mapped) a profile serves.
 * A QP cannot name a profile yet (mrc-api.rst), so this is how a profile
 * the controller builds comes into use: for one peer, or as the default.
 */
#define MRC_CTL_LIB_VCFG_DEFAULT	(1u << 0)
#define MRC_CTL_LIB_VCFG_PEER		(1u << 1)
#define MRC_CTL_LIB_VCFG_PEER_OFFSET	16

/* An EV format profile: kept by the library (the kernel has no object). */
struct mrc_ctl_fmt_profile {
	bool exists;
	enum mrc_ctl_profile_state state;
	enum mrc_ctl_ev_fmt_mode mode;	/* 0 until set */
};

/*
 * An EV profile being configured (INIT or OFFLINE). Once ONLINE it is the
 * kernel's, and queries read it from there; the copy stays so that a
 * profile taken OFFLINE again can be changed and brought back.
 */
struct mrc_ctl_ev_staged {
	bool exists;
	enum mrc_ctl_profile_state state;
	enum mrc_ctl_ev_mode mode;	/* 0 until set */
	uint64_t fmt_id;		/* 0 until set */
	uint32_t count;			/* EV slots (explicit) */
	uint32_t min_active;
	int event_mask;			/* OCP states raising EV events */
	struct mrc_ctl_ev *evs;		/* count slots */
	uint32_t num_fields;		/* generated */
	struct mrc_ctl_ev_field fields[MRC_NL_MAX_FIELDS];
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

struct mrc_ctl_state {
	pthread_mutex_t lock;
	struct mrc_nl *nl;
	char dev[MRC_NL_NAME_MAX];
	struct mrc_ctl_fmt_profile fmt[MRC_CTL_LIB_ID_MAX + 1];
	struct mrc_ctl_ev_staged ev[MRC_CTL_LIB_ID_MAX + 1];
	/* What mrc_ctl_query_cc_profile() points cc_config at. */
	struct mrc_ctl_cc_nscc_cfg cc_cfg;
};

/* mrc_ctl_cap.c (the unit tests supply their own) */
bool mrc_ctl_capable(void);

/* mrc_ctl_state.c */
/*
 * Checks CAP_NET_ADMIN and @ctx, makes its controller state on first use
 * and returns it locked; an errno otherwise.
 */
int mrc_ctl_enter(struct mrc_context *ctx, struct mrc_ctl_state **st);
void mrc_ctl_leave(struct mrc_ctl_state *st);
bool mrc_ctl_bytes_zero(const uint8_t *p, size_t n);
bool mrc_ctl_profile_move_ok(enum mrc_ctl_profile_state from,
			     enum mrc_ctl_profile_state to);

/* mrc_ctl_ev_value.c */
int mrc_ctl_fmt_to_nl(enum mrc_ctl_ev_fmt_mode mode, uint8_t *format);
enum mrc_ctl_ev_fmt_mode mrc_ctl_fmt_from_nl(uint8_t format);
int mrc_ctl_state_to_nl(enum mrc_ctl_ev_state state, uint8_t *nl_state);
enum mrc_ctl_ev_state mrc_ctl_state_from_nl(uint8_t nl_state);
/* An ev_event_mask as the kernel's EVENT_MASK; EINVAL for unknown bits. */
int mrc_ctl_event_mask_to_nl(int mask, uint32_t *nl_mask);
int mrc_ctl_event_mask_from_nl(uint32_t nl_mask);
bool mrc_ctl_ev_unpopulated(const struct mrc_ctl_ev *ev);
int mrc_ctl_ev_to_nl(const struct mrc_ctl_ev *ev, uint8_t format,
		     struct mrc_nl_ev *out);
void mrc_ctl_ev_from_nl(const struct mrc_nl_ev *ev, uint8_t format,
			struct mrc_ctl_ev *out);
bool mrc_ctl_ev_equal(const struct mrc_ctl_ev *a, const struct mrc_ctl_ev *b);

/* mrc_ctl_cc.c */
int mrc_ctl_cc_to_nl(const struct mrc_ctl_cc_nscc_cfg *cfg,
		     struct mrc_nl_cc *cc);
void mrc_ctl_cc_from_nl(const struct mrc_nl_cc *cc,
			struct mrc_ctl_cc_nscc_cfg *cfg);

#endif /* LIB_MRC_CTL_PRIVATE_H */
