// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests of the MRC wire codec (mrc_wire.h, mrc_wire.c). Expected bytes
 * and reserved-bit positions are written out from
 * Documentation/wire-format.rst, never derived from the encoder. Packets
 * handed to mrc_decode() live in heap buffers of exactly their length, so
 * ASan catches any read past the end.
 */
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "mrc_wire.h"

static const u8 all_opcodes[] = {
	MRC_OP_WRITE, MRC_OP_WRITE_IMM, MRC_OP_SEND, MRC_OP_SEND_IMM,
	MRC_OP_READ_REQ, MRC_OP_READ_RESP, MRC_OP_ATOMIC_CMP_SWAP,
	MRC_OP_ATOMIC_FETCH_ADD, MRC_OP_ATOMIC_RESP, MRC_OP_SEND_INV,
	MRC_OP_ACK, MRC_OP_NAK,
	MRC_OP_PROBE, MRC_OP_PROBE_REPLY, MRC_OP_PLANE_STATE,
	MRC_OP_PLANE_STATE_ACK, MRC_OP_UD_SEND, MRC_OP_UD_SEND_IMM,
	MRC_OP_EP_PROBE, MRC_OP_EP_PROBE_REPLY,
	MRC_OP_EP_PORT_STATUS, MRC_OP_EP_PORT_STATUS_REPLY,
};

#define N_OPCODES (sizeof(all_opcodes) / sizeof(all_opcodes[0]))

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u64 rng(void)
{
	u64 x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static u32 rng_below(u32 n)
{
	return (u32)(rng() % n);
}

/* A copy of @len bytes in a heap block of exactly that size. */
static u8 *exact_copy(const u8 *src, size_t len)
{
	u8 *p = malloc(len ? len : 1);

	if (!p)
		abort();
	if (len)
		memcpy(p, src, len);
	return p;
}

/* mrc_decode() on an exact-size heap copy. */
static int decode_exact(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	u8 *copy = exact_copy(buf, len);
	int ret = mrc_decode(len ? copy : NULL, len, pkt);

	free(copy);
	return ret;
}

static int drop(enum mrc_drop_reason reason)
{
	return -(int)reason;
}

/*
 * A valid packet of @opcode with non-trivial values: maximal 24-bit QPNs and
 * PSNs, high bits in VAs and 32-bit fields, offsets near the 2 GiB limit.
 * @plen is the declared payload of opcodes that carry one.
 */
static struct mrc_pkt sample(u8 opcode, u16 plen)
{
	struct mrc_pkt p;

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = opcode;
	p.hdr.flags = MRC_F_ACK_REQ & mrc_opcode_flags(opcode);
	p.hdr.dqpn = 0xffffff;
	p.hdr.sqpn = 0x800001;
	p.hdr.psn = 0xfffffe;
	p.hdr.ev = 0xdeadbeef;
	p.hdr.ts = 0xfedcba98;
	/* A datagram is one packet of at most MRC_UD_MAX_PAYLOAD bytes. */
	if (mrc_opcode_ext(opcode) & MRC_EXT_DETH && plen > MRC_UD_MAX_PAYLOAD)
		plen = MRC_UD_MAX_PAYLOAD;
	if (mrc_opcode_has_payload(opcode))
		p.hdr.payload_len = plen;

	p.msgh.msn = 0xfffffff0;
	p.msgh.length = MRC_MAX_MSG_LEN;
	p.msgh.offset = MRC_MAX_MSG_LEN - 3 * (u32)plen;
	p.raddr.va = 0xffff8000c0ffee00ull;
	p.raddr.rkey = 0x80000001;

	switch (opcode) {
	case MRC_OP_WRITE_IMM:
	case MRC_OP_SEND_IMM:
		p.imm = 0x89abcdef;
		break;
	case MRC_OP_UD_SEND_IMM:
		p.imm = 0x89abcdef;
		p.qkey = 0x80010000;
		break;
	case MRC_OP_UD_SEND:
		p.qkey = 0xffffffff;
		break;
	case MRC_OP_SEND_INV:
		p.inv_rkey = 0x80000102;
		break;
	case MRC_OP_READ_REQ:
		p.msgh.offset = 0x40000000;
		p.msgh.length = 0x40000000;
		break;
	case MRC_OP_ATOMIC_CMP_SWAP:
	case MRC_OP_ATOMIC_FETCH_ADD:
		p.msgh.offset = 0;
		p.msgh.length = 8;
		p.atomic.swap_or_add = 0x8000000000000001ull;
		p.atomic.compare = 0xfffffffffffffffeull;
		break;
	case MRC_OP_ATOMIC_RESP:
		p.msgh.offset = 0;
		p.msgh.length = 8;
		p.orig = 0xa5a5a5a55a5a5a5aull;
		break;
	case MRC_OP_ACK:
	case MRC_OP_NAK:
		p.ack.cum_psn = 0xffffff;
		p.ack.ev_echo = 0xffffffff;
		p.ack.ts_echo = 0x80000000;
		p.ack.msn = 0x7fffffff;
		p.ack.flags = MRC_ACK_F_ECN_CE;
		p.ack.sack_words = 4;
		p.ack.sack[0] = 0x8000000000000001ull;
		p.ack.sack[1] = 0xffffffffffffffffull;
		p.ack.sack[2] = 0x0123456789abcdefull;
		p.ack.sack[3] = 0xfedcba9876543210ull;
		if (opcode == MRC_OP_NAK) {
			p.ack.syndrome = MRC_NAK_RNR;
			p.ack.rnr_timer = MRC_RNR_TIMER_MAX;
			p.ack.nak_psn = 0xffffff;
		}
		break;
	case MRC_OP_PROBE:
	case MRC_OP_PROBE_REPLY:
		p.probe.id = 0xffffffff;
		p.probe.ts = 0x80000001;
		p.probe.ev = 0x00abcdef;
		break;
	case MRC_OP_PLANE_STATE:
	case MRC_OP_PLANE_STATE_ACK:
		/* Not in a sequenced stream: PSN 0. */
		p.hdr.psn = 0;
		p.plane_state.seq = 0xfffffffe;
		p.plane_state.n_planes = MRC_WIRE_MAX_PLANES;
		p.plane_state.down_mask = 0x7f;
		break;
	case MRC_OP_EP_PROBE:
	case MRC_OP_EP_PROBE_REPLY:
		/* For a device, not a QP: no QPNs, PSN or EV. */
		p.hdr.dqpn = 0;
		p.hdr.sqpn = 0;
		p.hdr.psn = 0;
		p.hdr.ev = 0;
		p.ep_probe.cookie = 0xfffe0001;
		p.ep_probe.ts = 0x80000001;
		p.ep_probe.plane = MRC_WIRE_MAX_PLANES - 1;
		if (opcode == MRC_OP_EP_PROBE_REPLY)
			p.ep_probe.svc_ns = 0xffffffff;
		break;
	case MRC_OP_EP_PORT_STATUS:
	case MRC_OP_EP_PORT_STATUS_REPLY:
		p.hdr.dqpn = 0;
		p.hdr.sqpn = 0;
		p.hdr.psn = 0;
		p.hdr.ev = 0;
		p.ep_probe.cookie = 0xfffe0002;
		p.ep_probe.ts = 0x80000002;
		p.ep_probe.plane = MRC_WIRE_MAX_PLANES - 1;
		p.ep_probe.n_planes = MRC_WIRE_MAX_PLANES;
		p.ep_probe.up_mask = 0x80;
		if (opcode == MRC_OP_EP_PORT_STATUS_REPLY)
			p.ep_probe.svc_ns = 0xfffffffe;
		break;
	}
	if (!(mrc_opcode_ext(opcode) & MRC_EXT_MSGH))
		memset(&p.msgh, 0, sizeof(p.msgh));
	if (!(mrc_opcode_ext(opcode) & MRC_EXT_RADDR))
		memset(&p.raddr, 0, sizeof(p.raddr));
	return p;
}

/* Headers plus @present payload bytes in @buf; returns the length. */
static size_t build(u8 *buf, size_t cap, const struct mrc_pkt *p,
		    size_t present)
{
	int hlen = mrc_encode(buf, cap, p);

	if (hlen < 0 || (size_t)hlen + present > cap)
		abort();
	for (size_t i = 0; i < present; i++)
		buf[hlen + i] = (u8)(0xa0 + i);
	return (size_t)hlen + present;
}

static void check_same(const struct mrc_pkt *a, const struct mrc_pkt *b)
{
	CHECK_EQ(a->hdr.opcode, b->hdr.opcode);
	CHECK_EQ(a->hdr.flags, b->hdr.flags);
	CHECK_EQ(a->hdr.dqpn, b->hdr.dqpn);
	CHECK_EQ(a->hdr.sqpn, b->hdr.sqpn);
	CHECK_EQ(a->hdr.psn, b->hdr.psn);
	CHECK_EQ(a->hdr.ev, b->hdr.ev);
	CHECK_EQ(a->hdr.ts, b->hdr.ts);
	CHECK_EQ(a->hdr.payload_len, b->hdr.payload_len);
	CHECK_EQ(a->msgh.msn, b->msgh.msn);
	CHECK_EQ(a->msgh.offset, b->msgh.offset);
	CHECK_EQ(a->msgh.length, b->msgh.length);
	CHECK(a->raddr.va == b->raddr.va);
	CHECK_EQ(a->raddr.rkey, b->raddr.rkey);
	CHECK_EQ(a->imm, b->imm);
	CHECK(a->atomic.swap_or_add == b->atomic.swap_or_add);
	CHECK(a->atomic.compare == b->atomic.compare);
	CHECK(a->orig == b->orig);
	CHECK_EQ(a->ack.cum_psn, b->ack.cum_psn);
	CHECK_EQ(a->ack.ev_echo, b->ack.ev_echo);
	CHECK_EQ(a->ack.ts_echo, b->ack.ts_echo);
	CHECK_EQ(a->ack.msn, b->ack.msn);
	CHECK_EQ(a->ack.syndrome, b->ack.syndrome);
	CHECK_EQ(a->ack.rnr_timer, b->ack.rnr_timer);
	CHECK_EQ(a->ack.flags, b->ack.flags);
	CHECK_EQ(a->ack.sack_words, b->ack.sack_words);
	CHECK_EQ(a->ack.nak_psn, b->ack.nak_psn);
	for (int i = 0; i < a->ack.sack_words && i < MRC_SACK_MAX_WORDS; i++)
		CHECK(a->ack.sack[i] == b->ack.sack[i]);
	CHECK_EQ(a->probe.id, b->probe.id);
	CHECK_EQ(a->probe.ts, b->probe.ts);
	CHECK_EQ(a->probe.ev, b->probe.ev);
	CHECK_EQ(a->ep_probe.cookie, b->ep_probe.cookie);
	CHECK_EQ(a->ep_probe.ts, b->ep_probe.ts);
	CHECK_EQ(a->ep_probe.plane, b->ep_probe.plane);
	CHECK_EQ(a->ep_probe.n_planes, b->ep_probe.n_planes);
	CHECK_EQ(a->ep_probe.up_mask, b->ep_probe.up_mask);
	CHECK_EQ(a->ep_probe.svc_ns, b->ep_probe.svc_ns);
	CHECK_EQ(a->plane_state.seq, b->plane_state.seq);
	CHECK_EQ(a->plane_state.n_planes, b->plane_state.n_planes);
	CHECK_EQ(a->plane_state.down_mask, b->plane_state.down_mask);
	CHECK_EQ(a->qkey, b->qkey);
	CHECK_EQ(a->inv_rkey, b->inv_rkey);
}

static void check_bytes(const u8 *got, const u8 *want, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (got[i] != want[i]) {
			printf("# byte %zu: 0x%02x, expected 0x%02x\n", i,
			       got[i], want[i]);
			ktap_case_failed = 1;
		}
	}
}

/* ------------------------------------------------------------------ */

static void header_lengths_match_the_tables(void)
{
	static const struct { u8 op; size_t len; } want[] = {
		{ MRC_OP_WRITE, 60 }, { MRC_OP_WRITE_IMM, 68 },
		{ MRC_OP_SEND, 44 }, { MRC_OP_SEND_IMM, 52 },
		{ MRC_OP_READ_REQ, 60 }, { MRC_OP_READ_RESP, 44 },
		{ MRC_OP_ATOMIC_CMP_SWAP, 76 }, { MRC_OP_ATOMIC_FETCH_ADD, 76 },
		{ MRC_OP_ATOMIC_RESP, 52 }, { MRC_OP_ACK, 56 },
		{ MRC_OP_NAK, 56 }, { MRC_OP_PROBE, 48 },
		{ MRC_OP_PROBE_REPLY, 48 }, { MRC_OP_PLANE_STATE, 40 },
		{ MRC_OP_PLANE_STATE_ACK, 40 }, { MRC_OP_UD_SEND, 40 },
		{ MRC_OP_UD_SEND_IMM, 48 }, { MRC_OP_SEND_INV, 52 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_EQ(mrc_hdr_len(want[i].op), want[i].len);
	for (u32 w = 0; w <= 4; w++)
		CHECK_EQ(mrc_ack_len(w), 56 + 8 * w);
	CHECK_EQ(mrc_ack_len(5), 0);
	CHECK_EQ(mrc_ack_len(0xffffffff), 0);
	CHECK_EQ(mrc_hdr_len(0), 0);
	CHECK_EQ(mrc_hdr_len(0xff), 0);
	CHECK_EQ(MRC_MAX_HDR_LEN, 88);
	CHECK_EQ(MRC_MAX_DATA_HDR_LEN, 68);
	CHECK_EQ(MRC_BASE_HDR_LEN, 32);

	struct mrc_pkt p = sample(MRC_OP_ACK, 0);

	p.ack.sack_words = 3;
	CHECK_EQ(mrc_pkt_hdr_len(&p), 80);
	p.ack.sack_words = 5;
	CHECK_EQ(mrc_pkt_hdr_len(&p), 0);
	p = sample(MRC_OP_WRITE_IMM, 1);
	CHECK_EQ(mrc_pkt_hdr_len(&p), 68);
}

/*
 * Every opcode has exactly one destination (responder, requester, UD QP or
 * the paths), and the finer classes agree with the rest of the table: the
 * dispatch in mrc_recv.c and the ECN marking in mrc_xmit.c rely on this.
 */
static void opcode_classes(void)
{
	const u8 where = MRC_OPC_REQUEST | MRC_OPC_RESPONSE |
			 MRC_OPC_DATAGRAM | MRC_OPC_PATH | MRC_OPC_DEVICE;
	u8 buf[MRC_BASE_HDR_LEN] = { MRC_WIRE_VERSION << MRC_VERSION_SHIFT };
	u32 psn;

	for (u32 op = 0; op < 256; op++) {
		u8 c = mrc_opcode_class((u8)op);
		u8 dest = c & where;

		buf[1] = (u8)op;
		CHECK_EQ(mrc_peek_request_psn(buf, sizeof(buf), &psn),
			 !!(c & MRC_OPC_REQUEST));
		if (!mrc_opcode_valid((u8)op)) {
			CHECK_EQ(c, 0);
			continue;
		}
		/* One destination bit, no more. */
		CHECK(dest && !(dest & (dest - 1)));
		CHECK_EQ(mrc_opcode_is((u8)op, c), true);
		if (c & (MRC_OPC_RD_ATOMIC | MRC_OPC_CONSUMES_RECV))
			CHECK(c & MRC_OPC_REQUEST);
		if (c & MRC_OPC_RD_ATOMIC)
			CHECK(!mrc_opcode_has_payload((u8)op));
		if (c & MRC_OPC_DATA)
			CHECK(mrc_opcode_has_payload((u8)op) &&
			      !(c & MRC_OPC_DATAGRAM));
		if (c & MRC_OPC_CONSUMES_RECV)
			CHECK(c & MRC_OPC_DATA);
		if (c & MRC_OPC_DATAGRAM)
			CHECK(!(mrc_opcode_flags((u8)op) & MRC_F_ACK_REQ));
	}
	CHECK(mrc_opcode_is(MRC_OP_WRITE_IMM, MRC_OPC_CONSUMES_RECV));
	CHECK(!mrc_opcode_is(MRC_OP_WRITE, MRC_OPC_CONSUMES_RECV));
	CHECK(mrc_opcode_is(MRC_OP_SEND_INV, MRC_OPC_CONSUMES_RECV));
	CHECK(mrc_opcode_is(MRC_OP_ATOMIC_FETCH_ADD, MRC_OPC_RD_ATOMIC));
	CHECK(!mrc_opcode_is(MRC_OP_ATOMIC_RESP, MRC_OPC_RD_ATOMIC));
	CHECK(mrc_opcode_is(MRC_OP_READ_RESP, MRC_OPC_DATA));
	CHECK(mrc_opcode_is(MRC_OP_PLANE_STATE_ACK, MRC_OPC_PATH));
	CHECK(mrc_opcode_is(MRC_OP_EP_PROBE, MRC_OPC_DEVICE));
	CHECK(mrc_opcode_is(MRC_OP_EP_PROBE_REPLY, MRC_OPC_DEVICE));
	CHECK(mrc_opcode_is(MRC_OP_EP_PORT_STATUS, MRC_OPC_DEVICE));
	CHECK(mrc_opcode_is(MRC_OP_EP_PORT_STATUS_REPLY, MRC_OPC_DEVICE));
	CHECK(!mrc_opcode_is(MRC_OP_PROBE, MRC_OPC_DEVICE));
}

static void opcode_table(void)
{
	int valid = 0;

	for (u32 op = 0; op < 256; op++) {
		bool listed = memchr(all_opcodes, (int)op, N_OPCODES);

		CHECK_EQ(mrc_opcode_valid((u8)op), listed);
		CHECK_EQ(mrc_hdr_len((u8)op) != 0, listed);
		if (!listed) {
			CHECK(!strcmp(mrc_opcode_name((u8)op), "INVALID"));
			CHECK_EQ(mrc_opcode_ext((u8)op), 0);
			CHECK_EQ(mrc_opcode_flags((u8)op), 0);
			CHECK(!mrc_opcode_has_payload((u8)op));
		}
		valid += listed;
	}
	CHECK_EQ(valid, 22);
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_ATOMIC_FETCH_ADD),
		      "ATOMIC_FETCH_ADD"));
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_PROBE_REPLY), "PROBE_REPLY"));
	CHECK(mrc_opcode_has_payload(MRC_OP_WRITE));
	CHECK(mrc_opcode_has_payload(MRC_OP_WRITE_IMM));
	CHECK(mrc_opcode_has_payload(MRC_OP_SEND));
	CHECK(mrc_opcode_has_payload(MRC_OP_SEND_IMM));
	CHECK(mrc_opcode_has_payload(MRC_OP_READ_RESP));
	CHECK(!mrc_opcode_has_payload(MRC_OP_READ_REQ));
	CHECK(!mrc_opcode_has_payload(MRC_OP_ATOMIC_RESP));
	CHECK(!mrc_opcode_has_payload(MRC_OP_ACK));
	CHECK(!mrc_opcode_has_payload(MRC_OP_PROBE));
	CHECK_EQ(MRC_OP_WRITE, 0x01);
	CHECK_EQ(MRC_OP_ATOMIC_RESP, 0x09);
	CHECK_EQ(MRC_OP_SEND_INV, 0x0a);
	CHECK(mrc_opcode_has_payload(MRC_OP_SEND_INV));
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_SEND_INV), "SEND_INV"));
	CHECK_EQ(MRC_OP_ACK, 0x10);
	CHECK_EQ(MRC_OP_NAK, 0x11);
	CHECK_EQ(MRC_OP_PROBE, 0x20);
	CHECK_EQ(MRC_OP_PROBE_REPLY, 0x21);
	CHECK_EQ(MRC_OP_PLANE_STATE, 0x22);
	CHECK_EQ(MRC_OP_PLANE_STATE_ACK, 0x23);
	CHECK(!mrc_opcode_has_payload(MRC_OP_PLANE_STATE));
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_PLANE_STATE_ACK),
		      "PLANE_STATE_ACK"));
	CHECK_EQ(MRC_OP_EP_PROBE, 0x24);
	CHECK_EQ(MRC_OP_EP_PROBE_REPLY, 0x25);
	CHECK_EQ(mrc_hdr_len(MRC_OP_EP_PROBE), 48);
	CHECK_EQ(mrc_hdr_len(MRC_OP_EP_PROBE_REPLY), 48);
	CHECK(!mrc_opcode_has_payload(MRC_OP_EP_PROBE_REPLY));
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_EP_PROBE_REPLY),
		      "EP_PROBE_REPLY"));
	CHECK_EQ(MRC_OP_EP_PORT_STATUS, 0x26);
	CHECK_EQ(MRC_OP_EP_PORT_STATUS_REPLY, 0x27);
	CHECK_EQ(mrc_hdr_len(MRC_OP_EP_PORT_STATUS), 48);
	CHECK_EQ(mrc_hdr_len(MRC_OP_EP_PORT_STATUS_REPLY), 48);
	CHECK(!mrc_opcode_has_payload(MRC_OP_EP_PORT_STATUS));
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_EP_PORT_STATUS_REPLY),
		      "EP_PORT_STATUS_REPLY"));
	CHECK_EQ(MRC_OP_UD_SEND, 0x30);
	CHECK_EQ(MRC_OP_UD_SEND_IMM, 0x31);
	CHECK(mrc_opcode_has_payload(MRC_OP_UD_SEND));
	CHECK(mrc_opcode_has_payload(MRC_OP_UD_SEND_IMM));
	CHECK(!strcmp(mrc_opcode_name(MRC_OP_UD_SEND_IMM), "UD_SEND_IMM"));
}

static void roundtrip_every_opcode(void)
{
	static const u16 plens[] = { 1, 4096, 65535 };
	u8 buf[MRC_MAX_HDR_LEN + 65535], again[MRC_MAX_HDR_LEN];

	for (size_t i = 0; i < N_OPCODES; i++) {
		for (size_t j = 0; j < 3; j++) {
			u8 op = all_opcodes[i];
			struct mrc_pkt p = sample(op, plens[j]), d;
			size_t present = p.hdr.payload_len;
			size_t len = build(buf, sizeof(buf), &p, present);
			size_t hlen = mrc_hdr_len(op);

			if (op == MRC_OP_ACK || op == MRC_OP_NAK)
				hlen = mrc_ack_len(4);
			CHECK_EQ(len, hlen + present);
			CHECK_EQ(decode_exact(buf, len, &d), 0);
			check_same(&d, &p);
			CHECK_EQ(d.ext, mrc_opcode_ext(op));
			CHECK_EQ(d.payload_off, hlen);
			CHECK_EQ(d.payload_present, present);
			CHECK(!d.trimmed);
			CHECK_EQ(mrc_encode(again, sizeof(again), &d),
				 (long long)hlen);
			check_bytes(again, buf, hlen);
		}
	}
}

/* Every field distinct, so a swapped or shifted field shows. */
static void golden_write(void)
{
	static const u8 want[60] = {
		/* base header */
		0x10, 0x01, 0x05, 0x00,		/* v1, WRITE, ACK_REQ|RETX */
		0x00, 0xab, 0xcd, 0xef,		/* dqpn */
		0x00, 0x12, 0x34, 0x56,		/* sqpn */
		0x00, 0xfe, 0xdc, 0xba,		/* psn */
		0x01, 0x02, 0x03, 0x04,		/* ev */
		0xa1, 0xb2, 0xc3, 0xd4,		/* ts */
		0x04, 0x00, 0x00, 0x00,		/* payload 1024, rsvd */
		0x00, 0x00, 0x00, 0x00,		/* rsvd */
		/* MSGH */
		0x00, 0x00, 0x00, 0x07,		/* msn */
		0x00, 0x00, 0x10, 0x00,		/* offset */
		0x00, 0x00, 0x20, 0x00,		/* message length */
		/* RADDR */
		0xff, 0xee, 0x00, 0x00, 0x12, 0x34, 0x56, 0x78, /* va */
		0x0b, 0xad, 0xf0, 0x0d,		/* rkey */
		0x00, 0x00, 0x00, 0x00,		/* rsvd */
	};
	struct mrc_pkt p, d;
	u8 buf[60 + 1024];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_WRITE;
	p.hdr.flags = MRC_F_ACK_REQ | MRC_F_RETRANSMIT;
	p.hdr.dqpn = 0xabcdef;
	p.hdr.sqpn = 0x123456;
	p.hdr.psn = 0xfedcba;
	p.hdr.ev = 0x01020304;
	p.hdr.ts = 0xa1b2c3d4;
	p.hdr.payload_len = 1024;
	p.msgh.msn = 7;
	p.msgh.offset = 0x1000;
	p.msgh.length = 0x2000;
	p.raddr.va = 0xffee000012345678ull;
	p.raddr.rkey = 0x0badf00d;

	memset(buf, 0x55, sizeof(buf));
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 60);
	check_bytes(buf, want, sizeof(want));
	CHECK_EQ(buf[60], 0x55);

	memcpy(buf, want, sizeof(want));
	CHECK_EQ(decode_exact(buf, sizeof(buf), &d), 0);
	check_same(&d, &p);
	CHECK_EQ(d.payload_off, 60);
	CHECK_EQ(d.payload_present, 1024);
	CHECK(!d.trimmed);
}

static void golden_ack_with_sack(void)
{
	static const u8 want[72] = {
		0x10, 0x10, 0x00, 0x00,		/* v1, ACK */
		0x00, 0x00, 0x00, 0x01,		/* dqpn */
		0x00, 0x00, 0x00, 0x02,		/* sqpn */
		0x00, 0x00, 0x01, 0x00,		/* psn */
		0x00, 0x00, 0xbe, 0xef,		/* ev */
		0x11, 0x22, 0x33, 0x44,		/* ts */
		0x00, 0x00, 0x00, 0x00,		/* payload 0, rsvd */
		0x00, 0x00, 0x00, 0x00,		/* rsvd */
		/* ACK header */
		0x00, 0xff, 0xff, 0xfe,		/* cumulative PSN */
		0x00, 0x00, 0x00, 0x42,		/* EV echo */
		0x55, 0x66, 0x77, 0x88,		/* timestamp echo */
		0x00, 0x00, 0x00, 0x03,		/* MSN */
		0x00, 0x00, 0x01, 0x02,		/* ok, rnr 0, ECN_CE, 2 words */
		0x00, 0x00, 0x00, 0x00,		/* nak_psn */
		/* SACK: bits 0, 1, 9 | bits 64, 127 */
		0xc0, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	};
	struct mrc_pkt p, d;
	u8 buf[128];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_ACK;
	p.hdr.dqpn = 1;
	p.hdr.sqpn = 2;
	p.hdr.psn = 0x100;
	p.hdr.ev = 0xbeef;
	p.hdr.ts = 0x11223344;
	p.ack.cum_psn = 0xfffffe;
	p.ack.ev_echo = 0x42;
	p.ack.ts_echo = 0x55667788;
	p.ack.msn = 3;
	p.ack.flags = MRC_ACK_F_ECN_CE;
	CHECK(mrc_sack_set(&p.ack, 0));
	CHECK(mrc_sack_set(&p.ack, 1));
	CHECK(mrc_sack_set(&p.ack, 9));
	CHECK(mrc_sack_set(&p.ack, 127));
	CHECK(mrc_sack_set(&p.ack, 64));
	CHECK_EQ(p.ack.sack_words, 2);

	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 72);
	check_bytes(buf, want, sizeof(want));

	CHECK_EQ(decode_exact(want, sizeof(want), &d), 0);
	check_same(&d, &p);
	CHECK_EQ(d.payload_off, 72);
	CHECK_EQ(d.payload_present, 0);
	CHECK(d.ack.sack[0] == 0xc040000000000000ull);
	CHECK(d.ack.sack[1] == 0x8000000000000001ull);
	/* Bit 0 is cum + 1 = 0xffffff, bit 1 wraps to PSN 0. */
	CHECK_EQ(mrc_sack_psn(&d.ack, 0), 0xffffff);
	CHECK_EQ(mrc_sack_psn(&d.ack, 1), 0);
	CHECK_EQ(mrc_sack_psn(&d.ack, 9), 8);
	for (u32 i = 0; i < 300; i++)
		CHECK_EQ(mrc_sack_test(&d.ack, i),
			 i == 0 || i == 1 || i == 9 || i == 64 || i == 127);
}

static void golden_nak_rnr(void)
{
	static const u8 want[56] = {
		0x10, 0x11, 0x00, 0x00,		/* v1, NAK */
		0x00, 0x00, 0x00, 0x0a,
		0x00, 0x00, 0x00, 0x0b,
		0x00, 0x00, 0x00, 0x0c,
		0x00, 0x00, 0x00, 0x0d,
		0x00, 0x00, 0x00, 0x0e,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x20,		/* cumulative PSN */
		0x00, 0x00, 0x00, 0x0d,		/* EV echo */
		0x00, 0x00, 0x00, 0x0e,		/* timestamp echo */
		0x00, 0x00, 0x00, 0x05,		/* MSN */
		0x02, 0x1f, 0x00, 0x00,		/* RNR, timer 31, 0 words */
		0x00, 0x00, 0x00, 0x21,		/* nak_psn */
	};
	struct mrc_pkt p, d;
	u8 buf[56];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_NAK;
	p.hdr.dqpn = 0xa;
	p.hdr.sqpn = 0xb;
	p.hdr.psn = 0xc;
	p.hdr.ev = 0xd;
	p.hdr.ts = 0xe;
	p.ack.cum_psn = 0x20;
	p.ack.ev_echo = 0xd;
	p.ack.ts_echo = 0xe;
	p.ack.msn = 5;
	p.ack.syndrome = MRC_NAK_RNR;
	p.ack.rnr_timer = 31;
	p.ack.nak_psn = 0x21;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 56);
	check_bytes(buf, want, sizeof(want));
	CHECK_EQ(decode_exact(want, sizeof(want), &d), 0);
	check_same(&d, &p);
}

static void golden_atomic_and_probe(void)
{
	static const u8 atomic[76] = {
		0x10, 0x07, 0x01, 0x00,		/* v1, CMP_SWAP, ACK_REQ */
		0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x03,
		0x00, 0x00, 0x00, 0x04,
		0x00, 0x00, 0x00, 0x05,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x09,		/* msn */
		0x00, 0x00, 0x00, 0x00,		/* offset */
		0x00, 0x00, 0x00, 0x08,		/* length 8 */
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x08, /* va */
		0x12, 0x34, 0x56, 0x78,		/* rkey */
		0x00, 0x00, 0x00, 0x00,
		0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, /* swap */
		0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, /* compare */
	};
	static const u8 probe[48] = {
		0x10, 0x21, 0x00, 0x00,		/* v1, PROBE_REPLY */
		0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x04,
		0x00, 0x00, 0x00, 0x05,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0xaa, 0xbb, 0xcc, 0xdd,		/* probe id */
		0x01, 0x02, 0x03, 0x04,		/* timestamp */
		0x00, 0x00, 0x07, 0x77,		/* EV probed */
		0x00, 0x00, 0x00, 0x00,
	};
	struct mrc_pkt p, d;
	u8 buf[80];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_ATOMIC_CMP_SWAP;
	p.hdr.flags = MRC_F_ACK_REQ;
	p.hdr.dqpn = 1;
	p.hdr.sqpn = 2;
	p.hdr.psn = 3;
	p.hdr.ev = 4;
	p.hdr.ts = 5;
	p.msgh.msn = 9;
	p.msgh.length = 8;
	p.raddr.va = 0x8000000000001008ull;
	p.raddr.rkey = 0x12345678;
	p.atomic.swap_or_add = 0x1112131415161718ull;
	p.atomic.compare = 0x2122232425262728ull;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 76);
	check_bytes(buf, atomic, sizeof(atomic));
	CHECK_EQ(decode_exact(atomic, sizeof(atomic), &d), 0);
	check_same(&d, &p);

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_PROBE_REPLY;
	p.hdr.dqpn = 1;
	p.hdr.sqpn = 2;
	p.hdr.ev = 4;
	p.hdr.ts = 5;
	p.probe.id = 0xaabbccdd;
	p.probe.ts = 0x01020304;
	p.probe.ev = 0x777;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 48);
	check_bytes(buf, probe, sizeof(probe));
	CHECK_EQ(decode_exact(probe, sizeof(probe), &d), 0);
	check_same(&d, &p);
}

/* The PLANE_STATE table of wire-format.rst, and its ACK. */
static void golden_plane_state(void)
{
	static const u8 want[40] = {
		0x10, 0x22, 0x00, 0x00,		/* v1, PLANE_STATE */
		0x00, 0x00, 0x00, 0x11,		/* dqpn */
		0x00, 0x00, 0x00, 0x12,		/* sqpn */
		0x00, 0x00, 0x00, 0x00,		/* psn: 0 */
		0x00, 0x00, 0x00, 0x05,		/* ev */
		0x0a, 0x0b, 0x0c, 0x0d,		/* ts */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x80, 0x00, 0x00, 0x03,		/* sequence */
		0x04, 0x05, 0x00, 0x00,		/* 4 planes, 0 and 2 down */
	};
	struct mrc_pkt p, d;
	u8 buf[48];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_PLANE_STATE;
	p.hdr.dqpn = 0x11;
	p.hdr.sqpn = 0x12;
	p.hdr.ev = 5;
	p.hdr.ts = 0x0a0b0c0d;
	p.plane_state.seq = 0x80000003;
	p.plane_state.n_planes = 4;
	p.plane_state.down_mask = 0x05;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 40);
	check_bytes(buf, want, sizeof(want));
	CHECK_EQ(decode_exact(want, sizeof(want), &d), 0);
	check_same(&d, &p);
	CHECK_EQ(d.ext, MRC_EXT_PLANES);

	memcpy(buf, want, sizeof(want));
	buf[1] = MRC_OP_PLANE_STATE_ACK;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d), 0);
	CHECK_EQ(d.hdr.opcode, MRC_OP_PLANE_STATE_ACK);
	CHECK_EQ(d.plane_state.seq, 0x80000003);
	CHECK_EQ(d.plane_state.n_planes, 4);
	CHECK_EQ(d.plane_state.down_mask, 0x05);
}

static void golden_ep_probe(void)
{
	static const u8 want[48] = {
		0x10, 0x25, 0x00, 0x00,		/* v1, EP_PROBE_REPLY */
		0x00, 0x00, 0x00, 0x00,		/* dqpn: the device */
		0x00, 0x00, 0x00, 0x00,		/* sqpn */
		0x00, 0x00, 0x00, 0x00,		/* psn */
		0x00, 0x00, 0x00, 0x00,		/* ev */
		0x0a, 0x0b, 0x0c, 0x0d,		/* ts */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x07, 0x00, 0x2a,		/* cookie */
		0x81, 0x82, 0x83, 0x84,		/* the prober's ts, echoed */
		0x05, 0x00, 0x00, 0x00,		/* plane 5 */
		0x00, 0x01, 0x02, 0x03,		/* service time, ns */
	};
	struct mrc_pkt p, d;
	u8 buf[64];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_EP_PROBE_REPLY;
	p.hdr.ts = 0x0a0b0c0d;
	p.ep_probe.cookie = 0x0007002a;
	p.ep_probe.ts = 0x81828384;
	p.ep_probe.plane = 5;
	p.ep_probe.svc_ns = 0x00010203;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 48);
	check_bytes(buf, want, sizeof(want));
	CHECK_EQ(decode_exact(want, sizeof(want), &d), 0);
	check_same(&d, &p);
	CHECK_EQ(d.ext, MRC_EXT_EP_PROBE);

	/* A probe carries no service time; a reply may. */
	memcpy(buf, want, sizeof(want));
	buf[1] = MRC_OP_EP_PROBE;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d),
		 drop(MRC_DROP_RESERVED_SET));
	memset(buf + 44, 0, 4);
	CHECK_EQ(decode_exact(buf, sizeof(want), &d), 0);
	CHECK_EQ(d.ep_probe.cookie, 0x0007002a);

	/* Planes 0..7 only. */
	for (u32 plane = 0; plane < 256; plane++) {
		buf[40] = (u8)plane;
		CHECK_EQ(decode_exact(buf, sizeof(want), &d),
			 plane < MRC_WIRE_MAX_PLANES ? 0 :
			 drop(MRC_DROP_BAD_PLANES));
	}
	buf[40] = 0;
	/* Nothing that names a QP, a PSN or an EV. */
	for (size_t b = 4; b < 20; b++) {
		buf[b] = 1;
		CHECK_EQ(decode_exact(buf, sizeof(want), &d),
			 drop(MRC_DROP_RESERVED_SET));
		buf[b] = 0;
	}
	p.hdr.opcode = MRC_OP_EP_PROBE;
	p.hdr.dqpn = 1;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), -EINVAL);
}

static void golden_ep_port_status(void)
{
	static const u8 want[48] = {
		0x10, 0x26, 0x00, 0x00,		/* v1, EP_PORT_STATUS */
		0x00, 0x00, 0x00, 0x00,		/* dqpn: the device */
		0x00, 0x00, 0x00, 0x00,		/* sqpn */
		0x00, 0x00, 0x00, 0x00,		/* psn */
		0x00, 0x00, 0x00, 0x00,		/* ev */
		0x0a, 0x0b, 0x0c, 0x0d,		/* ts */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x07, 0x00, 0x2b,		/* cookie */
		0x81, 0x82, 0x83, 0x85,		/* the sender's ts */
		0x01, 0x02, 0x01, 0x00,		/* plane 1; 2 ports, 0 up */
		0x00, 0x00, 0x00, 0x00,		/* no service time */
	};
	struct mrc_pkt p, d;
	u8 buf[64];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_EP_PORT_STATUS;
	p.hdr.ts = 0x0a0b0c0d;
	p.ep_probe.cookie = 0x0007002b;
	p.ep_probe.ts = 0x81828385;
	p.ep_probe.plane = 1;
	p.ep_probe.n_planes = 2;
	p.ep_probe.up_mask = 0x01;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 48);
	check_bytes(buf, want, sizeof(want));
	CHECK_EQ(decode_exact(want, sizeof(want), &d), 0);
	check_same(&d, &p);
	CHECK_EQ(d.ext, MRC_EXT_EP_PROBE);

	/* The request has no service time; its reply may. */
	memcpy(buf, want, sizeof(want));
	buf[47] = 1;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d),
		 drop(MRC_DROP_RESERVED_SET));
	buf[1] = MRC_OP_EP_PORT_STATUS_REPLY;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d), 0);
	CHECK_EQ(d.ep_probe.svc_ns, 1);
	CHECK_EQ(d.ep_probe.up_mask, 0x01);
	/* The probes' port fields stay reserved. */
	buf[1] = MRC_OP_EP_PROBE_REPLY;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d),
		 drop(MRC_DROP_RESERVED_SET));
	buf[41] = 0;
	buf[42] = 0;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d), 0);
	/* Byte 43 is reserved in all four. */
	buf[1] = MRC_OP_EP_PORT_STATUS_REPLY;
	buf[41] = 2;
	buf[42] = 1;
	buf[43] = 0x80;
	CHECK_EQ(decode_exact(buf, sizeof(want), &d),
		 drop(MRC_DROP_RESERVED_SET));
}

/*
 * Every port count and mask of a port status and its reply: 1..8 ports,
 * no bit beyond them, one up at least; a probe has neither.
 */
static void ep_port_status_rules(void)
{
	static const u8 ops[] = { MRC_OP_EP_PORT_STATUS,
				  MRC_OP_EP_PORT_STATUS_REPLY,
				  MRC_OP_EP_PROBE, MRC_OP_EP_PROBE_REPLY };
	struct mrc_pkt d;
	u8 buf[64];
	int good = 0;

	for (size_t i = 0; i < 4; i++) {
		struct mrc_pkt p = sample(ops[i], 0);
		size_t len = build(buf, sizeof(buf), &p, 0);
		bool status = i < 2;

		for (u32 n = 0; n < 256; n++) {
			for (u32 m = 0; m < 256; m++) {
				bool ok = status ? n >= 1 && n <= 8 &&
					  m && !(m >> n) : !n && !m;
				int want = ok ? 0 : status ?
					drop(MRC_DROP_BAD_PLANES) :
					drop(MRC_DROP_RESERVED_SET);

				buf[32 + 9] = (u8)n;
				buf[32 + 10] = (u8)m;
				CHECK_EQ(decode_exact(buf, len, &d), want);
				if (ok) {
					CHECK_EQ(d.ep_probe.n_planes, n);
					CHECK_EQ(d.ep_probe.up_mask, m);
					good++;
				}
				p.ep_probe.n_planes = (u8)n;
				p.ep_probe.up_mask = (u8)m;
				CHECK_EQ(mrc_pkt_check(&p), ok ? MRC_DROP_NONE :
					 status ? MRC_DROP_BAD_PLANES :
					 MRC_DROP_RESERVED_SET);
				if (ktap_case_failed) {
					printf("# op 0x%x n_planes %u mask 0x%x\n",
					       ops[i], n, m);
					return;
				}
			}
		}
	}
	/* 2 opcodes x (sum over n of 2^n - 1) + the probes' 2 x 1. */
	CHECK_EQ(good, 2 * (510 - 8) + 2);
}

/* Every plane count and mask: only a real subset of the planes may be down. */
static void plane_state_rules(void)
{
	static const u8 ops[] = { MRC_OP_PLANE_STATE, MRC_OP_PLANE_STATE_ACK };
	u8 buf[64];
	struct mrc_pkt d;
	int good = 0;

	for (size_t i = 0; i < 2; i++) {
		struct mrc_pkt p = sample(ops[i], 0);
		size_t len = build(buf, sizeof(buf), &p, 0);

		for (u32 n = 0; n < 256; n++) {
			for (u32 m = 0; m < 256; m++) {
				bool ok = n >= 1 && n <= 8 &&
					  !(m >> n) && m != (1u << n) - 1;
				int ret;

				buf[32 + 4] = (u8)n;
				buf[32 + 5] = (u8)m;
				ret = decode_exact(buf, len, &d);
				CHECK_EQ(ret, ok ? 0 : drop(MRC_DROP_BAD_PLANES));
				if (ok) {
					CHECK_EQ(d.plane_state.n_planes, n);
					CHECK_EQ(d.plane_state.down_mask, m);
					good++;
				}
				p.plane_state.n_planes = (u8)n;
				p.plane_state.down_mask = (u8)m;
				CHECK_EQ(mrc_pkt_check(&p),
					 ok ? MRC_DROP_NONE : MRC_DROP_BAD_PLANES);
				if (ktap_case_failed) {
					printf("# %s n_planes %u mask 0x%x\n",
					       mrc_opcode_name(ops[i]), n, m);
					return;
				}
			}
		}
		/* A PSN in a message outside any stream is refused. */
		p = sample(ops[i], 0);
		p.hdr.psn = 1;
		CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_RESERVED_SET);
		/* No payload, no base flag. */
		p = sample(ops[i], 0);
		p.hdr.payload_len = 4;
		CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_LENGTH);
		p = sample(ops[i], 0);
		p.hdr.flags = MRC_F_ACK_REQ;
		CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_FLAGS);
	}
	/* Per opcode: (2^1-1) + (2^2-1) + ... + (2^8-1) valid pairs. */
	CHECK_EQ(good, 2 * (510 - 8));
}

static void truncation_is_too_short(void)
{
	u8 buf[MRC_MAX_HDR_LEN + 16];
	struct mrc_pkt d;

	CHECK_EQ(mrc_decode(NULL, 0, &d), drop(MRC_DROP_TOO_SHORT));
	for (size_t i = 0; i < N_OPCODES; i++) {
		u8 op = all_opcodes[i];
		struct mrc_pkt p = sample(op, 16);
		size_t hlen = mrc_pkt_hdr_len(&p);

		build(buf, sizeof(buf), &p, 0);
		for (size_t len = 0; len < hlen; len++)
			CHECK_EQ(decode_exact(buf, len, &d),
				 drop(MRC_DROP_TOO_SHORT));
		for (u32 w = 0; w < 4 && (mrc_opcode_ext(op) & MRC_EXT_ACK);
		     w++) {
			p.ack.sack_words = (u8)w;
			hlen = build(buf, sizeof(buf), &p, 0);
			for (size_t len = 0; len < hlen; len++)
				CHECK_EQ(decode_exact(buf, len, &d),
					 drop(MRC_DROP_TOO_SHORT));
			CHECK_EQ(decode_exact(buf, hlen, &d), 0);
		}
	}
}

/*
 * Reserved bits of each opcode's headers, by byte, from the tables of
 * wire-format.rst: base header, then the extension header.
 */
static void reserved_mask(u8 op, u8 *mask, size_t hlen)
{
	u8 *e = mask + 32;

	memset(mask, 0, hlen);
	mask[0] = 0x0f;			/* header flags */
	mask[2] = 0xf0;			/* flags 7..4 */
	mask[3] = 0xff;
	mask[4] = 0xff;			/* dqpn 31..24 */
	mask[8] = 0xff;			/* sqpn 31..24 */
	mask[12] = 0xff;		/* psn 31..24 */
	memset(mask + 26, 0xff, 6);
	switch (op) {
	case MRC_OP_WRITE:
	case MRC_OP_READ_REQ:
	case MRC_OP_ATOMIC_CMP_SWAP:
	case MRC_OP_ATOMIC_FETCH_ADD:
		memset(e + 24, 0xff, 4);
		break;
	case MRC_OP_WRITE_IMM:
		memset(e + 24, 0xff, 4);
		memset(e + 32, 0xff, 4);
		break;
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
		memset(e + 16, 0xff, 4);	/* IMM or IETH reserved */
		break;
	case MRC_OP_ACK:
		e[0] = 0xff;		/* cumulative PSN 31..24 */
		e[17] = 0xff;		/* rnr_timer: NAK RNR only */
		e[18] = 0xfe;		/* ACK flags 7..1 */
		memset(e + 20, 0xff, 4);	/* nak_psn: NAK only */
		break;
	case MRC_OP_NAK:		/* a non-RNR NAK */
		e[0] = 0xff;
		e[17] = 0xff;
		e[18] = 0xfe;
		e[20] = 0xff;		/* nak_psn 31..24 */
		break;
	case MRC_OP_PROBE:
	case MRC_OP_PROBE_REPLY:
		memset(e + 12, 0xff, 4);
		break;
	case MRC_OP_PLANE_STATE:
	case MRC_OP_PLANE_STATE_ACK:
		memset(mask + 12, 0xff, 4);	/* psn: 0 */
		memset(e + 6, 0xff, 2);
		break;
	case MRC_OP_UD_SEND:
		memset(e + 4, 0xff, 4);		/* DETH reserved */
		break;
	case MRC_OP_EP_PROBE:
	case MRC_OP_EP_PROBE_REPLY:
		/* For a device: no QPNs, PSN or EV. */
		memset(mask + 4, 0xff, 16);
		memset(e + 9, 0xff, 3);
		if (op == MRC_OP_EP_PROBE)
			memset(e + 12, 0xff, 4);	/* service time */
		break;
	case MRC_OP_EP_PORT_STATUS:
	case MRC_OP_EP_PORT_STATUS_REPLY:
		memset(mask + 4, 0xff, 16);
		e[11] = 0xff;
		if (op == MRC_OP_EP_PORT_STATUS)
			memset(e + 12, 0xff, 4);	/* service time */
		break;
	case MRC_OP_UD_SEND_IMM:
		memset(e + 4, 0xff, 4);		/* DETH reserved */
		memset(e + 12, 0xff, 4);	/* IMM reserved */
		break;
	}
}

static void reserved_bits_are_rejected(void)
{
	u8 buf[MRC_MAX_HDR_LEN + 64], mask[MRC_MAX_HDR_LEN];
	struct mrc_pkt d;
	int flipped = 0;

	for (size_t i = 0; i < N_OPCODES; i++) {
		u8 op = all_opcodes[i];
		struct mrc_pkt p = sample(op, 64);
		size_t len, hlen;

		if (op == MRC_OP_NAK) {
			p.ack.syndrome = MRC_NAK_TRIMMED;
			p.ack.rnr_timer = 0;
		}
		len = build(buf, sizeof(buf), &p, p.hdr.payload_len);
		hlen = mrc_pkt_hdr_len(&p);
		reserved_mask(op, mask, hlen);
		CHECK_EQ(decode_exact(buf, len, &d), 0);
		for (size_t b = 0; b < hlen; b++) {
			for (int bit = 0; bit < 8; bit++) {
				int ret;

				/* The opcode changes the whole layout. */
				if (b == 1)
					continue;
				buf[b] ^= (u8)(1u << bit);
				ret = decode_exact(buf, len, &d);
				buf[b] ^= (u8)(1u << bit);
				if (mask[b] & (1u << bit)) {
					CHECK_EQ(ret,
						 drop(MRC_DROP_RESERVED_SET));
					flipped++;
				} else {
					CHECK(ret !=
					      drop(MRC_DROP_RESERVED_SET));
				}
				if (ktap_case_failed) {
					printf("# %s byte %zu bit %d\n",
					       mrc_opcode_name(op), b, bit);
					return;
				}
			}
		}
	}
	CHECK(flipped > 13 * 60);

	/* Encode refuses out-of-range host values of reserved bits. */
	struct mrc_pkt p = sample(MRC_OP_SEND, 8);

	p.hdr.dqpn = 0x1000000;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_RESERVED_SET);
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), -EINVAL);
	p = sample(MRC_OP_SEND, 8);
	p.hdr.psn = 0x80000000;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), -EINVAL);
	p = sample(MRC_OP_SEND, 8);
	p.hdr.flags |= 0x80;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_RESERVED_SET);
}

static void versions_other_than_1_are_rejected(void)
{
	u8 buf[128];
	struct mrc_pkt d, p = sample(MRC_OP_READ_RESP, 32);
	size_t len = build(buf, sizeof(buf), &p, 32);

	CHECK_EQ(buf[0], 0x10);
	for (u32 v = 0; v < 16; v++) {
		buf[0] = (u8)(v << 4);
		CHECK_EQ(decode_exact(buf, len, &d),
			 v == 1 ? 0 : drop(MRC_DROP_BAD_VERSION));
	}
}

static void unknown_opcodes_are_rejected(void)
{
	u8 buf[128];
	struct mrc_pkt d, p = sample(MRC_OP_SEND, 8);
	size_t len = build(buf, sizeof(buf), &p, 8);
	int rejected = 0;

	for (u32 op = 0; op < 256; op++) {
		if (memchr(all_opcodes, (int)op, N_OPCODES))
			continue;
		buf[1] = (u8)op;
		CHECK_EQ(decode_exact(buf, len, &d),
			 drop(MRC_DROP_BAD_OPCODE));
		p.hdr.opcode = (u8)op;
		CHECK_EQ(mrc_encode(buf + 64, 64, &p), -EINVAL);
		CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_OPCODE);
		rejected++;
	}
	CHECK_EQ(rejected, 256 - (int)N_OPCODES);
}

/* The base flags each opcode may carry, from wire-format.rst. */
static u8 allowed_flags(u8 op)
{
	switch (op) {
	case MRC_OP_WRITE:
	case MRC_OP_READ_RESP:
		return 0x0d;	/* ACK_REQ, RETRANSMIT, TRIMMED */
	case MRC_OP_WRITE_IMM:
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
		return 0x0f;	/* and SOLICITED */
	case MRC_OP_READ_REQ:
	case MRC_OP_ATOMIC_CMP_SWAP:
	case MRC_OP_ATOMIC_FETCH_ADD:
	case MRC_OP_ATOMIC_RESP:
		return 0x05;	/* ACK_REQ, RETRANSMIT */
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		return 0x0a;	/* SOLICITED, TRIMMED */
	default:
		return 0;
	}
}

static void flags_are_checked_per_opcode(void)
{
	u8 buf[MRC_MAX_HDR_LEN + 64], enc[MRC_MAX_HDR_LEN];
	struct mrc_pkt d;

	for (size_t i = 0; i < N_OPCODES; i++) {
		u8 op = all_opcodes[i];
		struct mrc_pkt p = sample(op, 64);
		size_t len = build(buf, sizeof(buf), &p, p.hdr.payload_len);

		CHECK_EQ(mrc_opcode_flags(op), allowed_flags(op));
		for (u32 f = 0; f < 16; f++) {
			bool ok = !(f & ~allowed_flags(op));
			int ret;

			buf[2] = (u8)f;
			ret = decode_exact(buf, len, &d);
			CHECK_EQ(ret, ok ? 0 : drop(MRC_DROP_BAD_FLAGS));
			if (ok)
				CHECK_EQ(d.hdr.flags, f);
			p.hdr.flags = (u8)f;
			CHECK_EQ(mrc_encode(enc, sizeof(enc), &p),
				 ok ? (long long)mrc_pkt_hdr_len(&p) : -EINVAL);
		}
	}
}

/* Decodes the headers of @p followed by @present payload bytes. */
static int try(const struct mrc_pkt *p, size_t present, struct mrc_pkt *d)
{
	static u8 buf[MRC_MAX_HDR_LEN + 70000];
	struct mrc_pkt q = *p;
	size_t len;
	int ret;

	/* Write the bytes even when the encoder would refuse them. */
	if (mrc_pkt_check(&q) != MRC_DROP_NONE) {
		struct mrc_pkt ok = sample(q.hdr.opcode, 1);
		int hlen;

		if (q.ack.sack_words <= MRC_SACK_MAX_WORDS)
			ok.ack.sack_words = q.ack.sack_words;
		hlen = mrc_encode(buf, sizeof(buf), &ok);
		if (hlen < 0)
			abort();
		/* Patch the fields under test in their documented places. */
		mrc_put_be16(buf + 24, q.hdr.payload_len);
		if (mrc_opcode_ext(q.hdr.opcode) & MRC_EXT_MSGH) {
			mrc_put_be32(buf + 32, q.msgh.msn);
			mrc_put_be32(buf + 36, q.msgh.offset);
			mrc_put_be32(buf + 40, q.msgh.length);
		}
		if (mrc_opcode_ext(q.hdr.opcode) & MRC_EXT_ACK) {
			buf[32 + 16] = q.ack.syndrome;
			buf[32 + 17] = q.ack.rnr_timer;
			buf[32 + 19] = q.ack.sack_words;
			mrc_put_be32(buf + 32 + 20, q.ack.nak_psn);
		}
		len = (size_t)hlen;
		memset(buf + len, 0xee, present);
		len += present;
	} else {
		len = build(buf, sizeof(buf), &q, present);
	}
	ret = decode_exact(buf, len, d);
	/* The check and the decoder agree on header rules. */
	if (mrc_pkt_check(&q) != MRC_DROP_NONE)
		CHECK_EQ(ret, drop(mrc_pkt_check(&q)));
	return ret;
}

static void payload_length_rules(void)
{
	struct mrc_pkt p, d;

	/* More payload than declared. */
	p = sample(MRC_OP_SEND, 100);
	CHECK_EQ(try(&p, 100, &d), 0);
	CHECK_EQ(try(&p, 101, &d), drop(MRC_DROP_BAD_LENGTH));
	/* Opcodes without payload declare and carry none. */
	for (size_t i = 0; i < N_OPCODES; i++) {
		u8 op = all_opcodes[i];

		if (mrc_opcode_has_payload(op))
			continue;
		p = sample(op, 0);
		CHECK_EQ(try(&p, 0, &d), 0);
		CHECK_EQ(try(&p, 1, &d), drop(MRC_DROP_BAD_LENGTH));
		p.hdr.payload_len = 1;
		CHECK_EQ(try(&p, 1, &d), drop(MRC_DROP_BAD_LENGTH));
		CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_LENGTH));
	}
	/* An empty packet only for an empty message. */
	p = sample(MRC_OP_WRITE, 0);
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_LENGTH));
	p.msgh.length = 0;
	p.msgh.offset = 0;
	CHECK_EQ(try(&p, 0, &d), 0);
	CHECK(!d.trimmed);
	p.msgh.offset = 1;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_OFFSET));
	/* Message length limit. */
	p = sample(MRC_OP_SEND_IMM, 10);
	p.msgh.offset = 0;
	p.msgh.length = MRC_MAX_MSG_LEN;
	CHECK_EQ(try(&p, 10, &d), 0);
	p.msgh.length = MRC_MAX_MSG_LEN + 1;
	CHECK_EQ(try(&p, 10, &d), drop(MRC_DROP_BAD_LENGTH));
	p.msgh.length = 0xffffffff;
	CHECK_EQ(try(&p, 10, &d), drop(MRC_DROP_BAD_LENGTH));
}

static void message_bounds(void)
{
	struct mrc_pkt p, d;

	p = sample(MRC_OP_READ_RESP, 1000);
	p.msgh.length = 5000;
	p.msgh.offset = 4000;
	CHECK_EQ(try(&p, 1000, &d), 0);
	p.msgh.offset = 4001;
	CHECK_EQ(try(&p, 1000, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 0xffffffff;	/* offset + payload wraps u32 */
	CHECK_EQ(try(&p, 1000, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 0xfffffc19;	/* wraps to 1 */
	CHECK_EQ(try(&p, 1000, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 0;
	p.msgh.length = 999;		/* payload longer than message */
	CHECK_EQ(try(&p, 1000, &d), drop(MRC_DROP_BAD_OFFSET));
	/* Bounds use the declared length, also when trimmed. */
	p.msgh.length = 5000;
	p.msgh.offset = 4001;
	CHECK_EQ(try(&p, 10, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 4000;
	CHECK_EQ(try(&p, 10, &d), 0);
	CHECK(d.trimmed);
	/* Last byte of the largest message. */
	p.msgh.length = MRC_MAX_MSG_LEN;
	p.msgh.offset = MRC_MAX_MSG_LEN - 1000;
	CHECK_EQ(try(&p, 1000, &d), 0);

	/* READ_REQ: the range [offset, offset + length) within 2 GiB. */
	p = sample(MRC_OP_READ_REQ, 0);
	p.msgh.offset = 0;
	p.msgh.length = MRC_MAX_MSG_LEN;
	CHECK_EQ(try(&p, 0, &d), 0);
	p.msgh.offset = 1;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 0x7ffffff0;
	p.msgh.length = 0x10;
	CHECK_EQ(try(&p, 0, &d), 0);
	p.msgh.length = 0x11;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 0xfffffff0;	/* offset + length wraps u32 */
	p.msgh.length = 0x20;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_OFFSET));
	p.msgh.offset = 0;
	p.msgh.length = 0;		/* a zero-byte read */
	CHECK_EQ(try(&p, 0, &d), 0);

	/* Atomics: exactly 8 bytes at offset 0. */
	static const u8 atomics[] = {
		MRC_OP_ATOMIC_CMP_SWAP, MRC_OP_ATOMIC_FETCH_ADD,
		MRC_OP_ATOMIC_RESP,
	};
	for (size_t i = 0; i < 3; i++) {
		p = sample(atomics[i], 0);
		CHECK_EQ(try(&p, 0, &d), 0);
		p.msgh.length = 4;
		CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_LENGTH));
		p.msgh.length = 16;
		CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_LENGTH));
		p.msgh.length = 8;
		p.msgh.offset = 8;
		CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_OFFSET));
	}
}

static void ack_rules(void)
{
	u8 buf[56 + 8 * 255];
	struct mrc_pkt p, d;

	/* sack_words above 4: BAD_SACK however long the packet is. */
	p = sample(MRC_OP_ACK, 0);
	for (u32 w = 5; w < 256; w++) {
		size_t len = build(buf, sizeof(buf), &p, 0);

		buf[32 + 19] = (u8)w;
		CHECK_EQ(decode_exact(buf, 56, &d), drop(MRC_DROP_BAD_SACK));
		CHECK_EQ(decode_exact(buf, len, &d), drop(MRC_DROP_BAD_SACK));
		memset(buf + len, 0, 56 + 8 * w - len);
		CHECK_EQ(decode_exact(buf, 56 + 8 * w, &d),
			 drop(MRC_DROP_BAD_SACK));
		p.ack.sack_words = (u8)w;
		CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_SACK);
		CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), -EINVAL);
		p.ack.sack_words = 4;
	}
	/* A packet longer than its SACK words is payload: refused. */
	p.ack.sack_words = 2;
	CHECK_EQ(try(&p, 8, &d), drop(MRC_DROP_BAD_LENGTH));

	/* ACK: syndrome 0 only. */
	p = sample(MRC_OP_ACK, 0);
	for (u32 s = 1; s < 256; s++) {
		p.ack.syndrome = (u8)s;
		CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_BAD_SYNDROME));
	}
	p.ack.syndrome = 0;
	p.ack.nak_psn = 1;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_RESERVED_SET));
	p.ack.nak_psn = 0;
	p.ack.rnr_timer = 1;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_RESERVED_SET));

	/* NAK: syndromes 1..6. */
	p = sample(MRC_OP_NAK, 0);
	for (u32 s = 0; s < 256; s++) {
		bool ok = s >= 1 && s <= 6;

		p.ack.syndrome = (u8)s;
		p.ack.rnr_timer = s == MRC_NAK_RNR ? 7 : 0;
		CHECK_EQ(try(&p, 0, &d), ok ? 0 : drop(MRC_DROP_BAD_SYNDROME));
		if (ok)
			CHECK_EQ(d.ack.syndrome, s);
	}
	CHECK_EQ(MRC_NAK_TRIMMED, 1);
	CHECK_EQ(MRC_NAK_RNR, 2);
	CHECK_EQ(MRC_NAK_REMOTE_ACCESS_ERROR, 3);
	CHECK_EQ(MRC_NAK_INVALID_REQUEST, 4);
	CHECK_EQ(MRC_NAK_REMOTE_OP_ERROR, 5);
	CHECK_EQ(MRC_NAK_PSN_SEQ_ERROR, 6);
	/* RNR timer 0..31. */
	p.ack.syndrome = MRC_NAK_RNR;
	for (u32 t = 0; t < 256; t++) {
		p.ack.rnr_timer = (u8)t;
		CHECK_EQ(try(&p, 0, &d),
			 t <= 31 ? 0 : drop(MRC_DROP_BAD_SYNDROME));
	}
	/* A timer with another syndrome is a reserved field set. */
	p.ack.syndrome = MRC_NAK_PSN_SEQ_ERROR;
	p.ack.rnr_timer = 3;
	CHECK_EQ(try(&p, 0, &d), drop(MRC_DROP_RESERVED_SET));
	p.ack.rnr_timer = 0;
	p.ack.nak_psn = 0x1000000;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_RESERVED_SET);
	p.ack.nak_psn = 0xffffff;
	p.ack.cum_psn = 0x1000000;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_RESERVED_SET);
	p.ack.cum_psn = 0;
	p.ack.flags = 2;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_RESERVED_SET);
	p.ack.flags = MRC_ACK_F_ECN_CE;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_NONE);
}

static void trimmed_detection(void)
{
	struct mrc_pkt p, d;

	p = sample(MRC_OP_WRITE_IMM, 4096);
	CHECK_EQ(try(&p, 4096, &d), 0);
	CHECK(!d.trimmed);
	CHECK_EQ(d.payload_present, 4096);
	/* Cut without the flag: found by the declared length. */
	CHECK_EQ(try(&p, 100, &d), 0);
	CHECK(d.trimmed);
	CHECK_EQ(d.payload_present, 100);
	CHECK_EQ(d.hdr.payload_len, 4096);
	CHECK_EQ(d.payload_off, 68);
	CHECK_EQ(d.imm, 0x89abcdef);
	CHECK_EQ(d.hdr.flags & MRC_F_TRIMMED, 0);
	/* Cut to the headers. */
	CHECK_EQ(try(&p, 0, &d), 0);
	CHECK(d.trimmed);
	CHECK_EQ(d.payload_present, 0);
	/* Flag set: trimmed even if the bytes are all there. */
	p.hdr.flags |= MRC_F_TRIMMED;
	CHECK_EQ(try(&p, 0, &d), 0);
	CHECK(d.trimmed);
	CHECK_EQ(try(&p, 4096, &d), 0);
	CHECK(d.trimmed);
	/* One byte short. */
	p = sample(MRC_OP_SEND, 1500);
	CHECK_EQ(try(&p, 1499, &d), 0);
	CHECK(d.trimmed);
	/* Packets without payload cannot be trimmed, not even by flag. */
	p = sample(MRC_OP_READ_REQ, 0);
	p.hdr.flags = MRC_F_TRIMMED;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_FLAGS);
}

static void encode_refuses_small_buffers(void)
{
	u8 buf[MRC_MAX_HDR_LEN + 1];

	for (size_t i = 0; i < N_OPCODES; i++) {
		struct mrc_pkt p = sample(all_opcodes[i], 9);
		size_t hlen = mrc_pkt_hdr_len(&p);

		for (size_t n = 0; n < hlen; n++) {
			memset(buf, 0x5a, sizeof(buf));
			CHECK_EQ(mrc_encode(buf, n, &p), -ENOSPC);
			for (size_t k = 0; k < sizeof(buf); k++)
				CHECK_EQ(buf[k], 0x5a);
		}
		memset(buf, 0x5a, sizeof(buf));
		CHECK_EQ(mrc_encode(buf, hlen, &p), (long long)hlen);
		CHECK_EQ(buf[hlen], 0x5a);
	}
	struct mrc_pkt p = sample(MRC_OP_WRITE, 9);

	CHECK_EQ(mrc_encode(NULL, 0, &p), -ENOSPC);
	/* Invalid wins over small: the length of nonsense is unknown. */
	p.hdr.opcode = 0x42;
	CHECK_EQ(mrc_encode(NULL, 0, &p), -EINVAL);
}

static void sack_bit_helpers(void)
{
	struct mrc_ack a;

	memset(&a, 0, sizeof(a));
	CHECK(!mrc_sack_test(&a, 0));
	CHECK(mrc_sack_set(&a, 63));
	CHECK_EQ(a.sack_words, 1);
	CHECK(a.sack[0] == 1);
	CHECK(mrc_sack_set(&a, 0));
	CHECK(a.sack[0] == 0x8000000000000001ull);
	CHECK(mrc_sack_set(&a, MRC_SACK_MAX_BITS - 1));
	CHECK_EQ(a.sack_words, 4);
	CHECK(a.sack[1] == 0 && a.sack[2] == 0 && a.sack[3] == 1);
	CHECK(!mrc_sack_set(&a, MRC_SACK_MAX_BITS));
	CHECK(!mrc_sack_set(&a, 0xffffffff));
	CHECK(!mrc_sack_test(&a, MRC_SACK_MAX_BITS));
	CHECK(mrc_sack_test(&a, 255));
	CHECK(!mrc_sack_test(&a, 254));
	/* Bits beyond sack_words do not count. */
	a.sack_words = 1;
	CHECK(!mrc_sack_test(&a, 255));
	a.sack[1] = ~0ull;
	CHECK(!mrc_sack_test(&a, 64));
	/* Growing clears the newly covered words. */
	CHECK(mrc_sack_set(&a, 130));
	CHECK_EQ(a.sack_words, 3);
	CHECK(a.sack[1] == 0);
	CHECK(mrc_sack_test(&a, 130));
	CHECK(!mrc_sack_test(&a, 64));
	a.cum_psn = 0xfffff0;
	CHECK_EQ(mrc_sack_psn(&a, 255), (0xfffff0 + 256) & 0xffffff);
}

/* The example of wire-format.rst's "SACK bitmap" section. */
static void sack_example_of_the_documentation(void)
{
	static const u32 psns[] = { 0xffffff, 0x000000, 0x000008, 0x00003f,
				    0x000040 };
	static const u8 want[16] = {
		0xc0, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct mrc_pkt p = sample(MRC_OP_ACK, 0), d;
	u8 buf[MRC_MAX_HDR_LEN];

	p.ack.cum_psn = 0xfffffe;
	p.ack.sack_words = 0;
	memset(p.ack.sack, 0, sizeof(p.ack.sack));
	for (size_t i = 0; i < 5; i++) {
		u32 bit = mrc_psn_distance(mrc_psn_add(p.ack.cum_psn, 1),
					   psns[i]);

		CHECK(mrc_sack_set(&p.ack, bit));
		CHECK_EQ(mrc_sack_psn(&p.ack, bit), psns[i]);
	}
	CHECK_EQ(p.ack.sack_words, 2);
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 72);
	check_bytes(buf + 56, want, sizeof(want));
	CHECK_EQ(decode_exact(buf, 72, &d), 0);
	for (u32 i = 0; i < 128; i++)
		CHECK_EQ(mrc_sack_test(&d.ack, i),
			 i == 0 || i == 1 || i == 9 || i == 64 || i == 65);
}

static void drop_reason_names(void)
{
	for (int r = 0; r < MRC_DROP_REASON_COUNT; r++) {
		const char *n = mrc_drop_reason_name(r);

		CHECK(strcmp(n, "unknown") != 0);
		for (int s = 0; s < r; s++)
			CHECK(strcmp(n, mrc_drop_reason_name(s)) != 0);
	}
	CHECK(!strcmp(mrc_drop_reason_name(MRC_DROP_TOO_SHORT), "too_short"));
	CHECK(!strcmp(mrc_drop_reason_name(MRC_DROP_BAD_SACK), "bad_sack"));
	CHECK(!strcmp(mrc_drop_reason_name(MRC_DROP_REASON_COUNT),
		      "unknown"));
	CHECK(!strcmp(mrc_drop_reason_name((enum mrc_drop_reason)-1),
		      "unknown"));
}

/*
 * What must hold for any buffer: an accepted packet re-encodes to exactly
 * its header bytes, and its payload fields describe the buffer.
 */
static void check_accepted(const u8 *buf, size_t len, const struct mrc_pkt *d)
{
	u8 again[MRC_MAX_HDR_LEN];
	int hlen = mrc_encode(again, sizeof(again), d);

	CHECK_EQ(hlen, d->payload_off);
	CHECK_EQ(mrc_pkt_check(d), MRC_DROP_NONE);
	CHECK_EQ(d->payload_off + d->payload_present, len);
	CHECK(d->payload_present <= d->hdr.payload_len);
	CHECK_EQ(d->trimmed, d->payload_present < d->hdr.payload_len ||
		 (d->hdr.flags & MRC_F_TRIMMED));
	CHECK_EQ(d->ext, mrc_opcode_ext(d->hdr.opcode));
	if (hlen > 0 && memcmp(again, buf, (size_t)hlen)) {
		printf("# %s: re-encoding differs\n",
		       mrc_opcode_name(d->hdr.opcode));
		ktap_case_failed = 1;
	}
}

static void fuzz_random_buffers(void)
{
	u8 buf[160], mask[MRC_MAX_HDR_LEN];
	struct mrc_pkt d;
	int accepted = 0;
	int seen[MRC_DROP_REASON_COUNT] = { 0 };

	rng_state = 0x2545f4914f6cdd1dull;
	for (int iter = 0; iter < 200000 && !ktap_case_failed; iter++) {
		size_t len = rng_below(sizeof(buf) + 1);
		int ret;

		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (u8)rng();
		/* Mostly plausible: version, opcode, zero reserved bytes. */
		if (rng_below(4)) {
			u8 op = all_opcodes[rng_below(N_OPCODES)];

			buf[0] = 0x10;
			buf[1] = op;
			buf[2] &= 0x0f;
			buf[3] = 0;
			buf[4] = 0;
			buf[8] = 0;
			buf[12] = 0;
			memset(buf + 26, 0, 6);
			if (rng_below(2)) {
				buf[24] = 0;	/* short payloads */
				buf[25] &= 0x3f;
			}
			if (!mrc_opcode_has_payload(op))
				mrc_put_be16(buf + 24, 0);
			if (mrc_opcode_ext(op) & MRC_EXT_ACK) {
				buf[32 + 16] = (u8)rng_below(7);
				buf[32 + 19] = (u8)rng_below(6);
			}
			/* Often every reserved bit clear, flags allowed. */
			if (rng_below(2)) {
				reserved_mask(op, mask, sizeof(mask));
				for (size_t i = 0; i < sizeof(mask); i++)
					buf[i] &= (u8)~mask[i];
				buf[2] &= allowed_flags(op);
			}
			if (op == MRC_OP_NAK && buf[32 + 16] == MRC_NAK_RNR)
				buf[32 + 17] = (u8)rng_below(40);
		}
		ret = decode_exact(buf, len, &d);
		CHECK(ret <= 0 && ret > -MRC_DROP_REASON_COUNT);
		if (ret == 0) {
			accepted++;
			check_accepted(buf, len, &d);
		} else if (ret > -MRC_DROP_REASON_COUNT && ret < 0) {
			seen[-ret]++;
		}
	}
	printf("# random: %d of 200000 accepted\n", accepted);
	CHECK(accepted > 0);
	for (int r = 1; r < MRC_DROP_REASON_COUNT; r++) {
		if (!seen[r])
			printf("# never saw %s\n", mrc_drop_reason_name(r));
		CHECK(seen[r] > 0);
	}
}

static void fuzz_mutated_packets(void)
{
	u8 orig[MRC_MAX_HDR_LEN + 256], buf[MRC_MAX_HDR_LEN + 512];
	struct mrc_pkt d;
	int accepted = 0, rejected = 0;

	rng_state = 0x0123456789abcdefull;
	for (int iter = 0; iter < 200000 && !ktap_case_failed; iter++) {
		struct mrc_pkt p = sample(all_opcodes[rng_below(N_OPCODES)],
					  (u16)(1 + rng_below(200)));
		size_t olen, len;
		int ret;

		if (p.hdr.opcode == MRC_OP_ACK || p.hdr.opcode == MRC_OP_NAK)
			p.ack.sack_words = (u8)rng_below(5);
		if (mrc_opcode_ext(p.hdr.opcode) & MRC_EXT_MSGH &&
		    mrc_opcode_has_payload(p.hdr.opcode))
			p.msgh.offset = rng_below(p.msgh.length -
						  p.hdr.payload_len + 1);
		olen = build(orig, sizeof(orig), &p, p.hdr.payload_len);
		memcpy(buf, orig, olen);
		len = olen;
		for (u32 m = 1 + rng_below(3); m > 0; m--) {
			size_t at = rng_below((u32)len + 1);

			switch (rng_below(6)) {
			case 0:
			case 1:		/* flip a bit in the headers */
				at = rng_below(MRC_MAX_HDR_LEN);
				if (at < len)
					buf[at] ^= (u8)(1u << rng_below(8));
				break;
			case 2:		/* any value in a header byte */
				at = rng_below(MRC_MAX_HDR_LEN);
				if (at < len)
					buf[at] = (u8)rng();
				break;
			case 3:		/* trim */
				len = at;
				break;
			case 4:		/* append */
				for (u32 n = rng_below(64); n > 0; n--)
					if (len < sizeof(buf))
						buf[len++] = (u8)rng();
				break;
			case 5:		/* a 32-bit field to an edge value */
				at = rng_below(MRC_MAX_HDR_LEN / 4) * 4;
				if (at + 4 <= len)
					mrc_put_be32(buf + at,
						     rng_below(2) ? 0xffffffff :
						     0x80000000);
				break;
			}
		}
		ret = decode_exact(buf, len, &d);
		CHECK(ret <= 0 && ret > -MRC_DROP_REASON_COUNT);
		if (ret == 0) {
			accepted++;
			check_accepted(buf, len, &d);
		} else {
			rejected++;
		}
	}
	printf("# mutated: %d accepted, %d rejected\n", accepted, rejected);
	CHECK(accepted > 10000);
	CHECK(rejected > 10000);
}

/* A datagram with immediate, byte by byte from wire-format.rst. */
static void golden_ud_send_imm(void)
{
	static const u8 want[48] = {
		0x10, 0x31, 0x02, 0x00,		/* version, UD_SEND_IMM, SOL */
		0x00, 0x00, 0x00, 0x01,		/* dqpn 1 (GSI) */
		0x00, 0x12, 0x34, 0x56,		/* sqpn */
		0x00, 0x00, 0x00, 0x07,		/* psn */
		0x00, 0x00, 0xc0, 0x01,		/* ev */
		0x11, 0x22, 0x33, 0x44,		/* ts */
		0x01, 0x00, 0x00, 0x00,		/* payload 256, reserved */
		0x00, 0x00, 0x00, 0x00,
		0x80, 0x01, 0x00, 0x00,		/* DETH: Q_Key */
		0x00, 0x00, 0x00, 0x00,		/* DETH: reserved */
		0xca, 0xfe, 0xf0, 0x0d,		/* immediate */
		0x00, 0x00, 0x00, 0x00,
	};
	struct mrc_pkt p, d;
	u8 buf[48 + 256];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_UD_SEND_IMM;
	p.hdr.flags = MRC_F_SOLICITED;
	p.hdr.dqpn = 1;
	p.hdr.sqpn = 0x123456;
	p.hdr.psn = 7;
	p.hdr.ev = 0xc001;
	p.hdr.ts = 0x11223344;
	p.hdr.payload_len = 256;
	p.qkey = 0x80010000;
	p.imm = 0xcafef00d;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 48);
	check_bytes(buf, want, sizeof(want));
	memset(buf + 48, 0x5a, 256);
	CHECK_EQ(decode_exact(buf, sizeof(buf), &d), 0);
	CHECK_EQ(d.qkey, 0x80010000);
	CHECK_EQ(d.imm, 0xcafef00d);
	CHECK_EQ(d.hdr.dqpn, 1);
	CHECK_EQ(d.hdr.sqpn, 0x123456);
	CHECK_EQ(d.payload_off, 48);
	CHECK_EQ(d.payload_present, 256);
	CHECK(!d.trimmed);
	/* No message header: the UD packet has no MSN, offset or length. */
	CHECK_EQ(d.ext, MRC_EXT_DETH | MRC_EXT_IMM);
	CHECK_EQ(d.msgh.length, 0);

	/* Plain UD_SEND: DETH right after the base header, no immediate. */
	p.hdr.opcode = MRC_OP_UD_SEND;
	p.hdr.flags = 0;
	p.qkey = 0x01234567;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 40);
	CHECK_EQ(buf[1], 0x31 - 1);
	CHECK_EQ(mrc_get_be32(buf + 32), 0x01234567);
	CHECK_EQ(mrc_get_be32(buf + 36), 0);
}

/* SEND_INV carries the rkey to invalidate, byte by byte from wire-format.rst. */
static void golden_send_inv(void)
{
	static const u8 want[52] = {
		0x10, 0x0a, 0x03, 0x00,		/* v1, SEND_INV, ACK_REQ|SOL */
		0x00, 0x00, 0x00, 0x21,		/* dqpn */
		0x00, 0x00, 0x00, 0x22,		/* sqpn */
		0x00, 0x00, 0x01, 0x00,		/* psn */
		0x00, 0x00, 0x00, 0x09,		/* ev */
		0x01, 0x02, 0x03, 0x04,		/* ts */
		0x00, 0x40, 0x00, 0x00,		/* payload 64, reserved */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x05,		/* MSGH: msn */
		0x00, 0x00, 0x00, 0x00,		/* offset */
		0x00, 0x00, 0x00, 0x40,		/* length */
		0x00, 0x12, 0x34, 0x9c,		/* IETH: rkey to invalidate */
		0x00, 0x00, 0x00, 0x00,		/* IETH: reserved */
	};
	struct mrc_pkt p, d;
	u8 buf[52 + 64];

	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_SEND_INV;
	p.hdr.flags = MRC_F_ACK_REQ | MRC_F_SOLICITED;
	p.hdr.dqpn = 0x21;
	p.hdr.sqpn = 0x22;
	p.hdr.psn = 0x100;
	p.hdr.ev = 9;
	p.hdr.ts = 0x01020304;
	p.hdr.payload_len = 64;
	p.msgh.msn = 5;
	p.msgh.length = 64;
	p.inv_rkey = 0x0012349c;
	CHECK_EQ(mrc_encode(buf, sizeof(buf), &p), 52);
	check_bytes(buf, want, sizeof(want));
	memset(buf + 52, 0x3c, 64);
	CHECK_EQ(decode_exact(buf, sizeof(buf), &d), 0);
	CHECK_EQ(d.inv_rkey, 0x0012349c);
	CHECK_EQ(d.ext, MRC_EXT_MSGH | MRC_EXT_IETH);
	CHECK_EQ(d.payload_off, 52);
	CHECK_EQ(d.payload_present, 64);
	CHECK_EQ(d.msgh.msn, 5);
	/* The IETH's reserved word must be zero. */
	buf[51] = 1;
	CHECK_EQ(decode_exact(buf, sizeof(buf), &d),
		 drop(MRC_DROP_RESERVED_SET));
	/* Its header ends inside the IETH: too short. */
	CHECK_EQ(decode_exact(buf, 48, &d), drop(MRC_DROP_TOO_SHORT));
}

/* A datagram is one packet: its payload is at most MRC_UD_MAX_PAYLOAD. */
static void ud_payload_limit(void)
{
	struct mrc_pkt p, d;

	p = sample(MRC_OP_UD_SEND, 4096);
	CHECK_EQ(p.hdr.payload_len, MRC_UD_MAX_PAYLOAD);
	CHECK_EQ(try(&p, 4096, &d), 0);
	CHECK(!d.trimmed);
	p.hdr.payload_len = MRC_UD_MAX_PAYLOAD + 1;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_LENGTH);
	CHECK_EQ(try(&p, MRC_UD_MAX_PAYLOAD + 1, &d),
		 drop(MRC_DROP_BAD_LENGTH));
	/* An empty datagram is valid. */
	p = sample(MRC_OP_UD_SEND_IMM, 0);
	CHECK_EQ(try(&p, 0, &d), 0);
	CHECK(!d.trimmed);
	/* Cut by a switch: decoded, marked trimmed (the QP drops it). */
	p = sample(MRC_OP_UD_SEND_IMM, 1000);
	CHECK_EQ(try(&p, 10, &d), 0);
	CHECK(d.trimmed);
	/* Datagrams are never acknowledged nor retransmitted. */
	p = sample(MRC_OP_UD_SEND, 8);
	p.hdr.flags = MRC_F_ACK_REQ;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_FLAGS);
	p.hdr.flags = MRC_F_RETRANSMIT;
	CHECK_EQ(mrc_pkt_check(&p), MRC_DROP_BAD_FLAGS);
}

/*
 * The local transmit budget reads a leaving packet's PSN: every opcode of
 * the requester's sequence gives it, nothing else does, and a short or
 * foreign-version buffer gives nothing.
 */
static void peek_request_psn(void)
{
	static const u8 requester[] = {
		MRC_OP_WRITE, MRC_OP_WRITE_IMM, MRC_OP_SEND, MRC_OP_SEND_IMM,
		MRC_OP_READ_REQ, MRC_OP_ATOMIC_CMP_SWAP,
		MRC_OP_ATOMIC_FETCH_ADD, MRC_OP_SEND_INV,
	};
	u8 buf[512];
	u32 op, psn;
	size_t i, len;
	bool want;

	for (op = 0; op <= MRC_OP_MAX; op++) {
		struct mrc_pkt p;

		if (!mrc_opcode_valid((u8)op))
			continue;
		p = sample((u8)op, 64);
		len = build(buf, sizeof(buf), &p,
			    mrc_opcode_has_payload((u8)op) ? 64 : 0);
		want = false;
		for (i = 0; i < sizeof(requester); i++)
			want = want || requester[i] == op;
		psn = 0x123;
		CHECK_EQ(mrc_peek_request_psn(buf, len, &psn), want);
		CHECK_EQ(psn, want ? 0xfffffe : 0x123);
	}
	{
		struct mrc_pkt p = sample(MRC_OP_WRITE, 64);

		len = build(buf, sizeof(buf), &p, 64);
		CHECK(!mrc_peek_request_psn(buf, MRC_BASE_HDR_LEN - 1, &psn));
		CHECK(mrc_peek_request_psn(buf, MRC_BASE_HDR_LEN, &psn));
		/* Bits 31..24 of the field are reserved, not the PSN's. */
		buf[12] = 0xff;
		CHECK(mrc_peek_request_psn(buf, len, &psn));
		CHECK_EQ(psn, 0xfffffe);
		buf[0] = (u8)((MRC_WIRE_VERSION + 1) << MRC_VERSION_SHIFT);
		CHECK(!mrc_peek_request_psn(buf, len, &psn));
	}
}

static const struct ktap_case cases[] = {
	KTAP_CASE(header_lengths_match_the_tables),
	KTAP_CASE(opcode_table),
	KTAP_CASE(opcode_classes),
	KTAP_CASE(roundtrip_every_opcode),
	KTAP_CASE(golden_write),
	KTAP_CASE(golden_ack_with_sack),
	KTAP_CASE(golden_nak_rnr),
	KTAP_CASE(golden_atomic_and_probe),
	KTAP_CASE(golden_plane_state),
	KTAP_CASE(golden_ep_probe),
	KTAP_CASE(golden_ep_port_status),
	KTAP_CASE(ep_port_status_rules),
	KTAP_CASE(plane_state_rules),
	KTAP_CASE(truncation_is_too_short),
	KTAP_CASE(reserved_bits_are_rejected),
	KTAP_CASE(versions_other_than_1_are_rejected),
	KTAP_CASE(unknown_opcodes_are_rejected),
	KTAP_CASE(flags_are_checked_per_opcode),
	KTAP_CASE(payload_length_rules),
	KTAP_CASE(message_bounds),
	KTAP_CASE(ack_rules),
	KTAP_CASE(trimmed_detection),
	KTAP_CASE(golden_ud_send_imm),
	KTAP_CASE(golden_send_inv),
	KTAP_CASE(ud_payload_limit),
	KTAP_CASE(encode_refuses_small_buffers),
	KTAP_CASE(sack_bit_helpers),
	KTAP_CASE(sack_example_of_the_documentation),
	KTAP_CASE(drop_reason_names),
	KTAP_CASE(fuzz_random_buffers),
	KTAP_CASE(fuzz_mutated_packets),
	KTAP_CASE(peek_request_psn),
};

KTAP_MAIN("wire", cases)
