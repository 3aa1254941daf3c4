/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * core_fuzz's simulated requester and responder, and the invariant checks
 * of core_check.c. The checks walk every slot and bit after every step:
 * built without coverage instrumentation, they neither steer the fuzzer
 * nor cost it most of its time.
 */
#ifndef MRC_CORE_FUZZ_H
#define MRC_CORE_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#include "mrc_wire.h"
#include "mrc_sack.h"
#include "mrc_ev.h"
#include "mrc_rto.h"
#include "mrc_nscc.h"
#include "mrc_receiver.h"
#include "fuzz_input.h"

#define MAX_SLOTS	1024u
#define MAX_EVS		16u
#define EV_NONE		0xffffu	/* the kernel's MRC_QP_EV_NONE */
#define MTU		4096u
#define NSEC_PER_USEC	1000u

/* Per slot: what the harness knows of the PSN it holds. */
struct shadow {
	u32 psn;
	u8 state;	/* 0 free, 1 sent, 2 completed */
};

struct sim {
	/* requester */
	struct mrc_tx_tracker tx;
	struct mrc_tx_slot slots[MAX_SLOTS];
	struct shadow shadow[MAX_SLOTS];
	u32 nslots;
	struct mrc_ev_set set;
	struct mrc_ev evs[MAX_EVS];
	struct mrc_rto rto;
	struct mrc_rto_params rto_params;
	struct mrc_nscc cc;
	bool cc_enabled;
	u64 progress_us;
	u32 retries;
	bool failed;		/* a fatal NAK or retry exhaustion */
	u64 completed;		/* PSNs completed */
	u64 sent;		/* PSNs sent first */
	u32 peer_plane_seq;
	/* responder */
	struct mrc_receiver rcv;
	u32 rx_window;		/* mrc_receiver_set_window()'s, in force */
	bool no_trim_nak;	/* MRC_RECEIVER_F_NO_TRIM_NAK on trims */
	/* the shared clock, microseconds */
	u64 now;
};

void check_tracker(const struct sim *s, bool full);
void check_rx(const struct mrc_rx_window *w);
void check_all(const struct sim *s, bool full);
void check_lost(const struct sim *s, const struct mrc_tx_ack_result *r);

#endif /* MRC_CORE_FUZZ_H */
