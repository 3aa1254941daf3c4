// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * integrity: RC data integrity between two verbs devices, for integrity.sh.
 *
 *   integrity [-n TRANSFERS] [-t SECONDS] [-s SEED] [-d DEPTH] [-w | -r]
 *             [-x] [-W FILE] [-S FILE] [-T TIMEOUT] DEV_A IP_A DEV_B IP_B
 *                                   (IPv4 or IPv6 addresses)
 *
 * -x: post the requester's work with the ibv_wr_* API (ibv_wr_start(),
 * ibv_wr_rdma_write() / _send() / _rdma_read(), ibv_wr_set_sge_list() or
 * ibv_wr_set_inline_data_list(), ibv_wr_complete()) on a QP created with
 * send_ops_flags, instead of ibv_post_send().
 *
 * -W: once connected, print "# connected" and wait for FILE to exist before
 * the first transfer (a start line for several instances at once).
 * -S: post no more transfers once FILE exists (checked every 50 ms): the
 * run ends as the transfer or time limit would end it, with what was
 * posted completed and checked (a test done with its traffic ends it).
 * -T: the QPs' retransmission timeout exponent (4.096 us * 2^TIMEOUT,
 * default 14).
 *
 * One process drives both ends: a QP on DEV_A (the requester) connected to
 * a QP on DEV_B (the responder), each QP given the other's number, PSN and
 * GID directly; that is the whole out-of-band exchange. Transfers are
 * RDMA WRITEs, SENDs and RDMA READs of random length (1 B to 4 MiB,
 * log-uniform; -w: WRITEs and SENDs only, so data flows from A to B
 * only; -r: READs only, so data flows from B to A only), at unaligned
 * offsets, from and into 1 to 4 scattered SGEs with gaps between them, up
 * to DEPTH in flight. Every byte sent is
 * pseudo-random (a generator seeded per transfer); before each transfer
 * its destination is filled with a poison pattern, and after it completes
 * every byte is checked: the message where it belongs, the poison
 * everywhere else in the slot (gaps, guards before and after). Every work
 * request must complete with IBV_WC_SUCCESS, in order, exactly once; after
 * the run no further completion may appear.
 *
 * Exit status: 0 when everything arrived intact, 1 otherwise, 4 (kselftest
 * skip) when the devices cannot be used.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

#define KSFT_SKIP	4

#define MAX_MSG		(4u << 20)
#define MAX_SGE		4
/* A slot holds a message, its SGE gaps and unaligned start, and guards. */
#define SLOT_SIZE	(MAX_MSG + 64 * 1024)
#define MAX_DEPTH	16
#define GAP_MAX		1024
#define START_MAX	4096
#define GUARD		64
#define POISON_SEED	0x9e3779b97f4a7c15ull
#define CQ_TIMEOUT_S	60.0

enum kind { K_WRITE, K_SEND, K_READ, K_KINDS };
static const char *const kind_name[K_KINDS] = { "write", "send", "read" };

struct piece {
	uint32_t off;		/* in the slot */
	uint32_t len;
};

/* A scatter list inside one slot, and the span the transfer may touch. */
struct layout {
	struct piece p[MAX_SGE];
	int n;
	uint32_t end;		/* past the last piece */
};

struct transfer {
	uint64_t id;
	enum kind kind;
	uint32_t len;
	uint64_t seed;
	int slot;
	bool inline_data;
	struct layout local;	/* A's buffers (source, or READ sink) */
	struct layout remote;	/* B's: one piece for WRITE/READ, SGEs for SEND */
	bool send_done, recv_done;
};

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;		/* depth slots */
	int gid_index;
	union ibv_gid gid;
	uint32_t psn;
	uint32_t max_inline;
	struct ibv_qp_ex *qpx;	/* -x */
};

static struct {
	unsigned long count[K_KINDS];
	unsigned long long bytes_checked;
	unsigned long transfers;
	unsigned long failures;
} stats;

static int depth = 4;
/* -w: no READs. */
static bool no_reads;
/* -r: nothing but READs. */
static bool only_reads;
/* -x: the ibv_wr_* API instead of ibv_post_send(). */
static bool wr_api;
/* -W: the file whose creation starts the transfers. */
static const char *start_file;
static const char *stop_file;
/* -T: IBV_QP_TIMEOUT; perftest's default. */
static int qp_timeout = 14;

/* ---- pseudo-random numbers (xorshift64*) ---- */

static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static uint64_t rnd_seed(uint64_t a, uint64_t b)
{
	uint64_t s = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);

	return s ? s : 1;
}

static uint32_t rnd_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rnd_next(s) % n);
}

/* The byte stream of a message: fills or checks @len bytes at @pos of it. */
struct stream {
	uint64_t state;
	uint64_t word;
	unsigned int left;	/* bytes of @word not used yet */
};

static void stream_init(struct stream *st, uint64_t seed)
{
	st->state = seed ? seed : 1;
	st->left = 0;
}

static uint8_t stream_byte(struct stream *st)
{
	uint8_t b;

	if (!st->left) {
		st->word = rnd_next(&st->state);
		st->left = 8;
	}
	b = (uint8_t)st->word;
	st->word >>= 8;
	st->left--;
	return b;
}

static void poison(uint8_t *p, size_t n, uint64_t salt)
{
	struct stream st;
	size_t i;

	stream_init(&st, POISON_SEED ^ salt);
	for (i = 0; i < n; i++)
		p[i] = stream_byte(&st) | 0x80;	/* never all of a message */
}

/* ---- devices and QPs ---- */

/* With -x, the same QP through ibv_create_qp_ex() with send_ops_flags. */
static struct ibv_qp *create_qp(struct side *s, struct ibv_qp_init_attr *qa)
{
	struct ibv_qp_init_attr_ex qax = {
		.send_cq = qa->send_cq,
		.recv_cq = qa->recv_cq,
		.cap = qa->cap,
		.qp_type = qa->qp_type,
		.sq_sig_all = qa->sq_sig_all,
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = s->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_SEND |
				  IBV_QP_EX_WITH_RDMA_READ,
	};
	struct ibv_qp *qp;

	if (!wr_api)
		return ibv_create_qp(s->pd, qa);
	qp = ibv_create_qp_ex(s->ctx, &qax);
	if (qp)
		qa->cap = qax.cap;
	return qp;
}

static int side_init(struct side *s, const char *dev, const char *ip)
{
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = 2 * MAX_DEPTH,
			 .max_recv_wr = 2 * MAX_DEPTH,
			 .max_send_sge = MAX_SGE, .max_recv_sge = MAX_SGE,
			 .max_inline_data = 64 },
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 0,
	};
	size_t size = (size_t)depth * SLOT_SIZE;

	memset(s, 0, sizeof(*s));
	s->ctx = probe_open_device(dev);
	if (!s->ctx) {
		fprintf(stderr, "cannot open %s\n", dev);
		return -1;
	}
	s->gid_index = probe_find_gid(s->ctx, ip, &s->gid);
	if (s->gid_index < 0) {
		fprintf(stderr, "%s has no GID for %s\n", dev, ip);
		return -1;
	}
	s->pd = ibv_alloc_pd(s->ctx);
	s->scq = ibv_create_cq(s->ctx, 4 * MAX_DEPTH, NULL, NULL, 0);
	s->rcq = ibv_create_cq(s->ctx, 4 * MAX_DEPTH, NULL, NULL, 0);
	s->buf = aligned_alloc(4096, size);
	if (!s->pd || !s->scq || !s->rcq || !s->buf) {
		fprintf(stderr, "%s: PD, CQ or memory: %s\n", dev,
			strerror(errno));
		return -1;
	}
	memset(s->buf, 0, size);
	s->mr = ibv_reg_mr(s->pd, s->buf, size,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ);
	qa.send_cq = s->scq;
	qa.recv_cq = s->rcq;
	s->qp = create_qp(s, &qa);
	if (!s->qp) {
		/* Inline data is a bonus, not what is tested. */
		qa.cap.max_inline_data = 0;
		s->qp = create_qp(s, &qa);
	}
	if (!s->mr || !s->qp) {
		fprintf(stderr, "%s: MR or QP: %s\n", dev, strerror(errno));
		return -1;
	}
	if (wr_api) {
		s->qpx = ibv_qp_to_qp_ex(s->qp);
		if (!s->qpx) {
			fprintf(stderr, "%s: no ibv_qp_ex for a QP created with send_ops_flags\n",
				dev);
			return -1;
		}
	}
	s->max_inline = qa.cap.max_inline_data;
	s->psn = (uint32_t)(rand() & 0xffffff);
	return 0;
}

static int connect_qp(struct side *s, const struct side *peer)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qp->qp_num;
	a.rq_psn = peer->psn;
	a.max_dest_rd_atomic = 16;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = s->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	/* perftest's defaults: 4.096 us * 2^14 = 67 ms, 7 retries. */
	a.timeout = qp_timeout;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = s->psn;
	a.max_rd_atomic = 16;
	return ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* ---- transfers ---- */

static uint8_t *slot_base(struct side *s, int slot)
{
	return s->buf + (size_t)slot * SLOT_SIZE;
}

static uint64_t slot_addr(struct side *s, int slot, uint32_t off)
{
	return (uint64_t)(uintptr_t)slot_base(s, slot) + off;
}

/* Cuts @len bytes into 1..MAX_SGE pieces with gaps, from an odd start. */
static void make_layout(struct layout *l, uint32_t len, int max_pieces,
			uint64_t *rs)
{
	uint32_t off = GUARD + rnd_below(rs, START_MAX), left = len, n;
	int i, pieces = 1 + (int)rnd_below(rs, max_pieces);

	if ((uint32_t)pieces > len)
		pieces = len ? (int)len : 1;
	for (i = 0; i < pieces; i++) {
		n = i == pieces - 1 ? left :
		    1 + rnd_below(rs, left - (pieces - 1 - i));
		l->p[i].off = off;
		l->p[i].len = n;
		off += n + rnd_below(rs, GAP_MAX);
		left -= n;
	}
	l->n = pieces;
	l->end = l->p[pieces - 1].off + l->p[pieces - 1].len;
}

static void fill_sges(struct ibv_sge *sge, const struct layout *l,
		      struct side *s, int slot)
{
	int i;

	for (i = 0; i < l->n; i++) {
		sge[i].addr = slot_addr(s, slot, l->p[i].off);
		sge[i].length = l->p[i].len;
		sge[i].lkey = s->mr->lkey;
	}
}

/* Writes the message's bytes into the pieces of @l. */
static void put_message(struct side *s, int slot, const struct layout *l,
			uint64_t seed)
{
	uint8_t *base = slot_base(s, slot);
	struct stream st;
	uint32_t j;
	int i;

	stream_init(&st, seed);
	for (i = 0; i < l->n; i++)
		for (j = 0; j < l->p[i].len; j++)
			base[l->p[i].off + j] = stream_byte(&st);
}

/*
 * Checks the whole slot span a transfer could have touched: the message in
 * the pieces of @l, the poison everywhere else up to GUARD bytes past it.
 */
static bool check_message(struct side *s, int slot, const struct layout *l,
			  uint64_t seed, uint64_t salt, const struct transfer *t,
			  const char *where)
{
	uint8_t *base = slot_base(s, slot);
	uint32_t span = l->end + GUARD, pos = 0, j;
	uint8_t *expect = malloc(span);
	struct stream st;
	bool ok = true;
	int i;

	if (!expect)
		return false;
	poison(expect, span, salt);
	stream_init(&st, seed);
	for (i = 0; i < l->n; i++)
		for (j = 0; j < l->p[i].len; j++)
			expect[l->p[i].off + j] = stream_byte(&st);
	if (memcmp(base, expect, span)) {
		uint32_t first, last = 0, bad = 0, msg_off = 0;
		bool in_msg = false;

		for (pos = 0; pos < span && base[pos] == expect[pos]; pos++)
			;
		uint8_t *unwritten = malloc(span);
		uint32_t still_poison = 0;

		if (unwritten)
			poison(unwritten, span, salt);
		first = pos;
		for (; pos < span; pos++)
			if (base[pos] != expect[pos]) {
				last = pos;
				bad++;
				if (unwritten && base[pos] == unwritten[pos])
					still_poison++;
			}
		free(unwritten);
		fprintf(stderr, "%u of the bytes that differ were never written\n",
			still_poison);
		/* Where in the message the first bad byte belongs, if it does. */
		for (i = 0, j = 0; i < l->n; j += l->p[i].len, i++)
			if (first >= l->p[i].off &&
			    first < l->p[i].off + l->p[i].len) {
				in_msg = true;
				msg_off = j + first - l->p[i].off;
			}
		fprintf(stderr,
			"transfer %" PRIu64 " (%s, %u B, %d+%d SGEs): %s slot bytes %u..%u differ (%u bytes), first is 0x%02x, expected 0x%02x (%s%u)\n",
			t->id, kind_name[t->kind], t->len, t->local.n,
			t->remote.n, where, first, last, bad, base[first],
			expect[first], in_msg ? "message offset " : "outside the message, ",
			in_msg ? msg_off : first);
		ok = false;
	}
	free(expect);
	return ok;
}

static uint32_t pick_length(uint64_t *rs)
{
	/* Log-uniform: as many 1-byte-ish messages as megabyte ones. */
	uint32_t bits = rnd_below(rs, 23);	/* 2^0 .. 2^22 = 4 MiB */
	uint32_t len = (uint32_t)(rnd_next(rs) & ((1u << bits) - 1)) + 1;

	if (bits == 22 && !rnd_below(rs, 4))
		len = MAX_MSG;			/* the largest too */
	return len > MAX_MSG ? MAX_MSG : len;
}

/* The request wr describes, posted through the ibv_wr_* API instead. */
static int post_with_wr_api(struct side *a, const struct ibv_send_wr *wr)
{
	struct ibv_data_buf bufs[MAX_SGE];
	struct ibv_qp_ex *qpx = a->qpx;

	ibv_wr_start(qpx);
	qpx->wr_id = wr->wr_id;
	qpx->wr_flags = wr->send_flags & ~IBV_SEND_INLINE;
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
		ibv_wr_rdma_write(qpx, wr->wr.rdma.rkey,
				  wr->wr.rdma.remote_addr);
		break;
	case IBV_WR_SEND:
		ibv_wr_send(qpx);
		break;
	default:
		ibv_wr_rdma_read(qpx, wr->wr.rdma.rkey,
				 wr->wr.rdma.remote_addr);
		break;
	}
	if (wr->send_flags & IBV_SEND_INLINE) {
		for (int i = 0; i < wr->num_sge; i++) {
			bufs[i].addr = (void *)(uintptr_t)wr->sg_list[i].addr;
			bufs[i].length = wr->sg_list[i].length;
		}
		ibv_wr_set_inline_data_list(qpx, (size_t)wr->num_sge, bufs);
	} else {
		ibv_wr_set_sge_list(qpx, (size_t)wr->num_sge, wr->sg_list);
	}
	return ibv_wr_complete(qpx);
}

static int post_transfer(struct side *a, struct side *b, struct transfer *t)
{
	struct ibv_sge sge[MAX_SGE], rsge[MAX_SGE];
	struct ibv_send_wr wr = {}, *bad;
	struct ibv_recv_wr rwr = {}, *rbad;
	uint64_t salt = t->id;
	int err;

	/* Destinations are poisoned, sources hold the message. */
	switch (t->kind) {
	case K_WRITE:
		poison(slot_base(b, t->slot), t->remote.end + GUARD, salt);
		put_message(a, t->slot, &t->local, t->seed);
		wr.opcode = IBV_WR_RDMA_WRITE;
		break;
	case K_SEND:
		poison(slot_base(b, t->slot), t->remote.end + GUARD, salt);
		put_message(a, t->slot, &t->local, t->seed);
		fill_sges(rsge, &t->remote, b, t->slot);
		rwr.wr_id = t->id;
		rwr.sg_list = rsge;
		rwr.num_sge = t->remote.n;
		err = ibv_post_recv(b->qp, &rwr, &rbad);
		if (err) {
			fprintf(stderr, "ibv_post_recv: %s\n", strerror(err));
			return -1;
		}
		wr.opcode = IBV_WR_SEND;
		break;
	default:
		poison(slot_base(a, t->slot), t->local.end + GUARD, salt);
		put_message(b, t->slot, &t->remote, t->seed);
		wr.opcode = IBV_WR_RDMA_READ;
		break;
	}
	fill_sges(sge, &t->local, a, t->slot);
	wr.wr_id = t->id;
	wr.sg_list = sge;
	wr.num_sge = t->local.n;
	wr.send_flags = IBV_SEND_SIGNALED;
	if (t->inline_data)
		wr.send_flags |= IBV_SEND_INLINE;
	if (t->kind != K_SEND) {
		wr.wr.rdma.remote_addr = slot_addr(b, t->slot,
						   t->remote.p[0].off);
		wr.wr.rdma.rkey = b->mr->rkey;
	}
	err = wr_api ? post_with_wr_api(a, &wr) :
		       ibv_post_send(a->qp, &wr, &bad);
	if (err) {
		fprintf(stderr, "%s: %s\n",
			wr_api ? "ibv_wr_complete" : "ibv_post_send",
			strerror(err));
		return -1;
	}
	return 0;
}

static void plan_transfer(struct transfer *t, uint64_t id, uint64_t seed,
			  int slot, uint32_t max_inline)
{
	uint64_t rs = rnd_seed(seed, id);

	memset(t, 0, sizeof(*t));
	t->id = id;
	t->slot = slot;
	t->seed = rnd_seed(seed ^ 0x5555, id);
	t->kind = only_reads ? K_READ :
		  (enum kind)rnd_below(&rs, no_reads ? K_READ : K_KINDS);
	t->len = pick_length(&rs);
	make_layout(&t->local, t->len, MAX_SGE, &rs);
	/* WRITE and READ name one remote range; a SEND lands in SGEs. */
	make_layout(&t->remote, t->len, t->kind == K_SEND ? MAX_SGE : 1, &rs);
	t->inline_data = t->kind != K_READ && t->len <= max_inline &&
			 rnd_below(&rs, 2);
}

static bool verify(struct side *a, struct side *b, struct transfer *t)
{
	bool ok;

	if (t->kind == K_READ)
		ok = check_message(a, t->slot, &t->local, t->seed, t->id, t,
				   "local");
	else
		ok = check_message(b, t->slot, &t->remote, t->seed, t->id, t,
				   "remote");
	if (ok) {
		stats.bytes_checked += t->len;
		stats.count[t->kind]++;
	}
	return ok;
}

static bool check_wc(const struct ibv_wc *wc, const struct transfer *t,
		     bool recv)
{
	enum ibv_wc_opcode want = recv ? IBV_WC_RECV :
				  t->kind == K_WRITE ? IBV_WC_RDMA_WRITE :
				  t->kind == K_SEND ? IBV_WC_SEND :
				  IBV_WC_RDMA_READ;

	if (wc->status != IBV_WC_SUCCESS || wc->wr_id != t->id ||
	    wc->opcode != want || (recv && wc->byte_len != t->len)) {
		fprintf(stderr,
			"transfer %" PRIu64 " (%s, %u B): %s completion wr_id %" PRIu64 " status %s opcode %d byte_len %u\n",
			t->id, kind_name[t->kind], t->len,
			recv ? "receive" : "send", wc->wr_id,
			ibv_wc_status_str(wc->status), wc->opcode,
			wc->byte_len);
		return false;
	}
	return true;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: integrity [-n TRANSFERS] [-t SECONDS] [-s SEED] [-d DEPTH] [-w | -r] [-x] [-W FILE] [-S FILE] [-T TIMEOUT] DEV_A IP_A DEV_B IP_B\n");
	return 2;
}

/* Whether to post more: within the limits, and not told to stop. */
static bool keep_posting(unsigned long posted, unsigned long max_transfers,
			 double start, double seconds)
{
	static double stop_checked;
	static bool stopped;
	double now = probe_now();

	if (posted >= max_transfers || now - start >= seconds || stopped)
		return false;
	if (stop_file && now - stop_checked >= 0.05) {
		stop_checked = now;
		stopped = !access(stop_file, F_OK);
	}
	return !stopped;
}

int main(int argc, char **argv)
{
	unsigned long max_transfers = 400;
	double seconds = 60, start, elapsed;
	uint64_t seed = (uint64_t)time(NULL);
	struct transfer *ring;
	unsigned long posted = 0, done = 0;
	struct side a, b;
	struct ibv_wc wc;
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "n:t:s:d:wrxW:S:T:")) != -1) {
		switch (opt) {
		case 'n':
			max_transfers = strtoul(optarg, NULL, 0);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'd':
			depth = atoi(optarg);
			if (depth < 1 || depth > MAX_DEPTH)
				return usage();
			break;
		case 'w':
			no_reads = true;
			break;
		case 'r':
			only_reads = true;
			break;
		case 'x':
			wr_api = true;
			break;
		case 'W':
			start_file = optarg;
			break;
		case 'S':
			stop_file = optarg;
			break;
		case 'T':
			qp_timeout = atoi(optarg);
			if (qp_timeout < 1 || qp_timeout > 31)
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 4 || (no_reads && only_reads))
		return usage();
	printf("# seed %" PRIu64 ", at most %lu transfers or %.0f s, %d in flight, posted by %s\n",
	       seed, max_transfers, seconds, depth,
	       wr_api ? "the ibv_wr_* API" : "ibv_post_send()");
	fflush(stdout);
	srand((unsigned int)seed);
	if (side_init(&a, argv[optind], argv[optind + 1]) ||
	    side_init(&b, argv[optind + 2], argv[optind + 3]))
		return KSFT_SKIP;
	if (connect_qp(&a, &b) || connect_qp(&b, &a)) {
		fprintf(stderr, "connecting the QPs: %s\n", strerror(errno));
		return 1;
	}
	ring = calloc(depth, sizeof(*ring));
	if (!ring)
		return 1;
	if (start_file) {
		printf("# connected\n");
		fflush(stdout);
		while (access(start_file, F_OK))
			usleep(10 * 1000);
	}

	start = probe_now();
	while (done < posted ||
	       keep_posting(posted, max_transfers, start, seconds)) {
		/* Keep DEPTH transfers in flight, one per slot. */
		while (posted - done < (unsigned long)depth &&
		       keep_posting(posted, max_transfers, start, seconds)) {
			struct transfer *t = &ring[posted % depth];

			plan_transfer(t, posted, seed, (int)(posted % depth),
				      a.max_inline);
			if (post_transfer(&a, &b, t)) {
				ret = 1;
				goto out;
			}
			posted++;
		}
		/* Completions come in posting order, one per request. */
		struct transfer *t = &ring[done % depth];

		if (!probe_poll(a.scq, &wc, 1, CQ_TIMEOUT_S)) {
			fprintf(stderr, "transfer %" PRIu64 " (%s, %u B): no completion in %.0f s\n",
				t->id, kind_name[t->kind], t->len,
				CQ_TIMEOUT_S);
			ret = 1;
			goto out;
		}
		if (!check_wc(&wc, t, false)) {
			ret = 1;
			goto out;
		}
		if (t->kind == K_SEND) {
			if (!probe_poll(b.rcq, &wc, 1, CQ_TIMEOUT_S)) {
				fprintf(stderr, "transfer %" PRIu64 ": no receive completion\n",
					t->id);
				ret = 1;
				goto out;
			}
			if (!check_wc(&wc, t, true)) {
				ret = 1;
				goto out;
			}
		}
		if (!verify(&a, &b, t))
			stats.failures++;
		done++;
	}
	/* Nothing more may complete: no duplicate work, no stray message. */
	usleep(200 * 1000);
	if (ibv_poll_cq(a.scq, 1, &wc) || ibv_poll_cq(b.rcq, 1, &wc) ||
	    ibv_poll_cq(b.scq, 1, &wc) || ibv_poll_cq(a.rcq, 1, &wc)) {
		fprintf(stderr, "a completion after the last transfer: wr_id %" PRIu64 " status %s\n",
			wc.wr_id, ibv_wc_status_str(wc.status));
		ret = 1;
	}
out:
	elapsed = probe_now() - start;
	stats.transfers = done;
	/* The summary stays the last line, ending in seconds: tests read it. */
	printf("# rate %.1f Mb/s of checked bytes\n",
	       elapsed > 0 ? stats.bytes_checked * 8 / elapsed / 1e6 : 0);
	printf("# transfers %lu (write %lu, send %lu, read %lu), bytes checked %llu, corrupted %lu, %.1f s\n",
	       stats.transfers, stats.count[K_WRITE], stats.count[K_SEND],
	       stats.count[K_READ], stats.bytes_checked, stats.failures,
	       elapsed);
	if (stats.failures || !done)
		ret = 1;
	return ret;
}
