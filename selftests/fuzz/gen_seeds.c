// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Writes the fuzzers' seed corpora from valid encodings, so no binary
 * corpus is committed:
 *   gen_seeds wire DIR   one file per opcode (and per SACK word count, and
 *                        trimmed), each exactly what mrc_encode() writes
 *                        plus its payload;
 *   gen_seeds core DIR   step scripts for core_fuzz (see its enum step):
 *                        traffic with in-order and reordered delivery,
 *                        losses and timeouts, trims, hostile ACKs, PSNs
 *                        across the 24-bit wrap;
 *   gen_seeds sender DIR step scripts for sender_fuzz (its enum step):
 *                        posts, traffic delivered in order, reordered,
 *                        lost, trimmed and duplicated, honest and forged
 *                        ACKs, encoded packets, retry exhaustion.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_wire.h"
#include "mrc_sack.h"

static void write_file(const char *dir, const char *name, const u8 *buf,
		       size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void wire_seed(const char *dir, struct mrc_pkt *pkt, u16 present,
		      const char *tag)
{
	u8 buf[MRC_MAX_HDR_LEN + 256];
	char name[64];
	int n;

	n = mrc_encode(buf, sizeof(buf), pkt);
	if (n < 0 || present > sizeof(buf) - (size_t)n) {
		fprintf(stderr, "gen_seeds: %s does not encode (%d)\n",
			mrc_opcode_name(pkt->hdr.opcode), n);
		exit(1);
	}
	memset(buf + n, 0x5a, present);
	snprintf(name, sizeof(name), "%s-%s", mrc_opcode_name(pkt->hdr.opcode),
		 tag);
	write_file(dir, name, buf, (size_t)n + present);
}

static void gen_wire(const char *dir)
{
	struct mrc_pkt p;
	u8 op;
	u32 w;

	for (op = 0; op <= MRC_OP_MAX; op++) {
		if (!mrc_opcode_valid(op))
			continue;
		memset(&p, 0, sizeof(p));
		p.hdr.opcode = op;
		p.hdr.dqpn = 0x000011;
		p.hdr.sqpn = 0x000012;
		p.hdr.psn = op == MRC_OP_PLANE_STATE ||
			    op == MRC_OP_PLANE_STATE_ACK ? 0 : 0xfffffe;
		p.hdr.ev = 3;
		p.hdr.ts = 123456;
		if (mrc_opcode_has_payload(op)) {
			p.hdr.payload_len = 64;
			p.msgh.length = 256;
			p.msgh.offset = 64;
		}
		if (mrc_opcode_ext(op) & (MRC_EXT_ATOMIC | MRC_EXT_ORIG))
			p.msgh.length = MRC_ATOMIC_OPERAND_LEN;
		if (op == MRC_OP_READ_REQ)
			p.msgh.length = 8192;
		p.raddr.va = 0x7f0000001000ull;
		p.raddr.rkey = 0x1234;
		p.qkey = 0x11111111;
		p.plane_state.seq = 7;
		p.plane_state.n_planes = 2;
		p.plane_state.down_mask = 1;
		p.probe.id = 9;
		p.probe.ev = 3;
		p.ep_probe.cookie = 0x5eed;
		p.ep_probe.ts = 654321;
		p.ep_probe.plane = 1;
		if (op == MRC_OP_EP_PROBE_REPLY ||
		    op == MRC_OP_EP_PORT_STATUS_REPLY)
			p.ep_probe.svc_ns = 2500;
		if (op == MRC_OP_EP_PORT_STATUS ||
		    op == MRC_OP_EP_PORT_STATUS_REPLY) {
			/* Port 2 of 2 down: a mask the encoder takes. */
			p.ep_probe.n_planes = 2;
			p.ep_probe.up_mask = 1;
		}
		if (mrc_opcode_is(op, MRC_OPC_DEVICE)) {
			/* To a device, not a QP: no QPNs, PSN or EV. */
			p.hdr.dqpn = 0;
			p.hdr.sqpn = 0;
			p.hdr.psn = 0;
			p.hdr.ev = 0;
		}
		if (op == MRC_OP_NAK) {
			p.ack.syndrome = MRC_NAK_RNR;
			p.ack.rnr_timer = 5;
			p.ack.nak_psn = 0xffffff;
		}
		p.ack.cum_psn = 0xfffff0;
		wire_seed(dir, &p, p.hdr.payload_len, "full");
		if (mrc_opcode_has_payload(op))
			wire_seed(dir, &p, 10, "trimmed");
		if (mrc_opcode_ext(op) & MRC_EXT_ACK) {
			for (w = 1; w <= MRC_SACK_MAX_WORDS; w++) {
				char tag[16];

				p.ack.sack_words = (u8)w;
				p.ack.sack[w - 1] = 0xa5a5a5a5a5a5a5a5ull;
				snprintf(tag, sizeof(tag), "sack%u", w);
				wire_seed(dir, &p, 0, tag);
			}
		}
	}
}

/* core_fuzz's configuration bytes and steps (see core_fuzz.c). */
enum { SEND, DELIVER, RAW, FORGED_ACK, TIME, TIMER, RETRANSMIT, PROBE,
	PLANE, DENY };

struct script {
	u8 b[4096];
	size_t n;
};

static void put(struct script *s, int n, ...)
{
	__builtin_va_list ap;
	int i;

	__builtin_va_start(ap, n);
	for (i = 0; i < n && s->n < sizeof(s->b); i++)
		s->b[s->n++] = (u8)__builtin_va_arg(ap, int);
	__builtin_va_end(ap);
}

static void config(struct script *s, u8 n_evs, u8 flags, u32 psn0, u8 reorder,
		   u8 window, u8 clock)
{
	s->n = 0;
	put(s, 8, n_evs - 1, flags, psn0 >> 16, (psn0 >> 8) & 0xff,
	    psn0 & 0xff, reorder, window, clock);
}

static void gen_core(const char *dir)
{
	static const u32 starts[] = { 0, 0xfffff0 };
	struct script s;
	char name[64];
	u32 i, k, v;

	for (v = 0; v < 8; v++) {
		for (k = 0; k < 2; k++) {
			/* Send a window, deliver it out of order, time out. */
			config(&s, 4 + v, (u8)(v << 4 | (v & 3)), starts[k], 3,
			       4, 1);
			put(&s, 2, SEND, 15);
			for (i = 0; i < 16; i++)
				put(&s, 4, DELIVER, 0, (i * 7) % 16,
				    i % 5 == 0 ? 1 : 2);
			put(&s, 3, TIME, 0x10, 4);
			put(&s, 1, TIMER);
			put(&s, 1, RETRANSMIT);
			for (i = 0; i < 16; i++)
				put(&s, 4, DELIVER, 0, i, 2);
			/* Hostile ACKs: SACK words far ahead, a stale one. */
			put(&s, 8, FORGED_ACK, 0, 0, 0, 0, 0, 3, 2);
			put(&s, 8, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0);
			put(&s, 8, 0, 0, 0xff, 0xff, 0, 0, 0, 0);
			put(&s, 7, FORGED_ACK, 1, 0, 0, 0, 0, 0);
			put(&s, 4, 0, 0, 0, 0);
			put(&s, 4, PROBE, 1, PLANE, 0);
			put(&s, 4, 1, DENY, 1, 0);
			put(&s, 2, SEND, 31);
			put(&s, 3, TIME, 0xff, 12);
			put(&s, 2, TIMER, RETRANSMIT);
			snprintf(name, sizeof(name), "traffic-%u-%u", v, k);
			write_file(dir, name, s.b, s.n);
		}
	}
}

/* sender_fuzz's configuration bytes and steps (see sender_fuzz.c). */
enum { S_POST, S_SEND, S_DELIVER, S_REPLY, S_FORGED_ACK, S_TRIM, S_RNR,
	S_TIME, S_TIMER, S_PROBE, S_RAW, S_POLL_SENDER, S_POLL_RECEIVER,
	S_POST_RESPONSE, S_RESPONSE, S_NEXT_REQUEST, S_SET_RTO, S_REPLY_ECHO,
	S_SEND_SPLIT, S_MSG_OF };

/* An encoded packet as a RAW step. */
static void put_raw(struct script *s, struct mrc_pkt *p)
{
	u8 buf[MRC_MAX_HDR_LEN];
	int n, i;

	n = mrc_encode(buf, sizeof(buf), p);
	if (n < 0 || n > 255) {
		fprintf(stderr, "gen_seeds: raw %s does not encode (%d)\n",
			mrc_opcode_name(p->hdr.opcode), n);
		exit(1);
	}
	put(s, 2, S_RAW, n);
	for (i = 0; i < n; i++)
		put(s, 1, buf[i]);
}

static void gen_sender(const char *dir)
{
	static const u32 starts[] = { 0, 0xfffff8 };
	struct mrc_pkt p;
	struct script s;
	char name[64];
	u32 i, k, v;

	for (v = 0; v < 6; v++) {
		for (k = 0; k < 2; k++) {
			u32 psn0 = starts[k];

			/* n_evs, cc|retry|slots|msgs, psn, cwnd, ack, rto */
			s.n = 0;
			put(&s, 8, v + (v > 2 ? 2 : 0), (v & 1) | (v % 4) << 1 |
			    (v % 3) << 4 | 2 << 6, psn0 >> 16,
			    (psn0 >> 8) & 0xff, psn0 & 0xff, 31, 3, v);
			put(&s, 6, S_POST, 3, S_POST, 0, S_POST, 7);
			put(&s, 2, S_SEND, 31);
			/* In order, reordered, one lost, one trimmed. */
			for (i = 0; i < 12; i++) {
				put(&s, 3, S_DELIVER, (i * 5) % 3,
				    v == 2 && i == 4 ? 2 : (i == 7 ? 1 : 0));
				put(&s, 3, S_REPLY, 0, 0);
			}
			put(&s, 2, S_POLL_RECEIVER, 7);
			put(&s, 1, S_POLL_SENDER);
			put(&s, 3, S_TIME, 0x10, 4);
			put(&s, 2, S_TIMER, 1);
			put(&s, 2, S_SEND, 31);
			for (i = 0; i < 12; i++)
				put(&s, 5, S_DELIVER, 0, 0, S_REPLY, 0);
			put(&s, 2, S_POLL_RECEIVER, 7);
			put(&s, 1, S_POLL_SENDER);
			/* Hostile: an ACK past next, stale SACK words. */
			put(&s, 8, S_FORGED_ACK, 1, 2, 1, 0, 0, 0, 9);
			put(&s, 8, 0xff, 0, 0, 0, 0, 0, 0, 1);
			put(&s, 8, 0, 0, 0, 0, 0, 0, 0, 0);
			put(&s, 6, S_TRIM, 2, S_RNR, 1, S_PROBE, 1);
			put(&s, 1, 1);
			/* Encoded packets: a request, an ACK, a NAK(trimmed). */
			memset(&p, 0, sizeof(p));
			p.hdr.opcode = MRC_OP_SEND;
			p.hdr.flags = MRC_F_ACK_REQ | MRC_F_SOLICITED;
			p.hdr.psn = (psn0 + 30) & 0xffffff;
			put_raw(&s, &p);
			memset(&p, 0, sizeof(p));
			p.hdr.opcode = MRC_OP_ACK;
			p.ack.cum_psn = (psn0 + 12) & 0xffffff;
			p.ack.sack_words = 1;
			p.ack.sack[0] = 0xf000000000000000ull;
			put_raw(&s, &p);
			p.hdr.opcode = MRC_OP_NAK;
			p.ack.syndrome = MRC_NAK_TRIMMED;
			p.ack.nak_psn = (psn0 + 13) & 0xffffff;
			put_raw(&s, &p);
			/* The peer goes quiet: retries run out. */
			put(&s, 6, S_POST, 1, S_SEND, 3, S_POLL_SENDER, S_POLL_RECEIVER);
			for (i = 0; i < 10; i++)
				put(&s, 5, S_TIME, 0xff, 10, S_TIMER, 1);
			put(&s, 1, S_POLL_SENDER);
			snprintf(name, sizeof(name), "sender-%u-%u", v, k);
			write_file(dir, name, s.b, s.n);
		}
	}
	/*
	 * A request a window past a delivered PSN whose completion is not
	 * polled yet: before the fix it shared that completion's mark.
	 */
	s.n = 0;
	put(&s, 8, 0, 0, 0, 0, 0, 31, 3, 0);
	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_SEND;
	put_raw(&s, &p);
	p.hdr.flags = MRC_F_SOLICITED;
	p.hdr.psn = MRC_RX_WINDOW;
	put_raw(&s, &p);
	put(&s, 2, S_POLL_RECEIVER, 7);
	write_file(dir, "marks-ahead", s.b, s.n);
	/*
	 * A peer that takes a SACK back: una + 2 and + 3 selectively
	 * acknowledged, then a cumulative PSN stopping at una + 2, then
	 * silence. Before the fix the sender armed no timer and hung.
	 */
	s.n = 0;
	put(&s, 8, 0, 0, 0, 0, 0, 31, 3, 0);
	put(&s, 4, S_POST, 3, S_SEND, 7);
	put(&s, 8, S_FORGED_ACK, 0, 1, 0, 0, 0, 0, 1);
	put(&s, 8, 0xc0, 0, 0, 0, 0, 0, 0, 0);
	put(&s, 8, S_FORGED_ACK, 0, 0, 0, 0, 0, 0, 1);
	write_file(dir, "sack-reneged", s.b, s.n);
	/*
	 * READs among WRITEs, with and without a packet map: a request,
	 * a re-request after a late response, echoed replies, a duplicate
	 * response, the RTO off and on again, and a READ whose response
	 * never comes until the retries run out.
	 */
	for (v = 0; v < 4; v++) {
		u32 psn0 = starts[v & 1];

		s.n = 0;
		put(&s, 8, v, v << 1 | 1 << 4 | 2 << 6, psn0 >> 16,
		    (psn0 >> 8) & 0xff, psn0 & 0xff, 31, 3 | (v & 2) << 2, 0);
		put(&s, 6, S_POST_RESPONSE, 0, S_POST, 2, S_SEND, 31);
		for (i = 0; i < 4; i++)
			put(&s, 5, S_DELIVER, 0, 0, S_REPLY, 0);
		put(&s, 4, S_NEXT_REQUEST, 0, S_SEND, 31);
		put(&s, 6, S_DELIVER, 0, 0, S_REPLY_ECHO, 0, 0);
		put(&s, 1, 0);
		put(&s, 6, S_RESPONSE, 0, 0, S_RESPONSE, 0, 2);
		put(&s, 5, S_TIME, 0x10, 4, S_TIMER, 3);
		put(&s, 4, S_NEXT_REQUEST, 0, S_SEND, 31);
		put(&s, 6, S_DELIVER, 0, 0, S_REPLY_ECHO, 0, 0);
		put(&s, 1, 3);
		put(&s, 6, S_RESPONSE, 0, 1, S_RESPONSE, 0, 1);
		put(&s, 1, S_POLL_SENDER);
		put(&s, 8, S_SET_RTO, 0, S_POST, 1, S_SEND, 3, S_TIME, 0xff);
		put(&s, 3, 8, S_TIMER, 1);
		put(&s, 8, S_SET_RTO, 0x2b, S_POST_RESPONSE, 0, S_SEND, 3,
		    S_DELIVER, 0);
		put(&s, 6, 0, S_REPLY_ECHO, 0, 0, 3, S_POLL_RECEIVER);
		put(&s, 1, 7);
		for (i = 0; i < 10; i++)
			put(&s, 5, S_TIME, 0xff, 10, S_TIMER, 3);
		put(&s, 1, S_POLL_SENDER);
		snprintf(name, sizeof(name), "responses-%u", v);
		write_file(dir, name, s.b, s.n);
	}
	/*
	 * The requester's order: retransmissions alone, then new PSNs
	 * while the window is open; losses on a path that dies, so its EV
	 * is retired and probed, the probes unanswered until they time
	 * out, then answered; NSCC (with its RTT through the hook) or not.
	 */
	for (v = 0; v < 4; v++) {
		s.n = 0;
		put(&s, 8, 4, (v & 1) | 1 << 1 | 1 << 4 | 1 << 6, 0, 0, 0,
		    15 | (v & 2 ? 2 : 1) << 6, 3, 0);
		put(&s, 6, S_POST, 7, S_POST, 3, S_SEND_SPLIT, 31);
		/* Every other packet lost, the rest answered. */
		for (i = 0; i < 8; i++) {
			put(&s, 3, S_DELIVER, 1, 0);
			put(&s, 3, S_REPLY, 0, 0);
		}
		put(&s, 4, S_MSG_OF, 0, S_MSG_OF, 0xff);
		/* 4 ms: the RTO; then 1 ms more, past the probe timeout. */
		put(&s, 6, S_TIME, 0x10, 0, 0, S_TIMER, 1);
		put(&s, 2, S_SEND_SPLIT, 31);
		put(&s, 4, S_TIME, 0x04, 0, 0);
		put(&s, 3, S_PROBE, 0, 0);
		put(&s, 6, S_TIME, 0x04, 0, 0, S_TIMER, 1);
		put(&s, 3, S_PROBE, 0, 1);
		put(&s, 3, S_PROBE, 0, 1);
		for (i = 0; i < 8; i++)
			put(&s, 5, S_DELIVER, 0, 0, S_REPLY, 0);
		put(&s, 4, S_SEND_SPLIT, 31, S_POLL_SENDER, S_POLL_RECEIVER);
		put(&s, 1, 7);
		snprintf(name, sizeof(name), "requester-order-%u", v);
		write_file(dir, name, s.b, s.n);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_seeds wire|core|sender DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "wire"))
		gen_wire(argv[2]);
	else if (!strcmp(argv[1], "core"))
		gen_core(argv[2]);
	else if (!strcmp(argv[1], "sender"))
		gen_sender(argv[2]);
	else
		return 2;
	return 0;
}
