// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc_trim: a shallow-buffer, trimming switch port for the lab fabric, as a
 * tc egress (clsact) program. Documentation/congestion.rst describes it.
 *
 * Each port it is attached to models the output queue of MRC's data class
 * (UDP to the configured port), drained at a given rate: a virtual queue
 * (the time its last byte leaves) decides, packet by packet, and the
 * packet's departure time goes into skb->tstamp so that the fq qdisc (root
 * of the port) sends it then (earliest departure time). A packet that
 * would push the queue past its limit is
 *   - trimmed, when it carries the trimmable DSCP: cut to its headers
 *     (IP + UDP + `keep` bytes of MRC header; a packet no longer than that
 *     keeps its bytes), lengths and UDP checksum fixed, MRC TRIMMED flag
 *     set, re-marked with the trimmed DSCP and sent at once at priority
 *     `prio` (no EDT delay, not counted in the queue: the priority class);
 *   - dropped otherwise.
 * A packet that already carries the trimmed DSCP (the priority class:
 * MRC's ACKs, NAKs and probes) also leaves at once, outside the queue, and
 * so does everything that is not MRC (neighbour discovery, ARP, other
 * traffic): a switch keeps its control plane out of the data class.
 * An ECN-capable packet that finds more than `ecn` bytes queued is marked
 * CE. Counters per port: forwarded, trimmed, dropped, marked, other (not
 * MRC: passed outside the queue), and of the forwarded packets those that
 * are whole MRC data (below): their number, their bytes on the wire and
 * their payload bytes, the goodput the port delivered.
 *
 * Everything is keyed by the egress ifindex, so one loaded program serves
 * every port; tools/trim/mrc-trim writes the configuration and reads the
 * counters through the pinned maps.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define NSEC_PER_SEC		1000000000ull
/* Most UDP payload bytes a trimmed packet may keep (stack budget). */
#define MAX_KEEP		256
#define MRC_VERSION		1
#define MRC_FLAGS_OFFSET	2
#define MRC_FLAG_TRIMMED	0x08
#define MRC_PAYLOAD_LEN_OFFSET	24
#define MRC_BASE_HDR_LEN	32
/* Opcodes of packets with payload (Documentation/wire-format.rst). */
#define MRC_OP_WRITE		0x01
#define MRC_OP_WRITE_IMM	0x02
#define MRC_OP_SEND		0x03
#define MRC_OP_SEND_IMM		0x04
#define MRC_OP_READ_RESP	0x06
#define MRC_OP_SEND_INV		0x0a
#define MRC_OP_UD_SEND		0x30
#define MRC_OP_UD_SEND_IMM	0x31
#define IP_ECN_MASK		0x03
#define IP_ECN_CE		0x03

/* Layouts shared with tools/trim/mrc-trim (which packs them by hand). */
struct trim_cfg {
	__u64 rate;		/* bytes per second; 0: no queue model */
	__u32 queue;		/* queue limit, bytes */
	__u32 ecn;		/* mark CE above this many bytes; 0: never */
	__u16 port;		/* MRC UDP destination port */
	__u16 keep;		/* UDP payload bytes a trimmed packet keeps */
	__u8 dscp;		/* trimmable codepoint */
	__u8 trimmed_dscp;	/* codepoint of trimmed packets */
	__u8 pad[2];
	__u32 prio;		/* skb->priority of trimmed packets */
	/*
	 * SRv6 uSID block (F3216: 32 bits, then 16-bit uSIDs), as it is on
	 * the wire; 0: none. An IPv6 destination in it is a uSID container
	 * whose final destination is the block and its last uSID.
	 */
	__u32 usid_block;
};

struct port_queue {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 tail;		/* ns (CLOCK_MONOTONIC): queue empty again */
};

struct port_stats {
	__u64 forwarded;
	__u64 trimmed;
	__u64 dropped;
	__u64 marked;
	__u64 other;
	/*
	 * Of the forwarded: MRC data packets with payload that no switch
	 * trimmed, their bytes as the port sends them (Ethernet header
	 * included, as the rate counts them) and the payload they carry
	 * (the header's payload_len). Appended: mrc-trim reads the fields
	 * in this order.
	 */
	__u64 data_packets;
	__u64 data_bytes;
	__u64 payload_bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct trim_cfg);
} trim_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct port_queue);
} trim_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct port_stats);
} trim_stats SEC(".maps");

/* What the parser learned of one packet. */
struct pkt_info {
	__u32 udp_off;		/* 0: not UDP */
	__u16 dport;
	__u8 ipv6;
	__u8 dscp;
	__u8 ecn;
	__u8 l3_hlen;
};

static __always_inline int parse(struct __sk_buff *skb, struct pkt_info *pi)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct udphdr *udp;

	if ((void *)(eth + 1) > end)
		return -1;
	if (eth->h_proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = (void *)(eth + 1);

		if ((void *)(ip + 1) > end || ip->ihl < 5)
			return -1;
		pi->dscp = ip->tos >> 2;
		pi->ecn = ip->tos & IP_ECN_MASK;
		pi->l3_hlen = ip->ihl * 4;
		/* A fragment's payload is not a UDP header. */
		if (ip->protocol != IPPROTO_UDP ||
		    (ip->frag_off & bpf_htons(0x3fff)))
			return 0;
	} else if (eth->h_proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) > end)
			return -1;
		pi->ipv6 = 1;
		pi->dscp = ((ip6->priority << 4) | (ip6->flow_lbl[0] >> 4)) >> 2;
		pi->ecn = (ip6->flow_lbl[0] >> 4) & IP_ECN_MASK;
		pi->l3_hlen = sizeof(*ip6);
		/* Extension headers: not something MRC sends; not trimmed. */
		if (ip6->nexthdr != IPPROTO_UDP)
			return 0;
	} else {
		return -1;
	}
	udp = data + sizeof(*eth) + pi->l3_hlen;
	if ((void *)(udp + 1) > end)
		return 0;
	pi->udp_off = sizeof(*eth) + pi->l3_hlen;
	pi->dport = bpf_ntohs(udp->dest);
	return 0;
}

/*
 * Rewrites the DSCP and/or ECN bits (new_tos is the whole 8-bit traffic
 * class), fixing the IPv4 header checksum.
 */
static __always_inline int set_tos(struct __sk_buff *skb,
				   const struct pkt_info *pi, __u8 new_tos)
{
	if (!pi->ipv6) {
		__u32 off = sizeof(struct ethhdr);
		__u16 old_word, new_word;

		/* Version/IHL and TOS share one 16-bit checksum word. */
		if (bpf_skb_load_bytes(skb, off, &old_word, 2))
			return -1;
		new_word = old_word;
		((__u8 *)&new_word)[1] = new_tos;
		if (bpf_l3_csum_replace(skb, off + offsetof(struct iphdr, check),
					old_word, new_word, 2))
			return -1;
		return bpf_skb_store_bytes(skb, off, &new_word, 2, 0);
	} else {
		__u32 off = sizeof(struct ethhdr);
		__u32 word;

		/* Version (4), traffic class (8), flow label (20). */
		if (bpf_skb_load_bytes(skb, off, &word, 4))
			return -1;
		word = bpf_ntohl(word);
		word = (word & 0xf00fffff) | ((__u32)new_tos << 20);
		word = bpf_htonl(word);
		return bpf_skb_store_bytes(skb, off, &word, 4, 0);
	}
}

static __always_inline __u16 csum_fold(__s64 sum)
{
	__u32 s = (__u32)sum;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

/*
 * SRv6 without SRH (Documentation/fabric.rst): a destination in the uSID
 * block is a container, block:uSID1:uSID2:...:0, that each switch on the
 * way shifts left by one uSID; the last one is the final destination,
 * block:uSID::, the address the sender's UDP checksum covers. Anywhere
 * but the last hop the header still holds more uSIDs: @daddr (16 bytes)
 * becomes that final destination. @block: the first 4 bytes, as on the
 * wire.
 */
static __always_inline void usid_final_destination(__u8 *daddr, __u32 block)
{
	__u16 *usid = (__u16 *)&daddr[4];
	__u16 last = 0;
	int i;

	if (*(__u32 *)daddr != block)
		return;
	/* uSIDs follow one another; the first zero ends the container. */
	for (i = 0; i < 6; i++) {
		if (!usid[i])
			break;
		last = usid[i];
	}
	if (!last)
		return;
	usid[0] = last;
	for (i = 1; i < 6; i++)
		usid[i] = 0;
}

/*
 * The UDP checksum of the trimmed packet, from scratch: pseudo-header
 * (IPv6: against the final destination), UDP header (checksum 0), the
 * kept payload. @plen: pseudo-header bytes (12 for IPv4, 40 for IPv6), a
 * constant at each call site.
 */
static __always_inline int udp_checksum(struct __sk_buff *skb,
					const struct trim_cfg *cfg,
					const struct pkt_info *pi, __u32 plen,
					__u32 keep, __u16 *csum)
{
	__u8 buf[40 + sizeof(struct udphdr) + MAX_KEEP];
	__u32 l3 = sizeof(struct ethhdr);
	__u16 udp_len = sizeof(struct udphdr) + keep;
	__s64 sum;

	__builtin_memset(buf, 0, sizeof(buf));
	if (plen == 12) {
		/* saddr, daddr, zero, protocol, UDP length */
		if (bpf_skb_load_bytes(skb, l3 + offsetof(struct iphdr, saddr),
				       buf, 8))
			return -1;
		buf[9] = IPPROTO_UDP;
		*(__u16 *)&buf[10] = bpf_htons(udp_len);
	} else {
		/* saddr, daddr, 32-bit length, zeros, next header */
		if (bpf_skb_load_bytes(skb,
				       l3 + offsetof(struct ipv6hdr, saddr),
				       buf, 32))
			return -1;
		if (cfg->usid_block)
			usid_final_destination(&buf[16], cfg->usid_block);
		*(__u32 *)&buf[32] = bpf_htonl(udp_len);
		buf[39] = IPPROTO_UDP;
	}
	if (bpf_skb_load_bytes(skb, pi->udp_off, &buf[plen], 6))
		return -1;
	/* buf[plen + 6 .. plen + 8): the checksum itself, zero. */
	if (keep < 4 || keep > MAX_KEEP)
		return -1;
	if (bpf_skb_load_bytes(skb, pi->udp_off + sizeof(struct udphdr),
			       &buf[plen + sizeof(struct udphdr)], keep))
		return -1;
	sum = bpf_csum_diff(0, 0, (void *)buf,
			    plen + sizeof(struct udphdr) + keep, 0);
	if (sum < 0)
		return -1;
	*csum = csum_fold(sum);
	/* 0 means "no checksum" (and is invalid over IPv6): send all ones. */
	if (!*csum)
		*csum = 0xffff;
	return 0;
}

/*
 * A trimmable packet no longer than a trimmed one (a short WRITE or SEND,
 * the tail of a message): nothing to cut, but it is trimmed all the same,
 * so that the receiver asks for it at once as for any other packet the
 * congested port could not queue; dropping it would leave its loss to be
 * found by the sender (a timeout, when it was the last of its burst). It
 * keeps its bytes; the TRIMMED flag (an incremental checksum update, valid
 * at any hop) and the trimmed DSCP say what happened. MRC version 1 only:
 * nothing else would tell the receiver. 0 on success.
 */
static __always_inline int trim_in_place(struct __sk_buff *skb,
					 const struct trim_cfg *cfg,
					 const struct pkt_info *pi)
{
	__u32 off = pi->udp_off + sizeof(struct udphdr);
	__u16 old_word, new_word;
	__u8 b;

	if (bpf_skb_load_bytes(skb, off, &b, 1) || (b >> 4) != MRC_VERSION)
		return -1;
	/* The flags byte and the byte after it: one checksum word. */
	if (bpf_skb_load_bytes(skb, off + MRC_FLAGS_OFFSET, &old_word, 2))
		return -1;
	new_word = old_word;
	((__u8 *)&new_word)[0] |= MRC_FLAG_TRIMMED;
	if (bpf_l4_csum_replace(skb, pi->udp_off + offsetof(struct udphdr, check),
				old_word, new_word,
				BPF_F_MARK_MANGLED_0 | sizeof(new_word)))
		return -1;
	if (bpf_skb_store_bytes(skb, off + MRC_FLAGS_OFFSET, &new_word, 2, 0))
		return -1;
	return set_tos(skb, pi, (cfg->trimmed_dscp << 2) | pi->ecn);
}

/*
 * A forwarded packet: when it is whole MRC data, counts it and its
 * payload. The payload is what its header declares, believed only when
 * the packet is long enough to hold it after the base header (the
 * receiver checks the rest); a packet with the TRIMMED flag (cut or
 * flagged by a switch before this one) carries nothing the receiver
 * keeps.
 */
static __always_inline void count_whole_data(struct __sk_buff *skb,
					     const struct pkt_info *pi,
					     struct port_stats *st)
{
	__u32 off = pi->udp_off + sizeof(struct udphdr);
	__u8 hdr[MRC_PAYLOAD_LEN_OFFSET + 2];
	__u16 payload;

	if (bpf_skb_load_bytes(skb, off, hdr, sizeof(hdr)))
		return;
	if ((hdr[0] >> 4) != MRC_VERSION ||
	    (hdr[MRC_FLAGS_OFFSET] & MRC_FLAG_TRIMMED))
		return;
	switch (hdr[1]) {
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_READ_RESP:
	case MRC_OP_SEND_INV:
	case MRC_OP_UD_SEND:
	case MRC_OP_UD_SEND_IMM:
		break;
	default:
		return;
	}
	payload = (__u16)hdr[MRC_PAYLOAD_LEN_OFFSET] << 8 |
		  hdr[MRC_PAYLOAD_LEN_OFFSET + 1];
	if (!payload || off + MRC_BASE_HDR_LEN + payload > skb->len)
		return;
	__sync_fetch_and_add(&st->data_packets, 1);
	__sync_fetch_and_add(&st->data_bytes, skb->len);
	__sync_fetch_and_add(&st->payload_bytes, payload);
}

/* Cuts the packet to its headers and fixes it up. 0 on success. */
static __always_inline int trim(struct __sk_buff *skb,
				const struct trim_cfg *cfg,
				const struct pkt_info *pi)
{
	__u32 keep = cfg->keep;
	__u32 new_len = pi->udp_off + sizeof(struct udphdr) + keep;
	__u32 l3 = sizeof(struct ethhdr);
	__u16 udp_len = sizeof(struct udphdr) + keep;
	__u16 v16, old16, csum;
	__u8 b;

	if (keep < 4 || keep > MAX_KEEP || (keep & 3))
		return -1;
	/* A GSO super-packet: not trimmable. */
	if (skb->gso_segs > 1)
		return -1;
	if (skb->len <= new_len)
		return trim_in_place(skb, cfg, pi);
	if (bpf_skb_change_tail(skb, new_len, 0))
		return -1;

	if (!pi->ipv6) {
		__u32 tot = offsetof(struct iphdr, tot_len);

		if (bpf_skb_load_bytes(skb, l3 + tot, &old16, 2))
			return -1;
		v16 = bpf_htons(new_len - l3);
		if (bpf_l3_csum_replace(skb,
					l3 + offsetof(struct iphdr, check),
					old16, v16, 2))
			return -1;
		if (bpf_skb_store_bytes(skb, l3 + tot, &v16, 2, 0))
			return -1;
	} else {
		v16 = bpf_htons(udp_len);
		if (bpf_skb_store_bytes(skb,
					l3 + offsetof(struct ipv6hdr,
						      payload_len),
					&v16, 2, 0))
			return -1;
	}
	v16 = bpf_htons(udp_len);
	if (bpf_skb_store_bytes(skb, pi->udp_off + offsetof(struct udphdr, len),
				&v16, 2, 0))
		return -1;
	/* MRC version 1: say so in the header too. */
	if (bpf_skb_load_bytes(skb, pi->udp_off + sizeof(struct udphdr), &b, 1))
		return -1;
	if ((b >> 4) == MRC_VERSION) {
		__u32 off = pi->udp_off + sizeof(struct udphdr) +
			    MRC_FLAGS_OFFSET;

		if (bpf_skb_load_bytes(skb, off, &b, 1))
			return -1;
		b |= MRC_FLAG_TRIMMED;
		if (bpf_skb_store_bytes(skb, off, &b, 1, 0))
			return -1;
	}
	if (set_tos(skb, pi, (cfg->trimmed_dscp << 2) | pi->ecn))
		return -1;
	if (pi->ipv6) {
		if (udp_checksum(skb, cfg, pi, 40, keep, &csum))
			return -1;
	} else {
		if (udp_checksum(skb, cfg, pi, 12, keep, &csum))
			return -1;
	}
	return bpf_skb_store_bytes(skb,
				   pi->udp_off + offsetof(struct udphdr, check),
				   &csum, 2, 0);
}

SEC("tc")
int mrc_trim(struct __sk_buff *skb)
{
	__u32 ifindex = skb->ifindex;
	struct pkt_info pi = {};
	struct port_queue *q;
	struct port_stats *st;
	struct trim_cfg *cfg;
	__u64 now, cost, limit, backlog, start = 0;
	int over = 0;

	cfg = bpf_map_lookup_elem(&trim_cfg, &ifindex);
	q = bpf_map_lookup_elem(&trim_queue, &ifindex);
	st = bpf_map_lookup_elem(&trim_stats, &ifindex);
	if (!cfg || !q || !st || !cfg->rate)
		return TC_ACT_OK;

	now = bpf_ktime_get_ns();
	/*
	 * Not MRC (not IP: ARP; not UDP to MRC's port: neighbour discovery,
	 * ICMP, other traffic): the control plane and the rest are not the
	 * data class this port models. Queued with it they would be dropped
	 * when it is full (neighbour discovery lost: the port's neighbour
	 * fails, and with it everything), so they leave at once.
	 */
	if (parse(skb, &pi) || !pi.udp_off || pi.dport != cfg->port) {
		skb->priority = cfg->prio;
		bpf_skb_set_tstamp(skb, now, BPF_SKB_TSTAMP_DELIVERY_MONO);
		__sync_fetch_and_add(&st->other, 1);
		return TC_ACT_OK;
	}
	if (pi.dscp == cfg->trimmed_dscp) {
		skb->priority = cfg->prio;
		bpf_skb_set_tstamp(skb, now, BPF_SKB_TSTAMP_DELIVERY_MONO);
		__sync_fetch_and_add(&st->forwarded, 1);
		count_whole_data(skb, &pi, st);
		return TC_ACT_OK;
	}
	cost = (__u64)skb->len * NSEC_PER_SEC / cfg->rate;
	limit = (__u64)cfg->queue * NSEC_PER_SEC / cfg->rate;

	bpf_spin_lock(&q->lock);
	backlog = q->tail > now ? q->tail - now : 0;
	if (backlog + cost > limit) {
		over = 1;
	} else {
		start = q->tail > now ? q->tail : now;
		q->tail = start + cost;
	}
	bpf_spin_unlock(&q->lock);

	if (!over) {
		/* ECN-capable and the queue is past the marking threshold. */
		if (cfg->ecn && pi.ecn && pi.ecn != IP_ECN_CE &&
		    backlog * cfg->rate / NSEC_PER_SEC > cfg->ecn &&
		    !set_tos(skb, &pi, (pi.dscp << 2) | IP_ECN_CE))
			__sync_fetch_and_add(&st->marked, 1);
		bpf_skb_set_tstamp(skb, start, BPF_SKB_TSTAMP_DELIVERY_MONO);
		__sync_fetch_and_add(&st->forwarded, 1);
		count_whole_data(skb, &pi, st);
		return TC_ACT_OK;
	}

	if (pi.dscp == cfg->dscp && !trim(skb, cfg, &pi)) {
		/* The priority class: out now, ahead of the paced queue. */
		skb->priority = cfg->prio;
		bpf_skb_set_tstamp(skb, now, BPF_SKB_TSTAMP_DELIVERY_MONO);
		__sync_fetch_and_add(&st->trimmed, 1);
		return TC_ACT_OK;
	}
	__sync_fetch_and_add(&st->dropped, 1);
	return TC_ACT_SHOT;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
