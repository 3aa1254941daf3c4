// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * nccl-ib-probe: the verbs NCCL's IB transport uses, the way it uses them,
 * between two devices, for nccl_ib.sh.
 *
 *   nccl-ib-probe [-6] [-q QPS] [-n MESSAGES] [-w WINDOW] [-T TC] DEV_A DEV_B
 *
 * One process drives both ends: DEV_A sends, DEV_B receives. What it does
 * as NCCL's transport does (net_ib.cc), none of it copied:
 *   - each device's GID is chosen as NCCL chooses it: a RoCE v2 entry of
 *     port 1 by its sysfs gid_attrs/types file, never link-local, IPv4
 *     (IPv4-mapped) preferred; -6 prefers IPv6 (NCCL_IB_ADDR_FAMILY);
 *   - ibv_reg_dmabuf_mr() is probed with no dmabuf (fd -1) and must fail
 *     with EOPNOTSUPP or EPROTONOSUPPORT: no dmabuf support, said cleanly;
 *   - buffers are registered with ibv_reg_mr_iova2(), IOVA = address,
 *     relaxed ordering asked for;
 *   - ibv_query_ece() answers 0 or EOPNOTSUPP, and an ECE it gives is
 *     taken back by ibv_set_ece();
 *   - QPS RC QPs per connection (NCCL_IB_QPS_PER_CONNECTION, default 1),
 *     traffic class TC (NCCL_IB_TC), NCCL's timeout (20) and retries (7);
 *   - the receiver announces each buffer (clear to send) by an inline RDMA
 *     WRITE of a FIFO entry {address, rkey, size, sequence} into the
 *     sender's FIFO; the sender polls its FIFO memory for it;
 *   - the sender splits each message over the QPs: on each, RDMA WRITE of
 *     its share, then a signalled zero-length WRITE_WITH_IMM carrying the
 *     sequence, for which the receiver has a receive posted;
 *   - up to WINDOW messages in flight (NCCL_NET_MAX_REQUESTS, 8);
 *   - sizes cycle through 1 B .. 4 MiB; every byte of every message is
 *     checked against its pattern, and the receive buffer is poisoned
 *     before each announce.
 *
 * Exit status: 0 when every message arrived intact, 1 otherwise, 4
 * (kselftest skip) when the devices cannot be used.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

#define KSFT_SKIP	4
#define MAX_QPS		8
#define MAX_WINDOW	16
#define MAX_MSG		(4u << 20)
#define FIFO_MAGIC	0x4e43434cu	/* "NCCL" */
#define NCCL_TIMEOUT	20		/* NCCL_IB_TIMEOUT's default */
#define NCCL_RETRY	7		/* NCCL_IB_RETRY_CNT's default */
#define WAIT_S		60.0

static const uint32_t sizes[] = {
	1, 64, 1000, 4096, 65536, 65537, 1u << 20, MAX_MSG, 12345, 300000,
};

/* A clear-to-send entry: head and tail tokens reject a torn read. */
struct fifo_entry {
	uint32_t head;
	uint32_t rkey;
	uint64_t addr;
	uint32_t size;
	uint32_t tail;
};

struct end {
	const char *name;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp[MAX_QPS];
	struct ibv_mr *data_mr, *fifo_mr;
	uint8_t *data;			/* WINDOW slots of MAX_MSG */
	struct fifo_entry *fifo;	/* WINDOW entries */
	int gid_index;
	union ibv_gid gid;
};

static int nqps = 1, messages = 200, window = 8, tclass;
static bool prefer_v6;
static unsigned long long bytes_checked;

static uint8_t pattern(uint32_t seq, uint32_t off)
{
	uint32_t x = seq * 2654435761u ^ off * 40503u;

	return (uint8_t)(x ^ x >> 13 ^ off >> 8);
}

static bool gid_is_v4(const union ibv_gid *g)
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(g->raw, mapped, sizeof(mapped));
}

/* NCCL's choice: RoCE v2 by sysfs, no link-local, one family preferred. */
static int choose_gid(struct end *e)
{
	int idx, fallback = -1, chosen = -1;
	union ibv_gid g, fallback_gid;
	char path[256], type[32];
	FILE *f;

	for (idx = 0; idx < 256 && chosen < 0; idx++) {
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/%s/ports/1/gid_attrs/types/%d",
			 e->name, idx);
		f = fopen(path, "r");
		if (!f)
			break;
		type[0] = 0;
		if (!fgets(type, sizeof(type), f))
			type[0] = 0;
		fclose(f);
		if (strncmp(type, "RoCE v2", 7) || ibv_query_gid(e->ctx, 1, idx, &g))
			continue;
		if (g.raw[0] == 0xfe && (g.raw[1] & 0xc0) == 0x80)
			continue;	/* link-local */
		if (!memcmp(g.raw, (uint8_t[16]){ 0 }, 16))
			continue;
		if (gid_is_v4(&g) != prefer_v6) {
			chosen = idx;
			e->gid = g;
		} else if (fallback < 0) {
			fallback = idx;
			fallback_gid = g;
		}
	}
	if (chosen < 0 && fallback >= 0) {
		chosen = fallback;
		e->gid = fallback_gid;
	}
	e->gid_index = chosen;
	return chosen;
}

static bool dmabuf_refused_cleanly(struct end *e)
{
	struct ibv_mr *mr;

	errno = 0;
	mr = ibv_reg_dmabuf_mr(e->pd, 0, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE);
	if (mr) {
		ibv_dereg_mr(mr);
		printf("# %s: ibv_reg_dmabuf_mr(fd -1) succeeded\n", e->name);
		return false;
	}
	if (errno != EOPNOTSUPP && errno != EPROTONOSUPPORT) {
		printf("# %s: ibv_reg_dmabuf_mr(fd -1): %s, not EOPNOTSUPP\n",
		       e->name, strerror(errno));
		return false;
	}
	return true;
}

static struct ibv_mr *reg_iova2(struct end *e, void *buf, size_t len)
{
	return ibv_reg_mr_iova2(e->pd, buf, len, (uint64_t)(uintptr_t)buf,
				IBV_ACCESS_LOCAL_WRITE |
				IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ |
				IBV_ACCESS_RELAXED_ORDERING);
}

static int open_end(struct end *e)
{
	struct ibv_qp_init_attr qa = {
		.qp_type = IBV_QPT_RC,
		.cap = {
			.max_send_wr = 2 * MAX_WINDOW + 4,
			.max_recv_wr = MAX_WINDOW + 4,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = sizeof(struct fifo_entry),
		},
	};
	int i;

	e->ctx = probe_open_device(e->name);
	if (!e->ctx)
		return -1;
	e->pd = ibv_alloc_pd(e->ctx);
	e->cq = e->pd ? ibv_create_cq(e->ctx, 4 * MAX_WINDOW * MAX_QPS, NULL,
				      NULL, 0) : NULL;
	if (!e->cq)
		return -1;
	e->data = aligned_alloc(4096, (size_t)window * MAX_MSG);
	e->fifo = aligned_alloc(4096, 4096);
	if (!e->data || !e->fifo)
		return -1;
	memset(e->fifo, 0, 4096);
	e->data_mr = reg_iova2(e, e->data, (size_t)window * MAX_MSG);
	e->fifo_mr = reg_iova2(e, e->fifo, 4096);
	if (!e->data_mr || !e->fifo_mr) {
		printf("# %s: ibv_reg_mr_iova2: %s\n", e->name, strerror(errno));
		return -1;
	}
	qa.send_cq = qa.recv_cq = e->cq;
	for (i = 0; i < nqps; i++) {
		e->qp[i] = ibv_create_qp(e->pd, &qa);
		if (!e->qp[i])
			return -1;
	}
	return 0;
}

/* 0 if ECE is answered consistently (or not offered), -1 otherwise. */
static int ece_behaves(struct end *e)
{
	struct ibv_ece ece = { 0 };
	int ret = ibv_query_ece(e->qp[0], &ece);

	if (ret == EOPNOTSUPP) {
		printf("# %s: no ECE (EOPNOTSUPP)\n", e->name);
		return 0;
	}
	if (ret) {
		printf("# %s: ibv_query_ece: %s\n", e->name, strerror(ret));
		return -1;
	}
	ret = ibv_set_ece(e->qp[0], &ece);
	if (ret) {
		printf("# %s: ibv_set_ece of its own ECE: %s\n", e->name,
		       strerror(ret));
		return -1;
	}
	return 0;
}

static int connect_qp(struct end *e, int i, const struct end *peer)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(e->qp[i], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qp[i]->qp_num;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = peer->gid;
	a.ah_attr.grh.sgid_index = e->gid_index;
	a.ah_attr.grh.hop_limit = 255;
	a.ah_attr.grh.traffic_class = tclass;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(e->qp[i], &a, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			  IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = NCCL_TIMEOUT;
	a.retry_cnt = NCCL_RETRY;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(e->qp[i], &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
			     IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static uint32_t size_of(uint32_t seq)
{
	return sizes[seq % (sizeof(sizes) / sizeof(sizes[0]))];
}

static uint8_t *slot(struct end *e, uint32_t seq)
{
	return e->data + (size_t)(seq % window) * MAX_MSG;
}

/* The receiver's clear-to-send for @seq: poison, receives, FIFO WRITE. */
static int announce(struct end *rx, struct end *tx, uint32_t seq)
{
	struct fifo_entry ent = {
		.head = FIFO_MAGIC ^ seq,
		.rkey = rx->data_mr->rkey,
		.addr = (uint64_t)(uintptr_t)slot(rx, seq),
		.size = size_of(seq),
		.tail = FIFO_MAGIC ^ seq,
	};
	struct ibv_sge sge = {
		.addr = (uint64_t)(uintptr_t)&ent,
		.length = sizeof(ent),
	};
	struct ibv_send_wr wr = {
		.wr_id = seq,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_INLINE,
		.wr.rdma = {
			.remote_addr = (uint64_t)(uintptr_t)
				       &tx->fifo[seq % window],
			.rkey = tx->fifo_mr->rkey,
		},
	}, *bad;
	struct ibv_recv_wr rwr = { .wr_id = seq }, *rbad;
	int i;

	memset(slot(rx, seq), 0xa5, size_of(seq) + (size_of(seq) < MAX_MSG));
	for (i = 0; i < nqps; i++)
		if (ibv_post_recv(rx->qp[i], &rwr, &rbad))
			return -1;
	/* Every 4th CTS signalled, as a FIFO writer must reap its queue. */
	if (seq % 4 == 3)
		wr.send_flags |= IBV_SEND_SIGNALED;
	return ibv_post_send(rx->qp[0], &wr, &bad);
}

static bool fifo_ready(struct end *tx, uint32_t seq, struct fifo_entry *out)
{
	volatile struct fifo_entry *f = &tx->fifo[seq % window];

	if (__atomic_load_n(&f->head, __ATOMIC_ACQUIRE) != (FIFO_MAGIC ^ seq) ||
	    __atomic_load_n(&f->tail, __ATOMIC_ACQUIRE) != (FIFO_MAGIC ^ seq))
		return false;
	out->addr = f->addr;
	out->rkey = f->rkey;
	out->size = f->size;
	return true;
}

/* The sender's side of @seq: shares over the QPs, each closed by an IMM. */
static int send_message(struct end *tx, uint32_t seq,
			const struct fifo_entry *cts)
{
	uint8_t *src = slot(tx, seq);
	uint32_t size = cts->size, share = (size + nqps - 1) / nqps, off = 0;
	int i;

	if (size != size_of(seq)) {
		printf("# message %u: the CTS says %u bytes, not %u\n", seq,
		       size, size_of(seq));
		return -1;
	}
	for (i = 0; i < (int)size; i++)
		src[i] = pattern(seq, i);
	for (i = 0; i < nqps; i++) {
		uint32_t len = size - off < share ? size - off : share;
		struct ibv_sge sge = {
			.addr = (uint64_t)(uintptr_t)(src + off),
			.length = len,
			.lkey = tx->data_mr->lkey,
		};
		struct ibv_send_wr imm = {
			.wr_id = seq,
			.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
			.send_flags = IBV_SEND_SIGNALED,
			.imm_data = htobe32(seq),
			.wr.rdma = {
				.remote_addr = cts->addr + off,
				.rkey = cts->rkey,
			},
		};
		struct ibv_send_wr data = {
			.wr_id = seq,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.wr.rdma = imm.wr.rdma,
			.next = &imm,
		}, *bad;

		if (ibv_post_send(tx->qp[i], len ? &data : &imm, &bad))
			return -1;
		off += len;
	}
	return 0;
}

static int check_message(struct end *rx, uint32_t seq)
{
	const uint8_t *dst = slot(rx, seq);
	uint32_t size = size_of(seq), i;

	for (i = 0; i < size; i++) {
		if (dst[i] != pattern(seq, i)) {
			printf("# message %u (%u B): byte %u is 0x%02x, not 0x%02x\n",
			       seq, size, i, dst[i], pattern(seq, i));
			return -1;
		}
	}
	if (size < MAX_MSG && dst[size] != 0xa5) {
		printf("# message %u: a byte past its end was written\n", seq);
		return -1;
	}
	bytes_checked += size;
	return 0;
}

static int run(struct end *tx, struct end *rx)
{
	uint32_t announced = 0, sent = 0, done = 0, imms[MAX_WINDOW] = { 0 };
	double deadline = probe_now() + WAIT_S;
	struct fifo_entry cts;
	struct ibv_wc wc[16];
	int n, i;

	while (done < (uint32_t)messages) {
		while (announced < (uint32_t)messages &&
		       announced - done < (uint32_t)window) {
			if (announce(rx, tx, announced)) {
				printf("# announce %u: %s\n", announced,
				       strerror(errno));
				return -1;
			}
			announced++;
		}
		while (sent < announced && fifo_ready(tx, sent, &cts)) {
			if (send_message(tx, sent, &cts))
				return -1;
			sent++;
		}
		for (struct end *e = tx; e; e = e == tx ? rx : NULL) {
			n = ibv_poll_cq(e->cq, 16, wc);
			if (n < 0)
				return -1;
			for (i = 0; i < n; i++) {
				if (wc[i].status != IBV_WC_SUCCESS) {
					printf("# %s: completion of %" PRIu64 ": %s\n",
					       e->name, wc[i].wr_id,
					       ibv_wc_status_str(wc[i].status));
					return -1;
				}
				if (e != rx || wc[i].opcode != IBV_WC_RECV_RDMA_WITH_IMM)
					continue;
				if (be32toh(wc[i].imm_data) != wc[i].wr_id) {
					printf("# immediate %u on receive %" PRIu64 "\n",
					       be32toh(wc[i].imm_data), wc[i].wr_id);
					return -1;
				}
				imms[wc[i].wr_id % window]++;
			}
			if (n)
				deadline = probe_now() + WAIT_S;
		}
		while (done < sent && imms[done % window] == (uint32_t)nqps) {
			if (check_message(rx, done))
				return -1;
			imms[done % window] = 0;
			done++;
		}
		if (probe_now() > deadline) {
			printf("# stalled: %u announced, %u sent, %u done\n",
			       announced, sent, done);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct end a = { 0 }, b = { 0 };
	char ga[64], gb[64];
	double t0;
	int opt, i;

	while ((opt = getopt(argc, argv, "6q:n:w:T:")) != -1) {
		switch (opt) {
		case '6': prefer_v6 = true; break;
		case 'q': nqps = atoi(optarg); break;
		case 'n': messages = atoi(optarg); break;
		case 'w': window = atoi(optarg); break;
		case 'T': tclass = atoi(optarg); break;
		default: goto usage;
		}
	}
	if (argc - optind != 2 || nqps < 1 || nqps > MAX_QPS || messages < 1 ||
	    window < 1 || window > MAX_WINDOW || tclass < 0 || tclass > 255)
		goto usage;
	a.name = argv[optind];
	b.name = argv[optind + 1];
	if (open_end(&a) || open_end(&b)) {
		printf("# cannot open the devices: %s\n", strerror(errno));
		return KSFT_SKIP;
	}
	if (choose_gid(&a) < 0 || choose_gid(&b) < 0) {
		printf("# no RoCE v2 GID that NCCL would use\n");
		return KSFT_SKIP;
	}
	for (struct end *e = &a; e; e = e == &a ? &b : NULL) {
		const char *fam = gid_is_v4(&e->gid) ? "IPv4" : "IPv6";

		printf("# %s: GID index %d (%s)\n", e->name, e->gid_index, fam);
	}
	if (gid_is_v4(&a.gid) == prefer_v6)
		printf("# the preferred family is not on the devices: using the other\n");
	if (!dmabuf_refused_cleanly(&a) || ece_behaves(&a) || ece_behaves(&b))
		return 1;
	for (i = 0; i < nqps; i++) {
		if (connect_qp(&a, i, &b) || connect_qp(&b, i, &a)) {
			printf("# connecting QP %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	t0 = probe_now();
	if (run(&a, &b))
		return 1;
	inet_ntop(AF_INET6, a.gid.raw, ga, sizeof(ga));
	inet_ntop(AF_INET6, b.gid.raw, gb, sizeof(gb));
	printf("# %d messages over %d QPs, window %d, %s -> %s: %llu bytes checked, %.1f Mbit/s\n",
	       messages, nqps, window, ga, gb, bytes_checked,
	       bytes_checked * 8 / (probe_now() - t0) / 1e6);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-6] [-q QPS] [-n MESSAGES] [-w WINDOW] [-T TC] DEV_A DEV_B\n",
		argv[0]);
	return 2;
}
