/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the sender core takes from a decoded ACK or NAK. The sender knows
 * no wire format (mrc_sender.h) and the codec no sender (mrc_wire.h): this
 * is where the two meet, so that the module's receive path and every test
 * that feeds the sender real packets read an ACK the same way.
 */
#ifndef MRC_SENDER_WIRE_H
#define MRC_SENDER_WIRE_H

#include "mrc_sender.h"
#include "mrc_wire.h"

/* @pkt: a decoded MRC_OP_ACK or MRC_OP_NAK; @ack points into it. */
static inline void mrc_sender_ack_from_pkt(const struct mrc_pkt *pkt,
					   struct mrc_sender_ack *ack)
{
	*ack = (struct mrc_sender_ack){
		.cum_psn = pkt->ack.cum_psn,
		.sack = pkt->ack.sack,
		.nwords = pkt->ack.sack_words,
		.ev_echo = pkt->ack.ev_echo,
		.ecn = pkt->ack.flags & MRC_ACK_F_ECN_CE,
		/* An ACK names the packet that made the responder send it. */
		.has_echo = pkt->hdr.opcode == MRC_OP_ACK,
		.echo_psn = pkt->hdr.psn,
		.ts_echo = pkt->ack.ts_echo,
	};
}

#endif
