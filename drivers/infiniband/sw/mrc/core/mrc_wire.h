/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The MRC wire format: what follows the UDP header of every MRC packet.
 * Documentation/wire-format.rst describes it byte by byte; this header and
 * mrc_wire.c are its only implementation.
 *
 * Packets are never overlaid with C structures. mrc_encode() writes the
 * headers of a host-order struct mrc_pkt into a byte buffer, mrc_decode()
 * parses and validates a byte buffer into one, both with explicit byte
 * loads and stores, so alignment, padding and host endianness never matter.
 * All multi-byte fields are big-endian on the wire.
 */
#ifndef MRC_WIRE_H
#define MRC_WIRE_H

#include "mrc_core_types.h"
#include "mrc_psn.h"

#define MRC_UDP_PORT_DEFAULT	4791
#define MRC_WIRE_VERSION	1

/* Header sizes in bytes. */
#define MRC_BASE_HDR_LEN	32
#define MRC_MSGH_LEN		12	/* MSN, offset, message length */
#define MRC_RADDR_LEN		16	/* VA, rkey, reserved */
#define MRC_IMM_LEN		8	/* immediate, reserved */
#define MRC_ATOMIC_LEN		16	/* swap_or_add, compare */
#define MRC_ORIG_LEN		8	/* original value */
#define MRC_ACK_FIXED_LEN	24	/* ACK/NAK header without SACK words */
#define MRC_PROBE_LEN		16
#define MRC_PLANE_STATE_LEN	8	/* sequence, planes, down mask */
#define MRC_EP_PROBE_LEN	16	/* cookie, ts, plane, ports, service time */
#define MRC_DETH_LEN		8	/* Q_Key, reserved */
#define MRC_IETH_LEN		8	/* rkey to invalidate, reserved */
#define MRC_SACK_WORD_LEN	8

#define MRC_SACK_MAX_WORDS	4
#define MRC_SACK_MAX_BITS	(64 * MRC_SACK_MAX_WORDS)

/* The longest header of any packet: an ACK or NAK with four SACK words. */
#define MRC_MAX_HDR_LEN \
	(MRC_BASE_HDR_LEN + MRC_ACK_FIXED_LEN + \
	 MRC_SACK_MAX_WORDS * MRC_SACK_WORD_LEN)
/*
 * The longest header of a packet that carries payload (WRITE_IMM). A switch
 * that trims must leave at least this much after the UDP header, or the
 * trimmed packet cannot be parsed and is dropped as too short.
 */
#define MRC_MAX_DATA_HDR_LEN \
	(MRC_BASE_HDR_LEN + MRC_MSGH_LEN + MRC_RADDR_LEN + MRC_IMM_LEN)

/* Largest message length (and end of a READ range) the wire allows. */
#define MRC_MAX_MSG_LEN		0x80000000u
/*
 * A datagram (UD_SEND*) is one packet: its payload is at most the largest
 * path MTU, whatever the sender's QP was given.
 */
#define MRC_UD_MAX_PAYLOAD	4096
/* Atomic operations act on exactly 8 bytes. */
#define MRC_ATOMIC_OPERAND_LEN	8

/* Planes a PLANE_STATE can describe: bits of its down mask. */
#define MRC_WIRE_MAX_PLANES	8

#define MRC_QPN_MASK		0x00ffffffu
#define MRC_RNR_TIMER_MAX	31

/* Byte 0: version in bits 7..4, header flags bits 3..0 reserved. */
#define MRC_VERSION_SHIFT	4
#define MRC_HDR_RSVD_MASK	0x0f

enum mrc_opcode {
	MRC_OP_WRITE		= 0x01,
	MRC_OP_WRITE_IMM	= 0x02,
	MRC_OP_SEND		= 0x03,
	MRC_OP_SEND_IMM		= 0x04,
	MRC_OP_READ_REQ		= 0x05,
	MRC_OP_READ_RESP	= 0x06,
	MRC_OP_ATOMIC_CMP_SWAP	= 0x07,
	MRC_OP_ATOMIC_FETCH_ADD	= 0x08,
	MRC_OP_ATOMIC_RESP	= 0x09,
	MRC_OP_SEND_INV		= 0x0a,	/* SEND that invalidates an rkey */
	MRC_OP_ACK		= 0x10,
	MRC_OP_NAK		= 0x11,
	MRC_OP_PROBE		= 0x20,
	MRC_OP_PROBE_REPLY	= 0x21,
	MRC_OP_PLANE_STATE	= 0x22,	/* "do not send to me on these planes" */
	MRC_OP_PLANE_STATE_ACK	= 0x23,
	/* To and from a device, not a QP: the controller's path probes. */
	MRC_OP_EP_PROBE		= 0x24,
	MRC_OP_EP_PROBE_REPLY	= 0x25,
	/* "my ports are up or down": the controller's port status updates */
	MRC_OP_EP_PORT_STATUS	= 0x26,
	MRC_OP_EP_PORT_STATUS_REPLY = 0x27,
	MRC_OP_UD_SEND		= 0x30,	/* a datagram of a UD or GSI QP */
	MRC_OP_UD_SEND_IMM	= 0x31,
	MRC_OP_MAX		= MRC_OP_UD_SEND_IMM,
};

/* Base header flags (byte 2). */
#define MRC_F_ACK_REQ		0x01	/* receiver should ACK now */
#define MRC_F_SOLICITED		0x02	/* solicited event (SEND*, WRITE_IMM) */
#define MRC_F_RETRANSMIT	0x04	/* the sender's retransmission */
#define MRC_F_TRIMMED		0x08	/* payload cut by a switch */
#define MRC_F_RSVD_MASK		0xf0

/* ACK/NAK header flags. */
#define MRC_ACK_F_ECN_CE	0x01	/* triggering packet was CE-marked */
#define MRC_ACK_F_RSVD_MASK	0xfe

/* ACK/NAK syndrome: 0 in every ACK, one of the NAK codes in every NAK. */
enum mrc_syndrome {
	MRC_SYN_ACK			= 0,
	MRC_NAK_TRIMMED			= 1,
	MRC_NAK_RNR			= 2,
	MRC_NAK_REMOTE_ACCESS_ERROR	= 3,
	MRC_NAK_INVALID_REQUEST		= 4,
	MRC_NAK_REMOTE_OP_ERROR		= 5,
	MRC_NAK_PSN_SEQ_ERROR		= 6,
	MRC_NAK_MAX			= MRC_NAK_PSN_SEQ_ERROR,
};

/*
 * Extension header parts, in the order they follow the base header, except
 * MRC_EXT_DETH (the datagram header), which comes first. Each
 * opcode's extension header is a fixed sequence of them (mrc_opcode_ext()).
 */
#define MRC_EXT_MSGH		0x01
#define MRC_EXT_RADDR		0x02
#define MRC_EXT_IMM		0x04
#define MRC_EXT_ATOMIC		0x08
#define MRC_EXT_ORIG		0x10
#define MRC_EXT_ACK		0x20
#define MRC_EXT_PROBE		0x40
#define MRC_EXT_DETH		0x80	/* first on the wire, see below */
#define MRC_EXT_PLANES		0x100
#define MRC_EXT_IETH		0x200	/* after MSGH */
#define MRC_EXT_EP_PROBE	0x400

/*
 * Why mrc_decode() refused a packet. mrc_decode() returns the negated
 * value; the kernel counts drops per reason.
 */
enum mrc_drop_reason {
	MRC_DROP_NONE = 0,
	MRC_DROP_TOO_SHORT,	/* shorter than the headers of its opcode */
	MRC_DROP_BAD_VERSION,	/* version is not MRC_WIRE_VERSION */
	MRC_DROP_BAD_OPCODE,	/* opcode not defined */
	MRC_DROP_RESERVED_SET,	/* a reserved or unused bit is not zero */
	MRC_DROP_BAD_FLAGS,	/* a base flag this opcode does not allow */
	MRC_DROP_BAD_LENGTH,	/* payload or message length inconsistent */
	MRC_DROP_BAD_OFFSET,	/* offset + payload outside the message */
	MRC_DROP_BAD_SACK,	/* more than MRC_SACK_MAX_WORDS SACK words */
	MRC_DROP_BAD_SYNDROME,	/* ACK/NAK syndrome or RNR timer invalid */
	MRC_DROP_BAD_PLANES,	/* PLANE_STATE plane count or mask invalid */
	MRC_DROP_REASON_COUNT,
};

/**
 * struct mrc_hdr - the base header, host order
 * @opcode: enum mrc_opcode
 * @flags: MRC_F_* flags
 * @dqpn: destination QPN, 24 bits
 * @sqpn: source QPN, 24 bits
 * @psn: packet sequence number, 24 bits
 * @ev: entropy value: the path the sender chose for this packet
 * @ts: the sender's microsecond clock, low 32 bits
 * @payload_len: payload bytes the sender put after the headers
 *
 * The version is not a field: mrc_encode() always writes MRC_WIRE_VERSION
 * and mrc_decode() accepts nothing else.
 */
struct mrc_hdr {
	u8 opcode;
	u8 flags;
	u16 payload_len;
	u32 dqpn;
	u32 sqpn;
	u32 psn;
	u32 ev;
	u32 ts;
};

/**
 * struct mrc_msgh - the message header of data and request packets
 * @msn: message sequence number in the sender's stream (READ_RESP: the
 *	READ_REQ's; ATOMIC_RESP: the atomic request's)
 * @offset: byte offset of this packet's payload within the message
 *	(READ_REQ: start of the requested range)
 * @length: total bytes of the message (READ_REQ: bytes requested from
 *	@offset)
 */
struct mrc_msgh {
	u32 msn;
	u32 offset;
	u32 length;
};

/**
 * struct mrc_raddr - remote address of WRITE*, READ_REQ and atomics
 * @va: remote virtual address of the start of the message
 * @rkey: remote key
 */
struct mrc_raddr {
	u64 va;
	u32 rkey;
};

/**
 * struct mrc_atomic - operands of ATOMIC_CMP_SWAP and ATOMIC_FETCH_ADD
 * @swap_or_add: the swap value (CMP_SWAP) or the addend (FETCH_ADD)
 * @compare: the compare value (CMP_SWAP); 0 for FETCH_ADD by convention,
 *	not checked
 */
struct mrc_atomic {
	u64 swap_or_add;
	u64 compare;
};

/**
 * struct mrc_ack - the ACK/NAK header
 * @cum_psn: next PSN expected in order; every earlier PSN was received
 * @ev_echo: the EV of the packet that triggered this ACK
 * @ts_echo: the timestamp of that packet
 * @msn: messages the responder completed in order
 * @syndrome: enum mrc_syndrome
 * @rnr_timer: RNR timer in the IB encoding (0..31), NAK RNR only
 * @flags: MRC_ACK_F_* flags
 * @sack_words: number of valid words in @sack (0..MRC_SACK_MAX_WORDS)
 * @nak_psn: the PSN a NAK is about; 0 in an ACK
 * @sack: SACK bitmap; bit i (mrc_sack_test()) says PSN @cum_psn + 1 + i
 *	was received. Word 0, most significant bit first, goes first on the
 *	wire; words from @sack_words on are not sent.
 */
struct mrc_ack {
	u32 cum_psn;
	u32 ev_echo;
	u32 ts_echo;
	u32 msn;
	u8 syndrome;
	u8 rnr_timer;
	u8 flags;
	u8 sack_words;
	u32 nak_psn;
	u64 sack[MRC_SACK_MAX_WORDS];
};

/**
 * struct mrc_probe - the PROBE and PROBE_REPLY header
 * @id: probe identifier, echoed by the reply
 * @ts: timestamp (the prober's clock; echoed by the reply)
 * @ev: the EV being probed
 */
struct mrc_probe {
	u32 id;
	u32 ts;
	u32 ev;
};

/**
 * struct mrc_plane_state - the PLANE_STATE and PLANE_STATE_ACK header
 * @seq: the sender's sequence number of this state (serial arithmetic);
 *	the ACK echoes it
 * @n_planes: planes of the sender, 1..MRC_WIRE_MAX_PLANES
 * @down_mask: bit p set: do not send to the sender on plane p. Only bits
 *	below @n_planes, and never all of them (the message itself came in
 *	on a plane that works). The ACK echoes the mask it applied.
 */
struct mrc_plane_state {
	u32 seq;
	u8 n_planes;
	u8 down_mask;
};

/**
 * struct mrc_ep_probe - the header of the device-to-device opcodes: EP_PROBE,
 *	EP_PORT_STATUS and their replies
 * @cookie: the sender's identifier of this request, echoed by the reply
 * @ts: the sender's microsecond clock when it sent the request, echoed
 * @plane: a request: the plane the sender sent it on; a reply: the plane
 *	the responder sent the reply on (below MRC_WIRE_MAX_PLANES)
 * @n_planes: EP_PORT_STATUS and its reply: the sender's planes (ports),
 *	1..MRC_WIRE_MAX_PLANES; 0 in an EP_PROBE and its reply
 * @up_mask: EP_PORT_STATUS: bit p set when the sender's plane p is up,
 *	only bits below @n_planes and at least one; the reply echoes both.
 *	0 in an EP_PROBE and its reply
 * @svc_ns: a reply: nanoseconds from the request's arrival at the
 *	responder to the reply's departure; 0 in a request
 */
struct mrc_ep_probe {
	u32 cookie;
	u32 ts;
	u8 plane;
	u8 n_planes;
	u8 up_mask;
	u32 svc_ns;
};

/**
 * struct mrc_pkt - a packet's headers, host order
 * @hdr: base header
 * @msgh: MRC_EXT_MSGH
 * @raddr: MRC_EXT_RADDR
 * @imm: MRC_EXT_IMM: immediate data, in every packet of the message
 * @atomic: MRC_EXT_ATOMIC
 * @orig: MRC_EXT_ORIG: original value at the atomic's address
 * @ack: MRC_EXT_ACK
 * @probe: MRC_EXT_PROBE
 * @plane_state: MRC_EXT_PLANES
 * @ep_probe: MRC_EXT_EP_PROBE
 * @qkey: MRC_EXT_DETH: the Q_Key the sender resolved for the datagram; the
 *	receiving QP accepts only its own
 * @inv_rkey: MRC_EXT_IETH: the responder's rkey that SEND_INV invalidates,
 *	the same in every packet of the message
 * @ext: MRC_EXT_* parts present (set by mrc_decode(); mrc_encode() uses
 *	mrc_opcode_ext(@hdr.opcode) and ignores it)
 * @payload_off: where the payload starts, = header length (mrc_decode())
 * @payload_present: payload bytes actually present (mrc_decode())
 * @trimmed: the payload was cut by a switch: fewer bytes are present than
 *	@hdr.payload_len declares, or MRC_F_TRIMMED is set (mrc_decode())
 *
 * Which extension fields mean anything follows from the opcode; the others
 * are zero after mrc_decode() and ignored by mrc_encode().
 */
struct mrc_pkt {
	struct mrc_hdr hdr;
	struct mrc_msgh msgh;
	struct mrc_raddr raddr;
	u32 imm;
	struct mrc_atomic atomic;
	u64 orig;
	struct mrc_ack ack;
	struct mrc_probe probe;
	struct mrc_plane_state plane_state;
	struct mrc_ep_probe ep_probe;
	u32 qkey;
	u32 inv_rkey;
	u32 ext;
	u32 payload_off;
	u32 payload_present;
	bool trimmed;
};

/* Big-endian loads and stores on byte pointers, no alignment needed. */
static inline void mrc_put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static inline void mrc_put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static inline void mrc_put_be64(u8 *p, u64 v)
{
	mrc_put_be32(p, (u32)(v >> 32));
	mrc_put_be32(p + 4, (u32)v);
}

static inline u16 mrc_get_be16(const u8 *p)
{
	return (u16)((u16)p[0] << 8 | p[1]);
}

static inline u32 mrc_get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 mrc_get_be64(const u8 *p)
{
	return (u64)mrc_get_be32(p) << 32 | mrc_get_be32(p + 4);
}

/*
 * SACK bitmap bit @i (0-based) stands for PSN cum_psn + 1 + i. It lives in
 * word i / 64 at bit 63 - i % 64, so on the wire the bitmap reads in PSN
 * order: the most significant bit of the first byte is cum_psn + 1.
 */
static inline u64 mrc_sack_mask(u32 i)
{
	return (u64)1 << (63 - i % 64);
}

/* Whether bit @i is set; bits at or beyond 64 * sack_words are clear. */
static inline bool mrc_sack_test(const struct mrc_ack *ack, u32 i)
{
	if (i >= MRC_SACK_MAX_BITS || i / 64 >= ack->sack_words)
		return false;
	return (ack->sack[i / 64] & mrc_sack_mask(i)) != 0;
}

/*
 * Sets bit @i, growing sack_words to cover it (newly covered words start
 * clear). False, and nothing changed, when @i is beyond what an ACK holds.
 */
static inline bool mrc_sack_set(struct mrc_ack *ack, u32 i)
{
	if (i >= MRC_SACK_MAX_BITS)
		return false;
	while (ack->sack_words <= i / 64)
		ack->sack[ack->sack_words++] = 0;
	ack->sack[i / 64] |= mrc_sack_mask(i);
	return true;
}

/* The PSN that SACK bit @i stands for. */
static inline u32 mrc_sack_psn(const struct mrc_ack *ack, u32 i)
{
	return mrc_psn_add(ack->cum_psn, 1 + i);
}

/*
 * Opcode classes: what an opcode is for, as bits of its entry in the
 * opcode table (mrc_wire.c), so that no code lists opcodes by hand.
 */
enum mrc_opcode_class {
	/* In the requester's PSN sequence, for the responder (RC). */
	MRC_OPC_REQUEST		= 1 << 0,
	/* For the requester: acknowledgements and responses (RC). */
	MRC_OPC_RESPONSE	= 1 << 1,
	/* A request answered with data: READ and the atomics. */
	MRC_OPC_RD_ATOMIC	= 1 << 2,
	/* A request that consumes a receive WQE: SEND and WRITE_IMM. */
	MRC_OPC_CONSUMES_RECV	= 1 << 3,
	/*
	 * Carries a message's bytes on an RC QP: the data DSCP and ECN
	 * when it has any (mrc_xmit.c, congestion.rst).
	 */
	MRC_OPC_DATA		= 1 << 4,
	/* A datagram of a UD or GSI QP. */
	MRC_OPC_DATAGRAM	= 1 << 5,
	/* Path management between two QPs: probes and plane state. */
	MRC_OPC_PATH		= 1 << 6,
	/*
	 * For the device itself, not for a QP: its QPNs, PSN and EV are 0
	 * (the controller's probes, mrc_ep.c).
	 */
	MRC_OPC_DEVICE		= 1 << 7,
};

bool mrc_opcode_valid(u8 opcode);
const char *mrc_opcode_name(u8 opcode);
u32 mrc_opcode_ext(u8 opcode);
bool mrc_opcode_has_payload(u8 opcode);
u8 mrc_opcode_flags(u8 opcode);
u8 mrc_opcode_class(u8 opcode);

/* Whether @opcode is of any class in @classes (MRC_OPC_*). */
static inline bool mrc_opcode_is(u8 opcode, u8 classes)
{
	return mrc_opcode_class(opcode) & classes;
}

size_t mrc_hdr_len(u8 opcode);
size_t mrc_ack_len(u32 sack_words);
size_t mrc_pkt_hdr_len(const struct mrc_pkt *pkt);

enum mrc_drop_reason mrc_pkt_check(const struct mrc_pkt *pkt);
int mrc_encode(u8 *buf, size_t buflen, const struct mrc_pkt *pkt);
int mrc_decode(const u8 *buf, size_t len, struct mrc_pkt *pkt);
bool mrc_peek_request_psn(const u8 *buf, size_t len, u32 *psn);
const char *mrc_drop_reason_name(enum mrc_drop_reason reason);

#endif /* MRC_WIRE_H */
