/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Spraying off: the single-path choice a device makes when the controller
 * sets single_path (mrcctl dev DEV set spray off), to compare MRC with a
 * fabric that hashes each flow onto one path, as ECMP does.
 *
 * A connection's key is a hash of its QPN and its peer's QPN. Every packet
 * goes on the EV the key selects, so the whole connection keeps to one
 * path. While that EV is not usable (retired after a loss or timeout, its
 * plane down, denied) packets go on another usable EV, also chosen by the
 * key, so that connections that lose the same path spread over the rest;
 * once probes bring the first EV back, the connection returns to it.
 *
 * Protocol core: plain C, no locking; the caller serialises calls on one
 * set, as for mrc_ev_pick().
 */
#ifndef MRC_EV_SINGLE_H
#define MRC_EV_SINGLE_H

#include "mrc_ev.h"

/* The key of the connection from local QP @qpn to remote QP @dest_qpn. */
u32 mrc_ev_single_key(u32 qpn, u32 dest_qpn);

/*
 * mrc_ev_pick() for spraying off: the EV the next packet of the connection
 * with @key goes on, counted sent. @avoid (an index, or -1) is skipped
 * unless it is the only usable EV. -EHOSTUNREACH when no EV is usable.
 */
int mrc_ev_pick_single(struct mrc_ev_set *set, u32 key, int avoid);

#endif /* MRC_EV_SINGLE_H */
