// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Encoding, decoding and validation of MRC headers (see mrc_wire.h and
 * Documentation/wire-format.rst). Every rule a receiver applies to a header
 * is in mrc_pkt_check(), which mrc_encode() applies too: the encoder never
 * writes a header the decoder would refuse.
 */
#include "mrc_wire.h"

/**
 * struct mrc_opcode_info - what the wire format says about one opcode
 * @name: upper-case name; NULL for an undefined opcode
 * @ext: MRC_EXT_* parts of its extension header, in wire order
 * @hdr_len: bytes of its base and extension headers (an ACK's or NAK's
 *	without SACK words)
 * @flags: MRC_F_* base flags it may carry
 * @payload: whether it carries payload
 * @class: MRC_OPC_* classes it belongs to
 */
struct mrc_opcode_info {
	const char *name;
	u16 ext;
	u8 hdr_len;
	u8 flags;
	bool payload;
	u8 class;
};

#define MRC_F_DATA	(MRC_F_ACK_REQ | MRC_F_RETRANSMIT | MRC_F_TRIMMED)
#define MRC_F_REQ	(MRC_F_ACK_REQ | MRC_F_RETRANSMIT)

/* A datagram is never retransmitted nor acknowledged: no ACK_REQ. */
#define MRC_F_UD	(MRC_F_SOLICITED | MRC_F_TRIMMED)

#define MRC_OPC_RD_REQ	(MRC_OPC_REQUEST | MRC_OPC_RD_ATOMIC)

/*
 * Each entry's header length is the sum of its parts in @ext, written out
 * so that no packet sums them again; wire_test holds every length to the
 * wire format's.
 */
static const struct mrc_opcode_info mrc_opcodes[MRC_OP_MAX + 1] = {
	[MRC_OP_WRITE] = {
		"WRITE", MRC_EXT_MSGH | MRC_EXT_RADDR,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_RADDR_LEN,
		MRC_F_DATA, true, MRC_OPC_REQUEST | MRC_OPC_DATA },
	[MRC_OP_WRITE_IMM] = {
		"WRITE_IMM", MRC_EXT_MSGH | MRC_EXT_RADDR | MRC_EXT_IMM,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_RADDR_LEN + MRC_IMM_LEN,
		MRC_F_DATA | MRC_F_SOLICITED, true,
		MRC_OPC_REQUEST | MRC_OPC_DATA | MRC_OPC_CONSUMES_RECV },
	[MRC_OP_SEND] = {
		"SEND", MRC_EXT_MSGH, MRC_BASE_HDR_LEN + MRC_MSGH_LEN,
		MRC_F_DATA | MRC_F_SOLICITED, true,
		MRC_OPC_REQUEST | MRC_OPC_DATA | MRC_OPC_CONSUMES_RECV },
	[MRC_OP_SEND_IMM] = {
		"SEND_IMM", MRC_EXT_MSGH | MRC_EXT_IMM,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_IMM_LEN,
		MRC_F_DATA | MRC_F_SOLICITED, true,
		MRC_OPC_REQUEST | MRC_OPC_DATA | MRC_OPC_CONSUMES_RECV },
	[MRC_OP_SEND_INV] = {
		"SEND_INV", MRC_EXT_MSGH | MRC_EXT_IETH,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_IETH_LEN,
		MRC_F_DATA | MRC_F_SOLICITED, true,
		MRC_OPC_REQUEST | MRC_OPC_DATA | MRC_OPC_CONSUMES_RECV },
	[MRC_OP_READ_REQ] = {
		"READ_REQ", MRC_EXT_MSGH | MRC_EXT_RADDR,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_RADDR_LEN,
		MRC_F_REQ, false, MRC_OPC_RD_REQ },
	[MRC_OP_READ_RESP] = {
		"READ_RESP", MRC_EXT_MSGH, MRC_BASE_HDR_LEN + MRC_MSGH_LEN,
		MRC_F_DATA, true, MRC_OPC_RESPONSE | MRC_OPC_DATA },
	[MRC_OP_ATOMIC_CMP_SWAP] = {
		"ATOMIC_CMP_SWAP", MRC_EXT_MSGH | MRC_EXT_RADDR | MRC_EXT_ATOMIC,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_RADDR_LEN + MRC_ATOMIC_LEN,
		MRC_F_REQ, false, MRC_OPC_RD_REQ },
	[MRC_OP_ATOMIC_FETCH_ADD] = {
		"ATOMIC_FETCH_ADD",
		MRC_EXT_MSGH | MRC_EXT_RADDR | MRC_EXT_ATOMIC,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_RADDR_LEN + MRC_ATOMIC_LEN,
		MRC_F_REQ, false, MRC_OPC_RD_REQ },
	[MRC_OP_ATOMIC_RESP] = {
		"ATOMIC_RESP", MRC_EXT_MSGH | MRC_EXT_ORIG,
		MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_ORIG_LEN,
		MRC_F_REQ, false, MRC_OPC_RESPONSE },
	[MRC_OP_ACK] = {
		"ACK", MRC_EXT_ACK, MRC_BASE_HDR_LEN + MRC_ACK_FIXED_LEN,
		0, false, MRC_OPC_RESPONSE },
	[MRC_OP_NAK] = {
		"NAK", MRC_EXT_ACK, MRC_BASE_HDR_LEN + MRC_ACK_FIXED_LEN,
		0, false, MRC_OPC_RESPONSE },
	[MRC_OP_PROBE] = {
		"PROBE", MRC_EXT_PROBE, MRC_BASE_HDR_LEN + MRC_PROBE_LEN,
		0, false, MRC_OPC_PATH },
	[MRC_OP_PROBE_REPLY] = {
		"PROBE_REPLY", MRC_EXT_PROBE, MRC_BASE_HDR_LEN + MRC_PROBE_LEN,
		0, false, MRC_OPC_PATH },
	[MRC_OP_PLANE_STATE] = {
		"PLANE_STATE", MRC_EXT_PLANES, MRC_BASE_HDR_LEN + MRC_PLANE_STATE_LEN,
		0, false, MRC_OPC_PATH },
	[MRC_OP_PLANE_STATE_ACK] = {
		"PLANE_STATE_ACK", MRC_EXT_PLANES, MRC_BASE_HDR_LEN + MRC_PLANE_STATE_LEN,
		0, false, MRC_OPC_PATH },
	[MRC_OP_EP_PROBE] = {
		"EP_PROBE", MRC_EXT_EP_PROBE, MRC_BASE_HDR_LEN + MRC_EP_PROBE_LEN,
		0, false, MRC_OPC_DEVICE },
	[MRC_OP_EP_PROBE_REPLY] = {
		"EP_PROBE_REPLY", MRC_EXT_EP_PROBE,
		MRC_BASE_HDR_LEN + MRC_EP_PROBE_LEN, 0, false, MRC_OPC_DEVICE },
	[MRC_OP_EP_PORT_STATUS] = {
		"EP_PORT_STATUS", MRC_EXT_EP_PROBE,
		MRC_BASE_HDR_LEN + MRC_EP_PROBE_LEN, 0, false, MRC_OPC_DEVICE },
	[MRC_OP_EP_PORT_STATUS_REPLY] = {
		"EP_PORT_STATUS_REPLY", MRC_EXT_EP_PROBE,
		MRC_BASE_HDR_LEN + MRC_EP_PROBE_LEN, 0, false, MRC_OPC_DEVICE },
	[MRC_OP_UD_SEND] = {
		"UD_SEND", MRC_EXT_DETH, MRC_BASE_HDR_LEN + MRC_DETH_LEN,
		MRC_F_UD, true, MRC_OPC_DATAGRAM },
	[MRC_OP_UD_SEND_IMM] = {
		"UD_SEND_IMM", MRC_EXT_DETH | MRC_EXT_IMM,
		MRC_BASE_HDR_LEN + MRC_DETH_LEN + MRC_IMM_LEN,
		MRC_F_UD, true, MRC_OPC_DATAGRAM },
};

static const char * const mrc_drop_reason_names[MRC_DROP_REASON_COUNT] = {
	[MRC_DROP_NONE]		= "none",
	[MRC_DROP_TOO_SHORT]	= "too_short",
	[MRC_DROP_BAD_VERSION]	= "bad_version",
	[MRC_DROP_BAD_OPCODE]	= "bad_opcode",
	[MRC_DROP_RESERVED_SET]	= "reserved_set",
	[MRC_DROP_BAD_FLAGS]	= "bad_flags",
	[MRC_DROP_BAD_LENGTH]	= "bad_length",
	[MRC_DROP_BAD_OFFSET]	= "bad_offset",
	[MRC_DROP_BAD_SACK]	= "bad_sack",
	[MRC_DROP_BAD_SYNDROME]	= "bad_syndrome",
	[MRC_DROP_BAD_PLANES]	= "bad_planes",
};

static const struct mrc_opcode_info *mrc_opcode_info(u8 opcode)
{
	if (opcode > MRC_OP_MAX || !mrc_opcodes[opcode].name)
		return NULL;
	return &mrc_opcodes[opcode];
}

bool mrc_opcode_valid(u8 opcode)
{
	return mrc_opcode_info(opcode);
}

/* The opcode's name, or "INVALID". */
const char *mrc_opcode_name(u8 opcode)
{
	const struct mrc_opcode_info *info = mrc_opcode_info(opcode);

	return info ? info->name : "INVALID";
}

/* MRC_EXT_* parts of the opcode's extension header; 0 if invalid. */
u32 mrc_opcode_ext(u8 opcode)
{
	const struct mrc_opcode_info *info = mrc_opcode_info(opcode);

	return info ? info->ext : 0;
}

bool mrc_opcode_has_payload(u8 opcode)
{
	const struct mrc_opcode_info *info = mrc_opcode_info(opcode);

	return info && info->payload;
}

/* MRC_F_* base flags the opcode may carry; 0 if invalid. */
u8 mrc_opcode_flags(u8 opcode)
{
	const struct mrc_opcode_info *info = mrc_opcode_info(opcode);

	return info ? info->flags : 0;
}

/* MRC_OPC_* classes of the opcode; 0 if invalid. */
u8 mrc_opcode_class(u8 opcode)
{
	const struct mrc_opcode_info *info = mrc_opcode_info(opcode);

	return info ? info->class : 0;
}

/**
 * mrc_hdr_len() - header bytes (base + extension) of an opcode
 * @opcode: the opcode
 *
 * For ACK and NAK this is the length without SACK words, see mrc_ack_len().
 *
 * Return: the length, or 0 for an invalid opcode.
 */
size_t mrc_hdr_len(u8 opcode)
{
	const struct mrc_opcode_info *info = mrc_opcode_info(opcode);

	return info ? info->hdr_len : 0;
}

/**
 * mrc_ack_len() - header bytes (base + extension) of an ACK or NAK
 * @sack_words: number of SACK words it carries
 *
 * Return: the length, or 0 when @sack_words exceeds MRC_SACK_MAX_WORDS.
 */
size_t mrc_ack_len(u32 sack_words)
{
	if (sack_words > MRC_SACK_MAX_WORDS)
		return 0;
	return MRC_BASE_HDR_LEN + MRC_ACK_FIXED_LEN +
	       (size_t)sack_words * MRC_SACK_WORD_LEN;
}

/**
 * mrc_pkt_hdr_len() - header bytes of a packet
 * @pkt: the packet; only its opcode and, for ACK/NAK, sack_words count
 *
 * Return: the length, or 0 for an invalid opcode or SACK word count.
 */
size_t mrc_pkt_hdr_len(const struct mrc_pkt *pkt)
{
	if (mrc_opcode_ext(pkt->hdr.opcode) & MRC_EXT_ACK)
		return mrc_ack_len(pkt->ack.sack_words);
	return mrc_hdr_len(pkt->hdr.opcode);
}

static enum mrc_drop_reason mrc_check_msgh(const struct mrc_pkt *pkt,
					   const struct mrc_opcode_info *info)
{
	const struct mrc_msgh *m = &pkt->msgh;
	u32 plen = pkt->hdr.payload_len;

	if (m->length > MRC_MAX_MSG_LEN)
		return MRC_DROP_BAD_LENGTH;

	if (info->ext & (MRC_EXT_ATOMIC | MRC_EXT_ORIG)) {
		if (m->length != MRC_ATOMIC_OPERAND_LEN)
			return MRC_DROP_BAD_LENGTH;
		if (m->offset != 0)
			return MRC_DROP_BAD_OFFSET;
		return MRC_DROP_NONE;
	}

	if (pkt->hdr.opcode == MRC_OP_READ_REQ) {
		/* The range [offset, offset + length) of the whole read. */
		if (m->offset > MRC_MAX_MSG_LEN - m->length)
			return MRC_DROP_BAD_OFFSET;
		return MRC_DROP_NONE;
	}

	/* Data: the payload lies within the message... */
	if (plen > m->length || m->offset > m->length - plen)
		return MRC_DROP_BAD_OFFSET;
	/* ...and only an empty message has an empty packet. */
	if (plen == 0 && m->length != 0)
		return MRC_DROP_BAD_LENGTH;
	return MRC_DROP_NONE;
}

static enum mrc_drop_reason mrc_check_ack(const struct mrc_pkt *pkt)
{
	const struct mrc_ack *a = &pkt->ack;

	if (a->sack_words > MRC_SACK_MAX_WORDS)
		return MRC_DROP_BAD_SACK;
	if (a->cum_psn & ~MRC_PSN_MASK || a->nak_psn & ~MRC_PSN_MASK ||
	    a->flags & MRC_ACK_F_RSVD_MASK)
		return MRC_DROP_RESERVED_SET;

	if (pkt->hdr.opcode == MRC_OP_ACK) {
		if (a->syndrome != MRC_SYN_ACK)
			return MRC_DROP_BAD_SYNDROME;
		if (a->nak_psn != 0 || a->rnr_timer != 0)
			return MRC_DROP_RESERVED_SET;
		return MRC_DROP_NONE;
	}

	if (a->syndrome == MRC_SYN_ACK || a->syndrome > MRC_NAK_MAX)
		return MRC_DROP_BAD_SYNDROME;
	if (a->syndrome == MRC_NAK_RNR) {
		if (a->rnr_timer > MRC_RNR_TIMER_MAX)
			return MRC_DROP_BAD_SYNDROME;
	} else if (a->rnr_timer != 0) {
		return MRC_DROP_RESERVED_SET;
	}
	return MRC_DROP_NONE;
}

/*
 * A plane state names at least one plane and at most what the mask holds,
 * marks only planes the sender has, and leaves at least one of them up: it
 * came in on one. Outside a sequenced stream, its PSN is 0.
 */
static enum mrc_drop_reason mrc_check_plane_state(const struct mrc_pkt *pkt)
{
	const struct mrc_plane_state *s = &pkt->plane_state;
	u32 all;

	if (pkt->hdr.psn != 0)
		return MRC_DROP_RESERVED_SET;
	if (s->n_planes == 0 || s->n_planes > MRC_WIRE_MAX_PLANES)
		return MRC_DROP_BAD_PLANES;
	all = (1u << s->n_planes) - 1;
	if (s->down_mask & ~all || s->down_mask == all)
		return MRC_DROP_BAD_PLANES;
	return MRC_DROP_NONE;
}

/*
 * A packet for a device names no QP and is in no sequence: its QPNs, PSN
 * and EV are reserved, 0. A request names a plane the wire can, and a
 * service time only in its reply. A port status describes the sender's
 * planes, of which one at least is up (it came in on one); a probe has
 * no port fields.
 */
static enum mrc_drop_reason mrc_check_ep_probe(const struct mrc_pkt *pkt)
{
	const struct mrc_ep_probe *e = &pkt->ep_probe;
	const struct mrc_hdr *h = &pkt->hdr;
	u32 all;

	if (h->dqpn || h->sqpn || h->psn || h->ev)
		return MRC_DROP_RESERVED_SET;
	if (e->plane >= MRC_WIRE_MAX_PLANES)
		return MRC_DROP_BAD_PLANES;
	if ((h->opcode == MRC_OP_EP_PROBE ||
	     h->opcode == MRC_OP_EP_PORT_STATUS) && e->svc_ns)
		return MRC_DROP_RESERVED_SET;
	if (h->opcode == MRC_OP_EP_PROBE || h->opcode == MRC_OP_EP_PROBE_REPLY)
		return e->n_planes || e->up_mask ? MRC_DROP_RESERVED_SET :
						   MRC_DROP_NONE;
	if (e->n_planes == 0 || e->n_planes > MRC_WIRE_MAX_PLANES)
		return MRC_DROP_BAD_PLANES;
	all = (1u << e->n_planes) - 1;
	if (!e->up_mask || e->up_mask & ~all)
		return MRC_DROP_BAD_PLANES;
	return MRC_DROP_NONE;
}

/**
 * mrc_pkt_check() - validate the header fields of a host-order packet
 * @pkt: the packet
 *
 * Applies every rule of the wire format that the host-order fields can
 * express (reserved bytes and the present payload are checked by
 * mrc_decode() on the bytes). mrc_encode() refuses what this refuses.
 *
 * Return: MRC_DROP_NONE, or the first rule broken.
 */
enum mrc_drop_reason mrc_pkt_check(const struct mrc_pkt *pkt)
{
	const struct mrc_hdr *h = &pkt->hdr;
	const struct mrc_opcode_info *info = mrc_opcode_info(h->opcode);

	if (!info)
		return MRC_DROP_BAD_OPCODE;
	if (h->flags & MRC_F_RSVD_MASK)
		return MRC_DROP_RESERVED_SET;
	if (h->flags & ~info->flags)
		return MRC_DROP_BAD_FLAGS;
	if (h->dqpn & ~MRC_QPN_MASK || h->sqpn & ~MRC_QPN_MASK ||
	    h->psn & ~MRC_PSN_MASK)
		return MRC_DROP_RESERVED_SET;
	if (!info->payload && h->payload_len != 0)
		return MRC_DROP_BAD_LENGTH;
	if (info->ext & MRC_EXT_DETH && h->payload_len > MRC_UD_MAX_PAYLOAD)
		return MRC_DROP_BAD_LENGTH;
	if (info->ext & MRC_EXT_MSGH)
		return mrc_check_msgh(pkt, info);
	if (info->ext & MRC_EXT_ACK)
		return mrc_check_ack(pkt);
	if (info->ext & MRC_EXT_PLANES)
		return mrc_check_plane_state(pkt);
	if (info->ext & MRC_EXT_EP_PROBE)
		return mrc_check_ep_probe(pkt);
	return MRC_DROP_NONE;
}

/* Cursor stores and loads: each returns the position after the field. */
static u8 *mrc_wr8(u8 *p, u8 v)
{
	*p = v;
	return p + 1;
}

static u8 *mrc_wr32(u8 *p, u32 v)
{
	mrc_put_be32(p, v);
	return p + 4;
}

static u8 *mrc_wr64(u8 *p, u64 v)
{
	mrc_put_be64(p, v);
	return p + 8;
}

static const u8 *mrc_rd32(const u8 *p, u32 *v)
{
	*v = mrc_get_be32(p);
	return p + 4;
}

static const u8 *mrc_rd64(const u8 *p, u64 *v)
{
	*v = mrc_get_be64(p);
	return p + 8;
}

/**
 * mrc_encode() - write a packet's headers
 * @buf: where the headers go; the payload follows them
 * @buflen: bytes available at @buf
 * @pkt: the packet, host order; the version and all reserved fields are
 *	written as defined, @pkt->ext and the fields filled by mrc_decode()
 *	are ignored
 *
 * Return: header bytes written (base + extension), -EINVAL when
 * mrc_pkt_check() refuses @pkt, or -ENOSPC when @buflen is too small (then
 * nothing is written).
 */
int mrc_encode(u8 *buf, size_t buflen, const struct mrc_pkt *pkt)
{
	const struct mrc_hdr *h = &pkt->hdr;
	u32 ext = mrc_opcode_ext(h->opcode);
	size_t len;
	u8 *p = buf;
	u32 i;

	if (mrc_pkt_check(pkt) != MRC_DROP_NONE)
		return -EINVAL;
	len = mrc_pkt_hdr_len(pkt);
	if (buflen < len)
		return -ENOSPC;

	p = mrc_wr8(p, MRC_WIRE_VERSION << MRC_VERSION_SHIFT);
	p = mrc_wr8(p, h->opcode);
	p = mrc_wr8(p, h->flags);
	p = mrc_wr8(p, 0);
	p = mrc_wr32(p, h->dqpn);
	p = mrc_wr32(p, h->sqpn);
	p = mrc_wr32(p, h->psn);
	p = mrc_wr32(p, h->ev);
	p = mrc_wr32(p, h->ts);
	mrc_put_be16(p, h->payload_len);
	p += 2;
	p = mrc_wr8(p, 0);
	p = mrc_wr8(p, 0);
	p = mrc_wr32(p, 0);

	if (ext & MRC_EXT_DETH) {
		p = mrc_wr32(p, pkt->qkey);
		p = mrc_wr32(p, 0);
	}
	if (ext & MRC_EXT_MSGH) {
		p = mrc_wr32(p, pkt->msgh.msn);
		p = mrc_wr32(p, pkt->msgh.offset);
		p = mrc_wr32(p, pkt->msgh.length);
	}
	if (ext & MRC_EXT_RADDR) {
		p = mrc_wr64(p, pkt->raddr.va);
		p = mrc_wr32(p, pkt->raddr.rkey);
		p = mrc_wr32(p, 0);
	}
	if (ext & MRC_EXT_IMM) {
		p = mrc_wr32(p, pkt->imm);
		p = mrc_wr32(p, 0);
	}
	if (ext & MRC_EXT_IETH) {
		p = mrc_wr32(p, pkt->inv_rkey);
		p = mrc_wr32(p, 0);
	}
	if (ext & MRC_EXT_ATOMIC) {
		p = mrc_wr64(p, pkt->atomic.swap_or_add);
		p = mrc_wr64(p, pkt->atomic.compare);
	}
	if (ext & MRC_EXT_ORIG)
		p = mrc_wr64(p, pkt->orig);
	if (ext & MRC_EXT_ACK) {
		const struct mrc_ack *a = &pkt->ack;

		p = mrc_wr32(p, a->cum_psn);
		p = mrc_wr32(p, a->ev_echo);
		p = mrc_wr32(p, a->ts_echo);
		p = mrc_wr32(p, a->msn);
		p = mrc_wr8(p, a->syndrome);
		p = mrc_wr8(p, a->rnr_timer);
		p = mrc_wr8(p, a->flags);
		p = mrc_wr8(p, a->sack_words);
		p = mrc_wr32(p, a->nak_psn);
		for (i = 0; i < a->sack_words; i++)
			p = mrc_wr64(p, a->sack[i]);
	}
	if (ext & MRC_EXT_PROBE) {
		p = mrc_wr32(p, pkt->probe.id);
		p = mrc_wr32(p, pkt->probe.ts);
		p = mrc_wr32(p, pkt->probe.ev);
		p = mrc_wr32(p, 0);
	}
	if (ext & MRC_EXT_PLANES) {
		p = mrc_wr32(p, pkt->plane_state.seq);
		p = mrc_wr8(p, pkt->plane_state.n_planes);
		p = mrc_wr8(p, pkt->plane_state.down_mask);
		p = mrc_wr8(p, 0);
		p = mrc_wr8(p, 0);
	}
	if (ext & MRC_EXT_EP_PROBE) {
		p = mrc_wr32(p, pkt->ep_probe.cookie);
		p = mrc_wr32(p, pkt->ep_probe.ts);
		p = mrc_wr8(p, pkt->ep_probe.plane);
		p = mrc_wr8(p, pkt->ep_probe.n_planes);
		p = mrc_wr8(p, pkt->ep_probe.up_mask);
		p = mrc_wr8(p, 0);
		p = mrc_wr32(p, pkt->ep_probe.svc_ns);
	}
	return (int)len;
}

static int mrc_drop(enum mrc_drop_reason reason)
{
	return -(int)reason;
}

/*
 * Parses the extension header at @p into @pkt. The caller has checked that
 * all of it is within the buffer. Reserved words must be zero.
 */
static enum mrc_drop_reason mrc_decode_ext(const u8 *p, u32 ext,
					   struct mrc_pkt *pkt)
{
	u32 rsvd = 0, v;
	u32 i;

	if (ext & MRC_EXT_DETH) {
		p = mrc_rd32(p, &pkt->qkey);
		p = mrc_rd32(p, &v);
		rsvd |= v;
	}
	if (ext & MRC_EXT_MSGH) {
		p = mrc_rd32(p, &pkt->msgh.msn);
		p = mrc_rd32(p, &pkt->msgh.offset);
		p = mrc_rd32(p, &pkt->msgh.length);
	}
	if (ext & MRC_EXT_RADDR) {
		p = mrc_rd64(p, &pkt->raddr.va);
		p = mrc_rd32(p, &pkt->raddr.rkey);
		p = mrc_rd32(p, &v);
		rsvd |= v;
	}
	if (ext & MRC_EXT_IMM) {
		p = mrc_rd32(p, &pkt->imm);
		p = mrc_rd32(p, &v);
		rsvd |= v;
	}
	if (ext & MRC_EXT_IETH) {
		p = mrc_rd32(p, &pkt->inv_rkey);
		p = mrc_rd32(p, &v);
		rsvd |= v;
	}
	if (ext & MRC_EXT_ATOMIC) {
		p = mrc_rd64(p, &pkt->atomic.swap_or_add);
		p = mrc_rd64(p, &pkt->atomic.compare);
	}
	if (ext & MRC_EXT_ORIG)
		p = mrc_rd64(p, &pkt->orig);
	if (ext & MRC_EXT_ACK) {
		struct mrc_ack *a = &pkt->ack;

		p = mrc_rd32(p, &a->cum_psn);
		p = mrc_rd32(p, &a->ev_echo);
		p = mrc_rd32(p, &a->ts_echo);
		p = mrc_rd32(p, &a->msn);
		a->syndrome = p[0];
		a->rnr_timer = p[1];
		a->flags = p[2];
		a->sack_words = p[3];
		p = mrc_rd32(p + 4, &a->nak_psn);
		for (i = 0; i < a->sack_words && i < MRC_SACK_MAX_WORDS; i++)
			p = mrc_rd64(p, &a->sack[i]);
	}
	if (ext & MRC_EXT_PROBE) {
		p = mrc_rd32(p, &pkt->probe.id);
		p = mrc_rd32(p, &pkt->probe.ts);
		p = mrc_rd32(p, &pkt->probe.ev);
		p = mrc_rd32(p, &v);
		rsvd |= v;
	}
	if (ext & MRC_EXT_PLANES) {
		p = mrc_rd32(p, &pkt->plane_state.seq);
		pkt->plane_state.n_planes = p[0];
		pkt->plane_state.down_mask = p[1];
		rsvd |= mrc_get_be16(p + 2);
		p += 4;
	}
	if (ext & MRC_EXT_EP_PROBE) {
		p = mrc_rd32(p, &pkt->ep_probe.cookie);
		p = mrc_rd32(p, &pkt->ep_probe.ts);
		pkt->ep_probe.plane = p[0];
		pkt->ep_probe.n_planes = p[1];
		pkt->ep_probe.up_mask = p[2];
		rsvd |= p[3];
		p = mrc_rd32(p + 4, &pkt->ep_probe.svc_ns);
	}
	return rsvd ? MRC_DROP_RESERVED_SET : MRC_DROP_NONE;
}

/**
 * mrc_decode() - parse and validate a packet
 * @buf: the packet from the first byte after the UDP header
 * @len: its length as the UDP header delimits it (Ethernet padding
 *	excluded); nothing at or beyond @buf + @len is read
 * @pkt: the decoded headers, payload position and trim state
 *
 * Applies every rule of the wire format; the first broken one is the
 * result. @pkt is zeroed first and left partly filled on failure.
 *
 * Return: 0, or the negated enum mrc_drop_reason.
 */
int mrc_decode(const u8 *buf, size_t len, struct mrc_pkt *pkt)
{
	const struct mrc_opcode_info *info;
	struct mrc_hdr *h = &pkt->hdr;
	enum mrc_drop_reason reason;
	size_t hlen, present;

	memset(pkt, 0, sizeof(*pkt));
	if (len < MRC_BASE_HDR_LEN)
		return mrc_drop(MRC_DROP_TOO_SHORT);
	if (buf[0] >> MRC_VERSION_SHIFT != MRC_WIRE_VERSION)
		return mrc_drop(MRC_DROP_BAD_VERSION);
	if (buf[0] & MRC_HDR_RSVD_MASK)
		return mrc_drop(MRC_DROP_RESERVED_SET);
	info = mrc_opcode_info(buf[1]);
	if (!info)
		return mrc_drop(MRC_DROP_BAD_OPCODE);

	hlen = info->hdr_len;
	if (len < hlen)
		return mrc_drop(MRC_DROP_TOO_SHORT);
	if (info->ext & MRC_EXT_ACK) {
		/* sack_words: byte 19 of the ACK header. */
		hlen = mrc_ack_len(buf[MRC_BASE_HDR_LEN + 19]);
		if (!hlen)
			return mrc_drop(MRC_DROP_BAD_SACK);
		if (len < hlen)
			return mrc_drop(MRC_DROP_TOO_SHORT);
	}

	if (buf[3] != 0 || mrc_get_be16(buf + 26) != 0 ||
	    mrc_get_be32(buf + 28) != 0)
		return mrc_drop(MRC_DROP_RESERVED_SET);
	h->opcode = buf[1];
	h->flags = buf[2];
	h->dqpn = mrc_get_be32(buf + 4);
	h->sqpn = mrc_get_be32(buf + 8);
	h->psn = mrc_get_be32(buf + 12);
	h->ev = mrc_get_be32(buf + 16);
	h->ts = mrc_get_be32(buf + 20);
	h->payload_len = mrc_get_be16(buf + 24);

	reason = mrc_decode_ext(buf + MRC_BASE_HDR_LEN, info->ext, pkt);
	if (reason == MRC_DROP_NONE)
		reason = mrc_pkt_check(pkt);
	if (reason != MRC_DROP_NONE)
		return mrc_drop(reason);

	present = len - hlen;
	if (present > h->payload_len)
		return mrc_drop(MRC_DROP_BAD_LENGTH);
	pkt->ext = info->ext;
	pkt->payload_off = (u32)hlen;
	pkt->payload_present = (u32)present;
	pkt->trimmed = present < h->payload_len ||
		       (h->flags & MRC_F_TRIMMED);
	return 0;
}

/**
 * mrc_peek_request_psn() - the PSN of one of our own requester packets
 * @buf: the packet from its base header on
 * @len: bytes at @buf
 * @psn: set to the PSN
 *
 * For a packet this host built and is sending (the local transmit budget
 * reads it as the packet leaves), not for one from the wire: only the
 * version and opcode are checked.
 *
 * Return: true for a data or request packet (a PSN of the requester's
 * sequence), false for anything else.
 */
bool mrc_peek_request_psn(const u8 *buf, size_t len, u32 *psn)
{
	if (len < MRC_BASE_HDR_LEN ||
	    buf[0] >> MRC_VERSION_SHIFT != MRC_WIRE_VERSION)
		return false;
	if (!mrc_opcode_is(buf[1], MRC_OPC_REQUEST))
		return false;
	*psn = mrc_psn(mrc_get_be32(buf + 12));
	return true;
}

/* A drop reason's name, for counters and logs; "unknown" if out of range. */
const char *mrc_drop_reason_name(enum mrc_drop_reason reason)
{
	if ((unsigned int)reason >= MRC_DROP_REASON_COUNT ||
	    !mrc_drop_reason_names[reason])
		return "unknown";
	return mrc_drop_reason_names[reason];
}
