// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: every parse entry point of the wire codec (mrc_wire.c)
 * on hostile bytes. The input is one packet from the first byte after the
 * UDP header, in a heap block of exactly its length (libFuzzer's own copy),
 * so AddressSanitizer sees any read past its end.
 *
 * Beyond "no crash", what decodes must be what the wire format says:
 *   - the decoded packet passes mrc_pkt_check() and re-encodes to the same
 *     header bytes (the decoder accepts exactly what the encoder writes);
 *   - header length, payload offset and payload present add up to the
 *     input's length, and the trim flag follows from them;
 *   - SACK bits beyond sack_words read as clear;
 * and what the decoder refuses has a named reason.
 * The same bytes, read as host-order fields, are also given to the encoder:
 * whatever it writes must decode back to the same fields.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_wire.h"
#include "fuzz_input.h"

#include <stdio.h>

static void check_decoded(const u8 *buf, size_t len, const struct mrc_pkt *pkt)
{
	u8 out[MRC_MAX_HDR_LEN];
	size_t hlen = mrc_pkt_hdr_len(pkt);
	u32 i, psn;
	int n;

	FUZZ_ASSERT(mrc_opcode_valid(pkt->hdr.opcode));
	FUZZ_ASSERT(mrc_pkt_check(pkt) == MRC_DROP_NONE);
	FUZZ_ASSERT(pkt->ext == mrc_opcode_ext(pkt->hdr.opcode));
	FUZZ_ASSERT(hlen && hlen <= MRC_MAX_HDR_LEN);
	FUZZ_ASSERT(pkt->payload_off == hlen);
	FUZZ_ASSERT((size_t)pkt->payload_off + pkt->payload_present == len);
	FUZZ_ASSERT(pkt->payload_present <= pkt->hdr.payload_len);
	FUZZ_ASSERT(pkt->trimmed ==
		    (pkt->payload_present < pkt->hdr.payload_len ||
		     !!(pkt->hdr.flags & MRC_F_TRIMMED)));
	FUZZ_ASSERT(mrc_opcode_has_payload(pkt->hdr.opcode) ||
		    pkt->hdr.payload_len == 0);
	FUZZ_ASSERT(pkt->hdr.psn <= MRC_PSN_MASK);

	/* Decode accepts only what encode writes, byte for byte. */
	n = mrc_encode(out, sizeof(out), pkt);
	FUZZ_ASSERT(n > 0 && (size_t)n == hlen);
	FUZZ_ASSERT(memcmp(out, buf, hlen) == 0);

	if (pkt->ext & MRC_EXT_ACK) {
		FUZZ_ASSERT(pkt->ack.sack_words <= MRC_SACK_MAX_WORDS);
		for (i = 64u * pkt->ack.sack_words; i < MRC_SACK_MAX_BITS + 64;
		     i++)
			FUZZ_ASSERT(!mrc_sack_test(&pkt->ack, i));
		for (i = 0; i < 64u * pkt->ack.sack_words; i++)
			if (mrc_sack_test(&pkt->ack, i))
				FUZZ_ASSERT(mrc_sack_psn(&pkt->ack, i) <=
					    MRC_PSN_MASK);
	}
	if (mrc_peek_request_psn(buf, len, &psn))
		FUZZ_ASSERT(psn == pkt->hdr.psn);
}

/* The input read as host-order fields of a packet, then encoded. */
static void fuzz_encoder(const u8 *data, size_t size)
{
	struct mrc_pkt pkt, back;
	u8 out[MRC_MAX_HDR_LEN];
	u8 *exact;
	int n, ret;

	memset(&pkt, 0, sizeof(pkt));
	memcpy(&pkt, data, size < sizeof(pkt) ? size : sizeof(pkt));
	pkt.trimmed = false;
	n = mrc_encode(out, sizeof(out), &pkt);
	if (n < 0) {
		FUZZ_ASSERT(n == -EINVAL || n == -ENOSPC);
		FUZZ_ASSERT(n == -ENOSPC || mrc_pkt_check(&pkt) != MRC_DROP_NONE);
		return;
	}
	FUZZ_ASSERT((size_t)n == mrc_pkt_hdr_len(&pkt));
	/* A short buffer is refused whole. */
	FUZZ_ASSERT(mrc_encode(out, (size_t)n - 1, &pkt) == -ENOSPC);

	/* What the encoder wrote, with the declared payload all present. */
	exact = malloc((size_t)n + pkt.hdr.payload_len);
	FUZZ_ASSERT(exact);
	memcpy(exact, out, (size_t)n);
	memset(exact + n, 0xa5, pkt.hdr.payload_len);
	ret = mrc_decode(exact, (size_t)n + pkt.hdr.payload_len, &back);
	FUZZ_ASSERT(ret == 0);
	FUZZ_ASSERT(memcmp(&back.hdr, &pkt.hdr, sizeof(pkt.hdr)) == 0);
	if (back.ext & MRC_EXT_MSGH)
		FUZZ_ASSERT(memcmp(&back.msgh, &pkt.msgh, sizeof(pkt.msgh)) == 0);
	if (back.ext & MRC_EXT_ACK) {
		FUZZ_ASSERT(back.ack.cum_psn == pkt.ack.cum_psn);
		FUZZ_ASSERT(back.ack.sack_words == pkt.ack.sack_words);
		FUZZ_ASSERT(memcmp(back.ack.sack, pkt.ack.sack,
				   8u * pkt.ack.sack_words) == 0);
	}
	FUZZ_ASSERT(back.trimmed == !!(pkt.hdr.flags & MRC_F_TRIMMED));
	free(exact);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mrc_pkt pkt;
	int ret;
	u32 psn;

	ret = mrc_decode(data, size, &pkt);
	if (ret == 0) {
		check_decoded(data, size, &pkt);
	} else {
		FUZZ_ASSERT(ret < 0 && -ret < MRC_DROP_REASON_COUNT);
		FUZZ_ASSERT(strcmp(mrc_drop_reason_name(-ret), "unknown"));
	}
	/* Our own transmit path's peek never reads past the end either. */
	(void)mrc_peek_request_psn(data, size, &psn);
	if (size)
		(void)mrc_opcode_name(data[0]);
	fuzz_encoder(data, size);
	return 0;
}
