/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-device settings the controller (mrcctl, mrc_ctl_netlink.c) changes at
 * run time and the data path reads.
 *
 * Locking: mrc_dev.settings_lock (a spinlock, never held while sleeping)
 * serialises writers and readers of @cc, which is copied whole when a QP
 * goes to RTR, and of @preset, which goes with it. The scalar fields are
 * written under the lock with WRITE_ONCE() and read lock-free with
 * READ_ONCE() on the data path, where an old value for one more packet is
 * harmless.
 */
#ifndef MRC_SETTINGS_H
#define MRC_SETTINGS_H

#include "mrc_nscc.h"

/* DSCP codepoints, 6 bits: the TOS byte is dscp << 2 | ecn. */
#define MRC_DSCP_MAX		63
/*
 * A QP's packets in this host's own transmit queues at most (mrc_txq.h):
 * a NIC's send queue burst, a few microseconds of a 100G port.
 */
#define MRC_TXQ_PACKETS_DEFAULT	64
#define MRC_TXQ_PACKETS_MAX	16384	/* fits the policy's s16 bound */
/* Trimmable data (AF11); the class a trimming switch may cut. */
#define MRC_DSCP_DATA_DEFAULT	10
/* ACK, NAK, probe and trimmed headers: the priority class (EF). */
#define MRC_DSCP_CTRL_DEFAULT	46

/*
 * Named sets of the values that depend on the fabric's time scale, which a
 * device starts from and the controller may switch to as a whole
 * (MRC_CTL_A_PRESET). Documentation/real-nics.rst tables them.
 */
enum mrc_preset {
	/* Real NICs: microsecond round trips, 100-400 Gb/s ports. */
	MRC_PRESET_NIC,
	/*
	 * The emulated lab (QEMU TCG, veth, tc-shaped Mbit/s ports): round
	 * trips of milliseconds with as much jitter.
	 */
	MRC_PRESET_LAB,
	MRC_PRESET_COUNT,
};

struct mrc_dev_settings {
	/* The preset the values below last started from. */
	u8 preset;
	/*
	 * Spraying off: each QP keeps to one EV, chosen by hashing its QPN
	 * and the peer's QPN, like ECMP does with a flow. For comparisons.
	 */
	bool single_path;
	/* DSCP of data packets, which switches may trim. */
	u8 data_dscp;
	/* DSCP of ACKs, NAKs and probes, the priority class. */
	u8 ctrl_dscp;
	/*
	 * A QP stops handing new packets to the netdev while this many of
	 * its packets wait in local queues (mrc_txq.h); 0: no limit.
	 */
	u32 txq_packets;
	/* Congestion control of QPs that reach RTR from now on. */
	bool cc_enabled;
	/*
	 * NSCC's RTT samples run from the packet's build, the wait in this
	 * host's queues included, not from its departure (mrc_departure.h).
	 * For comparisons.
	 */
	bool cc_rtt_from_build;
	struct mrc_nscc_params cc;
	/*
	 * The least wait, in us, of the RTO's margin over the smoothed RTT and
	 * of the loss rule's reordering window (a path charge waits twice
	 * it); 0: the timer's resolution. The lab's packets are reordered by
	 * the emulator's scheduling, milliseconds, which its smoothed RTT does
	 * not always cover.
	 */
	u32 least_wait_us;
};

/* One tick at HZ=250: the floor the lab's timing tests were tuned with. */
#define MRC_LAB_LEAST_WAIT_US	4000

/* The CC profile of @preset (below MRC_PRESET_COUNT). */
static inline void mrc_preset_cc(unsigned int preset,
				 struct mrc_nscc_params *cc)
{
	if (preset == MRC_PRESET_LAB)
		mrc_nscc_params_lab(cc);
	else
		mrc_nscc_params_default(cc);
}

/*
 * Sets what @preset holds, the CC profile, and keeps the rest: whether CC
 * runs, spraying and the DSCPs are the operator's choices, not the
 * fabric's time scale. The caller holds mrc_dev.settings_lock, if the
 * settings are live.
 */
static inline void mrc_dev_settings_preset(struct mrc_dev_settings *s,
					   unsigned int preset)
{
	s->preset = preset;
	mrc_preset_cc(preset, &s->cc);
	s->least_wait_us = preset == MRC_PRESET_LAB ? MRC_LAB_LEAST_WAIT_US : 0;
}

/* A new device: the NIC preset, NSCC on. */
static inline void mrc_dev_settings_default(struct mrc_dev_settings *s)
{
	s->single_path = false;
	s->data_dscp = MRC_DSCP_DATA_DEFAULT;
	s->ctrl_dscp = MRC_DSCP_CTRL_DEFAULT;
	s->txq_packets = MRC_TXQ_PACKETS_DEFAULT;
	s->cc_enabled = true;
	s->cc_rtt_from_build = false;
	mrc_dev_settings_preset(s, MRC_PRESET_NIC);
}

#endif /* MRC_SETTINGS_H */
