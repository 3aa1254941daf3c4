/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * RTT samples split at the packet's departure from this host.
 *
 * A NIC times a packet's round trip from when it leaves the port. The
 * requester here stamps a packet when it builds it, and the packet may
 * then wait in this host's own transmit queues: up to txq_packets of the
 * QP's, a plane port's qdisc and driver (mrc_txq.h). That wait is not a
 * queue of the fabric, and NSCC, which steers the fabric's queues to
 * target_delay, must not read it as one. At the rates of the lab (a
 * 1.1 KB packet takes 2.3 ms at 4 Mbit/s) a few packets' wait is about
 * the whole target.
 *
 * The budget's skb destructor, which runs when a packet leaves, records
 * the time against the packet's PSN; the ACK path subtracts the wait from
 * build to departure from the RTT sample it gives NSCC. The adaptive RTO
 * keeps the whole sample: its timer runs from the build.
 *
 * A record is one 64-bit word, so that the destructor writing it and the
 * ACK path reading it need no lock between them (the caller stores it
 * atomically):
 *
 *   bit 63       set: a record
 *   bits 55..32  the PSN
 *   bits 31..0   the departure, low 32 bits of the microsecond clock
 *
 * A record names a PSN, not a copy: only a sample of a PSN sent once
 * (Karn: the SACK tracker gives no other) may use it, and the wait must
 * lie inside the sample, else the sample is kept whole.
 *
 * Protocol core: plain C, no clock, no locking.
 */
#ifndef MRC_DEPARTURE_H
#define MRC_DEPARTURE_H

#include "mrc_core_types.h"
#include "mrc_psn.h"

/* The record of @psn leaving at @left_us (the caller's clock, low bits). */
u64 mrc_departure_record(u32 psn, u32 left_us);

/*
 * How long the transmission of @psn built at @sent_at waited before it
 * left, from @record; false when @record is not of it (none, another PSN,
 * or a departure outside [@sent_at, @sent_at + @rtt)).
 */
bool mrc_departure_wait(u64 record, u32 psn, u64 sent_at, u64 rtt,
			u64 *wait);

/*
 * The part of the RTT sample @rtt of (@psn, @sent_at) after departure:
 * @rtt less the wait @record shows, or @rtt when it shows none.
 */
u64 mrc_departure_fabric_rtt(u64 record, u32 psn, u64 sent_at, u64 rtt);

#endif /* MRC_DEPARTURE_H */
