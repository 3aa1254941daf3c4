// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Writes a pcap of MRC packets of every kind, encoded by the protocol
 * core's own mrc_encode(), and the field values the dissector must show for
 * each frame (as the core's mrc_decode() reads them back), for
 * tools/wireshark/test/run to compare with tshark's output. With --decode,
 * reads a capture instead (pcap, Ethernet, as tshark -F pcap writes it) and
 * writes what the core makes of each MRC frame in it (UDP to PORT, 4791 by
 * default): selftests/mrc/tshark.sh checks real traffic so.
 *
 *   pcap_gen PCAP EXPECT
 *   pcap_gen --decode PCAP EXPECT [PORT]
 *
 * EXPECT has one line per checked field: FRAME<TAB>FIELD<TAB>VALUES, the
 * values comma-separated in wire order, numbers in decimal, empty when the
 * field must be absent. Prints the number of frames it wrote expectations
 * for.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_wire.h"

#define ETH_LEN		14
#define IP4_LEN		20
#define IP6_LEN		40
#define UDP_LEN		8
#define FRAME_MAX	2048
#define LINKTYPE_ETHERNET 1

static FILE *pcap, *expect;
static unsigned int frame;
/* The UDP destination port of the next frames. */
static u16 dport = MRC_UDP_PORT_DEFAULT;

static void die(const char *msg)
{
	fprintf(stderr, "pcap_gen: %s\n", msg);
	exit(1);
}

static void want(const char *field, const char *fmt, ...)
{
	va_list ap;

	fprintf(expect, "%u\t%s\t", frame, field);
	va_start(ap, fmt);
	vfprintf(expect, fmt, ap);
	va_end(ap);
	fputc('\n', expect);
}

static void put_le32(FILE *out, u32 v)
{
	if (fwrite(&v, 4, 1, out) != 1)	/* pcap: the writer's byte order */
		die("write failed");
}

static void pcap_header(void)
{
	put_le32(pcap, 0xa1b2c3d4);
	put_le32(pcap, 2 | 4u << 16);	/* version 2.4 */
	put_le32(pcap, 0);		/* GMT offset */
	put_le32(pcap, 0);		/* timestamp accuracy */
	put_le32(pcap, 65535);		/* snap length */
	put_le32(pcap, LINKTYPE_ETHERNET);
}

static void pcap_record(const u8 *buf, size_t len)
{
	put_le32(pcap, 1764000000 + frame);
	put_le32(pcap, 0);
	put_le32(pcap, (u32)len);
	put_le32(pcap, (u32)len);
	if (fwrite(buf, 1, len, pcap) != len)
		die("write failed");
}

static u32 csum_add(u32 sum, const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += mrc_get_be16(p + i);
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	return sum;
}

static u16 csum_fold(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	return sum ? sum : 0xffff;
}

/* Where the packets go: IPv4, IPv6, or IPv6 to an SRv6 container. */
struct route {
	bool ipv4;
	u8 dst6[16];
	u8 final6[16];	/* the UDP checksum's destination */
};

static const u8 src6[16] = { 0xfc, 0, 0, 0, 0, 1 };

static struct route plain = { false, { 0xfc, 0, 0, 0, 0, 5 },
			      { 0xfc, 0, 0, 0, 0, 5 } };

/* Ethernet, IP and UDP around @mrc_len bytes of MRC already at the end. */
static size_t wrap(u8 *frame_buf, size_t mrc_len, const struct route *rt,
		   u16 sport)
{
	u8 *eth = frame_buf, *ip = eth + ETH_LEN;
	size_t ip_len = rt->ipv4 ? IP4_LEN : IP6_LEN;
	u8 *udp = ip + ip_len;
	u16 udp_len = (u16)(UDP_LEN + mrc_len);
	u32 sum;

	memset(eth, 0, ETH_LEN + ip_len + UDP_LEN);
	memcpy(eth, "\x02\x00\x00\x00\x00\x05\x02\x00\x00\x00\x00\x01", 12);
	mrc_put_be16(udp, sport);
	mrc_put_be16(udp + 2, dport);
	mrc_put_be16(udp + 4, udp_len);
	if (rt->ipv4) {
		mrc_put_be16(eth + 12, 0x0800);
		ip[0] = 0x45;
		ip[1] = 46 << 2;
		mrc_put_be16(ip + 2, (u16)(IP4_LEN + udp_len));
		ip[8] = 64;
		ip[9] = 17;
		memcpy(ip + 12, "\x0a\x00\x80\x01\x0a\x00\x80\x05", 8);
		mrc_put_be16(ip + 10, csum_fold(csum_add(0, ip, IP4_LEN)));
		sum = csum_add(0, ip + 12, 8) + 17 + udp_len;
	} else {
		mrc_put_be16(eth + 12, 0x86dd);
		ip[0] = 0x60 | 10 >> 2;
		mrc_put_be16(ip + 4, udp_len);
		ip[6] = 17;
		ip[7] = 64;
		memcpy(ip + 8, src6, 16);
		memcpy(ip + 24, rt->dst6, 16);
		sum = csum_add(0, src6, 16) + csum_add(0, rt->final6, 16) +
		      17 + udp_len;
	}
	mrc_put_be16(udp + 6, csum_fold(csum_add(sum, udp, udp_len)));
	return ETH_LEN + ip_len + udp_len;
}

static void want_u(const char *field, unsigned long long v)
{
	want(field, "%llu", v);
}

/* What the dissector must show of a packet the core decodes. */
static void want_fields(const struct mrc_pkt *p)
{
	u32 ext = p->ext, i, last = 0;
	bool any = false;

	want_u("mrc.version", MRC_WIRE_VERSION);
	want_u("mrc.opcode", p->hdr.opcode);
	want_u("mrc.flags", p->hdr.flags);
	want_u("mrc.flags.ack_req", !!(p->hdr.flags & MRC_F_ACK_REQ));
	want_u("mrc.flags.solicited", !!(p->hdr.flags & MRC_F_SOLICITED));
	want_u("mrc.flags.retransmit", !!(p->hdr.flags & MRC_F_RETRANSMIT));
	want_u("mrc.flags.trimmed", !!(p->hdr.flags & MRC_F_TRIMMED));
	want_u("mrc.dqpn", p->hdr.dqpn);
	want_u("mrc.sqpn", p->hdr.sqpn);
	want_u("mrc.psn", p->hdr.psn);
	want_u("mrc.ev", p->hdr.ev);
	want_u("mrc.ts", p->hdr.ts);
	want_u("mrc.payload_len", p->hdr.payload_len);
	want_u("mrc.hdr_len", p->payload_off);
	want("mrc.reserved", "");
	want("mrc.drop_reason", "");
	if (mrc_opcode_has_payload(p->hdr.opcode)) {
		want_u("mrc.payload_present", p->payload_present);
		want_u("mrc.trimmed", p->trimmed);
	} else {
		want("mrc.payload_present", "");
		want("mrc.trimmed", "");
	}
	if (ext & MRC_EXT_MSGH) {
		want_u("mrc.msn", p->msgh.msn);
		want_u("mrc.offset", p->msgh.offset);
		want_u("mrc.length", p->msgh.length);
	} else {
		want("mrc.msn", "");
	}
	if (ext & MRC_EXT_RADDR) {
		want_u("mrc.va", p->raddr.va);
		want_u("mrc.rkey", p->raddr.rkey);
	} else {
		want("mrc.va", "");
		want("mrc.rkey", "");
	}
	if (ext & MRC_EXT_IMM)
		want_u("mrc.imm", p->imm);
	else
		want("mrc.imm", "");
	if (ext & MRC_EXT_IETH)
		want_u("mrc.inv_rkey", p->inv_rkey);
	else
		want("mrc.inv_rkey", "");
	if (ext & MRC_EXT_ATOMIC) {
		want_u("mrc.swap_or_add", p->atomic.swap_or_add);
		want_u("mrc.compare", p->atomic.compare);
	} else {
		want("mrc.swap_or_add", "");
	}
	if (ext & MRC_EXT_ORIG)
		want_u("mrc.orig", p->orig);
	else
		want("mrc.orig", "");
	if (ext & MRC_EXT_DETH)
		want_u("mrc.qkey", p->qkey);
	else
		want("mrc.qkey", "");
	if (ext & MRC_EXT_PROBE) {
		want_u("mrc.probe.id", p->probe.id);
		want_u("mrc.probe.ts", p->probe.ts);
		want_u("mrc.probe.ev", p->probe.ev);
	} else {
		want("mrc.probe.id", "");
	}
	if (ext & MRC_EXT_EP_PROBE) {
		want_u("mrc.ep_probe.cookie", p->ep_probe.cookie);
		want_u("mrc.ep_probe.ts", p->ep_probe.ts);
		want_u("mrc.ep_probe.plane", p->ep_probe.plane);
		want_u("mrc.ep_probe.svc_ns", p->ep_probe.svc_ns);
		if (p->hdr.opcode == MRC_OP_EP_PORT_STATUS ||
		    p->hdr.opcode == MRC_OP_EP_PORT_STATUS_REPLY) {
			want_u("mrc.ep_probe.n_ports", p->ep_probe.n_planes);
			want_u("mrc.ep_probe.up_mask", p->ep_probe.up_mask);
		} else {
			want("mrc.ep_probe.n_ports", "");
		}
	} else {
		want("mrc.ep_probe.cookie", "");
	}
	if (ext & MRC_EXT_PLANES) {
		char down[64] = "";

		want_u("mrc.planes.seq", p->plane_state.seq);
		want_u("mrc.planes.n_planes", p->plane_state.n_planes);
		want_u("mrc.planes.down_mask", p->plane_state.down_mask);
		for (i = 0; i < MRC_WIRE_MAX_PLANES; i++)
			if (p->plane_state.down_mask & 1u << i)
				snprintf(down + strlen(down),
					 sizeof(down) - strlen(down), "%s%u",
					 *down ? "," : "", i);
		want("mrc.planes.down", "%s", down);
	} else {
		want("mrc.planes.seq", "");
	}
	if (!(ext & MRC_EXT_ACK)) {
		want("mrc.ack.cum_psn", "");
		want("mrc.sack.psn", "");
		return;
	}
	want_u("mrc.ack.cum_psn", p->ack.cum_psn);
	want_u("mrc.ack.ev_echo", p->ack.ev_echo);
	want_u("mrc.ack.ts_echo", p->ack.ts_echo);
	want_u("mrc.ack.msn", p->ack.msn);
	want_u("mrc.ack.syndrome", p->ack.syndrome);
	want_u("mrc.ack.rnr_timer", p->ack.rnr_timer);
	want_u("mrc.ack.flags", p->ack.flags);
	want_u("mrc.ack.flags.ecn_ce", p->ack.flags & MRC_ACK_F_ECN_CE);
	want_u("mrc.ack.sack_words", p->ack.sack_words);
	want_u("mrc.ack.nak_psn", p->ack.nak_psn);
	{
		char words[128] = "", psns[4096] = "", missing[4096] = "";
		u32 count = 0;

		for (i = 0; i < p->ack.sack_words; i++)
			snprintf(words + strlen(words),
				 sizeof(words) - strlen(words), "%s%llu",
				 i ? "," : "",
				 (unsigned long long)p->ack.sack[i]);
		for (i = 0; i < MRC_SACK_MAX_BITS; i++) {
			if (!mrc_sack_test(&p->ack, i))
				continue;
			snprintf(psns + strlen(psns),
				 sizeof(psns) - strlen(psns), "%s%u",
				 count ? "," : "", mrc_sack_psn(&p->ack, i));
			count++;
			last = i;
			any = true;
		}
		for (i = 0; any && i < last; i++)
			if (!mrc_sack_test(&p->ack, i))
				snprintf(missing + strlen(missing),
					 sizeof(missing) - strlen(missing),
					 "%s%u", *missing ? "," : "",
					 mrc_sack_psn(&p->ack, i));
		want("mrc.sack.word", "%s", words);
		want("mrc.sack.psn", "%s", psns);
		want("mrc.sack.missing", "%s", missing);
		if (p->ack.sack_words)
			want_u("mrc.sack.count", count);
		else
			want("mrc.sack.count", "");
	}
}

/*
 * Encodes @p with @payload_len payload bytes, of which @present are sent
 * (fewer: a trimming switch cut them), through @rt; then applies @poke
 * (offset, value; offset < 0: none) to make a packet the core refuses.
 * The frame's expectation is what mrc_decode() makes of the bytes.
 */
static void emit_poked(const struct mrc_pkt *p, u32 present,
		       const struct route *rt, int poke_off, u8 poke_val,
		       int cut_to)
{
	u8 buf[FRAME_MAX];
	size_t ip_len = rt->ipv4 ? IP4_LEN : IP6_LEN;
	u8 *mrc = buf + ETH_LEN + ip_len + UDP_LEN;
	size_t room = sizeof(buf) - (size_t)(mrc - buf);
	struct mrc_pkt got;
	int len, ret;
	u32 i;

	len = mrc_encode(mrc, room, p);
	if (len < 0)
		die("mrc_encode refused a test packet");
	if ((size_t)len + present > room)
		die("test packet too long");
	for (i = 0; i < present; i++)
		mrc[len + i] = (u8)(i * 7 + frame);
	len += (int)present;
	if (poke_off >= 0)
		mrc[poke_off] = poke_val;
	if (cut_to >= 0)
		len = cut_to;
	frame++;
	pcap_record(buf, wrap(buf, (size_t)len, rt,
			      (u16)(0xc000 | (p->hdr.ev & 0x3fff))));

	ret = mrc_decode(mrc, (size_t)len, &got);
	if (ret < 0) {
		want_u("mrc.opcode", p->hdr.opcode);
		want("mrc.drop_reason", "%s",
		     mrc_drop_reason_name((enum mrc_drop_reason)-ret));
		return;
	}
	if (poke_off >= 0 || cut_to >= 0)
		die("a poked packet still decodes");
	if (memcmp(&got.hdr, &p->hdr, sizeof(got.hdr)))
		die("mrc_decode does not give back the encoded header");
	want_fields(&got);
}

/* The expectations of a frame whose MRC bytes (@len, UDP's) are @mrc. */
static void expect_decoded(const u8 *mrc, size_t len)
{
	struct mrc_pkt got;
	int ret = mrc_decode(mrc, len, &got);

	if (ret < 0) {
		want_u("mrc.opcode", len > 1 ? mrc[1] : 0);
		want("mrc.drop_reason", "%s",
		     mrc_drop_reason_name((enum mrc_drop_reason)-ret));
		return;
	}
	want_fields(&got);
}

static u32 get_host32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * The MRC bytes of an Ethernet frame of UDP to @port, or NULL. A capture
 * may hold less than the frame (a snap length): the rest reads as zeros,
 * which mrc_decode() does not look at beyond the headers.
 */
static const u8 *mrc_of_frame(const u8 *f, size_t caplen, size_t origlen,
			      u16 port, size_t *mrc_len)
{
	static u8 frame_buf[65536 + 64];
	size_t l3 = ETH_LEN, l4;
	const u8 *udp;
	u16 type;

	if (origlen > sizeof(frame_buf) || caplen > origlen ||
	    caplen < ETH_LEN + IP4_LEN + UDP_LEN)
		return NULL;
	memset(frame_buf, 0, origlen);
	memcpy(frame_buf, f, caplen);
	f = frame_buf;
	type = mrc_get_be16(f + 12);
	if (type == 0x8100) {		/* one VLAN tag */
		type = mrc_get_be16(f + 16);
		l3 += 4;
	}
	if (type == 0x0800 && f[l3 + 9] == 17)
		l4 = l3 + (size_t)(f[l3] & 0x0f) * 4;
	else if (type == 0x86dd && f[l3 + 6] == 17)
		l4 = l3 + IP6_LEN;
	else
		return NULL;
	if (l4 + UDP_LEN > origlen)
		return NULL;
	udp = f + l4;
	if (mrc_get_be16(udp + 2) != port || mrc_get_be16(udp + 4) < UDP_LEN ||
	    l4 + mrc_get_be16(udp + 4) > origlen)
		return NULL;
	*mrc_len = mrc_get_be16(udp + 4) - UDP_LEN;
	return udp + UDP_LEN;
}

static int decode_capture(const char *path, u16 port)
{
	FILE *in = fopen(path, "rb");
	static u8 rec[65536 + 64];
	u8 hdr[24];
	unsigned int mrc_frames = 0;

	if (!in || fread(hdr, sizeof(hdr), 1, in) != 1)
		die("cannot read the capture");
	if ((get_host32(hdr) != 0xa1b2c3d4 && get_host32(hdr) != 0xa1b23c4d) ||
	    get_host32(hdr + 20) != LINKTYPE_ETHERNET)
		die("not a pcap of Ethernet in this host's byte order (tshark -F pcap)");
	while (fread(hdr, 16, 1, in) == 1) {
		u32 caplen = get_host32(hdr + 8), origlen = get_host32(hdr + 12);
		const u8 *mrc;
		size_t len;

		if (caplen > sizeof(rec) || fread(rec, 1, caplen, in) != caplen)
			die("truncated capture");
		frame++;
		mrc = mrc_of_frame(rec, caplen, origlen, port, &len);
		/* Not version 1: RoCEv2, which shares the default port. */
		if (!mrc || len < 1 || mrc[0] >> MRC_VERSION_SHIFT !=
		    MRC_WIRE_VERSION)
			continue;
		expect_decoded(mrc, len);
		mrc_frames++;
	}
	fclose(in);
	if (fclose(expect))
		die("cannot write the expectations");
	printf("%u\n", mrc_frames);
	return 0;
}

static void emit(const struct mrc_pkt *p, u32 present)
{
	emit_poked(p, present, &plain, -1, 0, -1);
}

static void base(struct mrc_pkt *p, u8 opcode, u8 flags, u32 psn)
{
	memset(p, 0, sizeof(*p));
	p->hdr.opcode = opcode;
	p->hdr.flags = flags;
	p->hdr.dqpn = 0xabcdef;
	p->hdr.sqpn = 0x123456;
	p->hdr.psn = psn;
	p->hdr.ev = 0x01020304 + psn;
	p->hdr.ts = 0xa1b2c3d4 + psn;
}

static void data(struct mrc_pkt *p, u8 opcode, u8 flags, u32 psn,
		 u32 offset, u32 length, u16 payload)
{
	base(p, opcode, flags, psn);
	p->hdr.payload_len = payload;
	p->msgh.msn = 7 + psn;
	p->msgh.offset = offset;
	p->msgh.length = length;
	p->raddr.va = 0xffee000012345678ull;
	p->raddr.rkey = 0x0badf00d;
	p->imm = 0xcafef00d;
}

static void ack(struct mrc_pkt *p, u8 opcode, u32 cum, u8 syndrome,
		u8 rnr, u32 nak_psn)
{
	base(p, opcode, 0, cum + 3);
	p->ack.cum_psn = cum;
	p->ack.ev_echo = 0x00c0ffee;
	p->ack.ts_echo = 0x10203040;
	p->ack.msn = 0x7fffffff;
	p->ack.syndrome = syndrome;
	p->ack.rnr_timer = rnr;
	p->ack.nak_psn = nak_psn;
}

int main(int argc, char **argv)
{
	static const u8 syndromes[] = {
		MRC_NAK_TRIMMED, MRC_NAK_RNR, MRC_NAK_REMOTE_ACCESS_ERROR,
		MRC_NAK_INVALID_REQUEST, MRC_NAK_REMOTE_OP_ERROR,
		MRC_NAK_PSN_SEQ_ERROR,
	};
	struct route v4 = { .ipv4 = true };
	/* h1 to h5 over plane 1 (Documentation/fabric.rst) */
	struct route srv6 = {
		false,
		{ 0xfc, 0, 0, 0, 0x11, 0x01, 0x21, 0x02, 0x11, 0x02, 0, 5 },
		{ 0xfc, 0, 0, 0, 0, 5 },
	};
	struct mrc_pkt p;
	u32 i;

	if (argc >= 4 && argc <= 5 && !strcmp(argv[1], "--decode")) {
		expect = fopen(argv[3], "w");
		if (!expect)
			die("cannot open the expectations");
		return decode_capture(argv[2], argc == 5 ?
				      (u16)atoi(argv[4]) : MRC_UDP_PORT_DEFAULT);
	}
	if (argc != 3)
		die("usage: pcap_gen PCAP EXPECT | --decode PCAP EXPECT [PORT]");
	pcap = fopen(argv[1], "wb");
	expect = fopen(argv[2], "w");
	if (!pcap || !expect)
		die("cannot open the output files");
	pcap_header();

	/* Every opcode with payload, every flag it may carry. */
	data(&p, MRC_OP_WRITE, MRC_F_ACK_REQ | MRC_F_RETRANSMIT, 0xfedcba,
	     0x1000, 0x2000, 1024);
	emit(&p, 1024);
	data(&p, MRC_OP_WRITE_IMM, MRC_F_SOLICITED | MRC_F_ACK_REQ, 1, 0, 100,
	     100);
	emit(&p, 100);
	data(&p, MRC_OP_SEND, 0, 2, 4096, 8192, 1000);
	emit(&p, 1000);
	data(&p, MRC_OP_SEND, MRC_F_ACK_REQ, 3, 0, 0, 0);	/* empty */
	emit(&p, 0);
	data(&p, MRC_OP_SEND_IMM, MRC_F_SOLICITED, 4, 0, 10, 10);
	emit(&p, 10);
	data(&p, MRC_OP_SEND_INV, MRC_F_SOLICITED | MRC_F_ACK_REQ, 0x100, 0, 64,
	     64);
	p.inv_rkey = 0x0012349c;
	emit(&p, 64);
	data(&p, MRC_OP_READ_REQ, MRC_F_ACK_REQ, 5, 0x100, 0x10000, 0);
	emit(&p, 0);
	data(&p, MRC_OP_READ_RESP, MRC_F_RETRANSMIT, 6, 0x100, 0x10100, 512);
	emit(&p, 512);

	/* The atomics and their response. */
	data(&p, MRC_OP_ATOMIC_CMP_SWAP, MRC_F_ACK_REQ, 7, 0, 8, 0);
	p.atomic.swap_or_add = 0x8877665544332211ull;
	p.atomic.compare = 0x0102030405060708ull;
	emit(&p, 0);
	data(&p, MRC_OP_ATOMIC_FETCH_ADD, 0, 8, 0, 8, 0);
	p.atomic.swap_or_add = 42;
	emit(&p, 0);
	data(&p, MRC_OP_ATOMIC_RESP, MRC_F_RETRANSMIT, 9, 0, 8, 0);
	p.orig = 0xdeadbeefcafebabeull;
	emit(&p, 0);

	/* ACKs: no SACK, CE-marked; four SACK words across the PSN wrap. */
	ack(&p, MRC_OP_ACK, 100, MRC_SYN_ACK, 0, 0);
	p.ack.flags = MRC_ACK_F_ECN_CE;
	emit(&p, 0);
	ack(&p, MRC_OP_ACK, 0xfffffe, MRC_SYN_ACK, 0, 0);
	p.hdr.psn = 0x40;
	for (i = 0; i < MRC_SACK_MAX_BITS; i += 1 + i / 3)
		mrc_sack_set(&p.ack, i);
	mrc_sack_set(&p.ack, MRC_SACK_MAX_BITS - 1);
	emit(&p, 0);

	/* Every NAK syndrome, one with SACK words. */
	for (i = 0; i < sizeof(syndromes); i++) {
		ack(&p, MRC_OP_NAK, 200 + i, syndromes[i],
		    syndromes[i] == MRC_NAK_RNR ? 14 : 0, 205 + i);
		if (i == 0) {
			mrc_sack_set(&p.ack, 0);
			mrc_sack_set(&p.ack, 9);
			mrc_sack_set(&p.ack, 64);
		}
		emit(&p, 0);
	}

	/* Path management: probes and plane state. */
	base(&p, MRC_OP_PROBE, 0, 0);
	p.probe.id = 0x50524f42;
	p.probe.ts = 123456789;
	p.probe.ev = 0x0000c123;
	emit(&p, 0);
	p.hdr.opcode = MRC_OP_PROBE_REPLY;
	emit(&p, 0);
	base(&p, MRC_OP_PLANE_STATE, 0, 0);
	p.plane_state.seq = 0x80000003;
	p.plane_state.n_planes = 4;
	p.plane_state.down_mask = 0x05;
	emit(&p, 0);
	p.hdr.opcode = MRC_OP_PLANE_STATE_ACK;
	p.plane_state.n_planes = 8;
	p.plane_state.down_mask = 0x7f;
	emit(&p, 0);

	/* The controller's probes: for the device, no QP, PSN or EV. */
	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_EP_PROBE;
	p.hdr.ts = 0xa1b2c3d4;
	p.ep_probe.cookie = 0x0007002a;
	p.ep_probe.ts = 123456789;
	p.ep_probe.plane = 1;
	emit(&p, 0);
	p.hdr.opcode = MRC_OP_EP_PROBE_REPLY;
	p.ep_probe.plane = 7;
	p.ep_probe.svc_ns = 4321;
	emit(&p, 0);
	/* Port status: ports 1 and 3 of 4 up, and its answer. */
	p.hdr.opcode = MRC_OP_EP_PORT_STATUS;
	p.ep_probe.plane = 0;
	p.ep_probe.svc_ns = 0;
	p.ep_probe.n_planes = 4;
	p.ep_probe.up_mask = 0x05;
	emit(&p, 0);
	p.hdr.opcode = MRC_OP_EP_PORT_STATUS_REPLY;
	p.ep_probe.plane = 2;
	p.ep_probe.svc_ns = 999;
	emit(&p, 0);

	/* Datagrams. */
	base(&p, MRC_OP_UD_SEND, 0, 11);
	p.hdr.dqpn = 1;
	p.hdr.payload_len = 256;
	p.qkey = 0x80010000;
	emit(&p, 256);
	base(&p, MRC_OP_UD_SEND_IMM, MRC_F_SOLICITED, 12);
	p.hdr.payload_len = 0;
	p.qkey = 0x11111111;
	p.imm = 0x01020304;
	emit(&p, 0);

	/*
	 * Trimmed packets: cut to their headers with TRIMMED set, as the
	 * lab's switch does; cut by a switch that did not set the flag; and
	 * flagged without a cut (too short to cut).
	 */
	data(&p, MRC_OP_WRITE_IMM, MRC_F_TRIMMED | MRC_F_ACK_REQ, 13, 0x400,
	     0x800, 1024);
	emit(&p, 0);
	data(&p, MRC_OP_SEND, 0, 14, 0, 2048, 1024);
	emit(&p, 8);
	data(&p, MRC_OP_READ_RESP, MRC_F_TRIMMED, 15, 0, 20, 20);
	emit(&p, 20);

	/* Over IPv4, and over IPv6 to an SRv6 uSID container. */
	data(&p, MRC_OP_WRITE, 0, 16, 0, 64, 64);
	emit_poked(&p, 64, &v4, -1, 0, -1);
	data(&p, MRC_OP_SEND, MRC_F_ACK_REQ, 17, 0, 64, 64);
	emit_poked(&p, 64, &srv6, -1, 0, -1);
	want("mrc.srv6.block", "fc000000");
	want("mrc.srv6.usid", "%u,%u,%u,%u", 0x1101, 0x2102, 0x1102, 5);
	want("mrc.srv6.final_dst", "fc00:0:5::");

	/* On another port: found by the heuristic dissector. */
	dport = 5000;
	data(&p, MRC_OP_SEND_IMM, 0, 23, 0, 4, 4);
	emit(&p, 4);
	dport = MRC_UDP_PORT_DEFAULT;

	/*
	 * A RoCEv2 packet on the shared port (an RC SEND_ONLY: BTH, 16 bytes,
	 * ICRC) stays Wireshark's InfiniBand dissector's.
	 */
	{
		static const u8 roce[] = {
			0x04, 0x40, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
			0x80, 0x00, 0x00, 0x05,
			1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
			0xde, 0xad, 0xbe, 0xef,
		};
		u8 buf[FRAME_MAX];
		u8 *bth = buf + ETH_LEN + IP6_LEN + UDP_LEN;

		memcpy(bth, roce, sizeof(roce));
		frame++;
		pcap_record(buf, wrap(buf, sizeof(roce), &plain, 0xc000));
		want("mrc.opcode", "");
		want("infiniband.bth.opcode", "4");
		want("infiniband.bth.destqp", "17");
	}

	/* Packets the core refuses, each for its own reason. */
	data(&p, MRC_OP_WRITE, 0, 18, 0, 64, 64);
	emit_poked(&p, 64, &plain, 28, 1, -1);		/* reserved_set */
	data(&p, MRC_OP_READ_REQ, 0, 19, 0, 64, 0);
	emit_poked(&p, 0, &plain, 2, MRC_F_SOLICITED, -1);	/* bad_flags */
	data(&p, MRC_OP_WRITE, 0, 20, 0, 64, 64);
	emit_poked(&p, 64, &plain, -1, 0, 40);		/* too_short */
	ack(&p, MRC_OP_NAK, 1, MRC_NAK_TRIMMED, 0, 1);
	emit_poked(&p, 0, &plain, 48, 7, -1);		/* bad_syndrome */
	ack(&p, MRC_OP_ACK, 1, MRC_SYN_ACK, 0, 0);
	emit_poked(&p, 0, &plain, 51, 5, -1);		/* bad_sack */
	base(&p, MRC_OP_PLANE_STATE, 0, 0);
	p.plane_state.seq = 1;
	p.plane_state.n_planes = 2;
	emit_poked(&p, 0, &plain, 37, 3, -1);		/* bad_planes */
	data(&p, MRC_OP_SEND, 0, 21, 0, 64, 32);
	emit_poked(&p, 40, &plain, -1, 0, -1);		/* bad_length */
	data(&p, MRC_OP_SEND, 0, 22, 0, 64, 32);
	emit_poked(&p, 32, &plain, 39, 60, -1);		/* bad_offset */
	memset(&p, 0, sizeof(p));
	p.hdr.opcode = MRC_OP_EP_PROBE;
	emit_poked(&p, 0, &plain, 7, 1, -1);		/* reserved_set: dqpn */
	emit_poked(&p, 0, &plain, 40, 9, -1);		/* bad_planes */
	emit_poked(&p, 0, &plain, 41, 1, -1);		/* reserved_set: ports */
	p.hdr.opcode = MRC_OP_EP_PORT_STATUS;
	p.ep_probe.n_planes = 2;
	p.ep_probe.up_mask = 1;
	emit_poked(&p, 0, &plain, 42, 0, -1);		/* bad_planes: none up */
	emit_poked(&p, 0, &plain, 42, 4, -1);		/* bad_planes: port 3 */

	if (fclose(pcap) || fclose(expect))
		die("cannot write the output files");
	printf("%u\n", frame);
	return 0;
}
