// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mpi-check: MPI over soft-MRC with every result checked, for mpi.sh.
 *
 *   mpirun ... mpi-check [-m MAX_BYTES] [-i ITERS]
 *
 * With any number of ranks (at least 2):
 *   - point to point: rank r and rank r + N/2 exchange messages of 1 KiB,
 *     four times more each step, up to exactly MAX_BYTES (default 64 MiB),
 *     each filled with a pattern of (sender, size, iteration) and checked
 *     byte for byte on arrival; the bandwidth of each size is reported;
 *   - alltoall: every rank sends each other rank a block of its own
 *     pattern, blocks of 1 KiB, eight times more each step, up to MAX_BYTES
 *     / N (the last step exactly that: the whole buffer); every block is
 *     checked;
 *   - allreduce: sums of int64 vectors of 1 KiB, eight times more each
 *     step, up to exactly MAX_BYTES, every element checked against its
 *     closed form.
 * Rank 0 prints the figures and the verdict. Exit status 0 only when every
 * rank found every byte as it should be.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>

static int rank, nranks;
static long errors;

static uint8_t pattern(int from, size_t size, int iter, size_t off)
{
	uint64_t x = (uint64_t)from * 0x9e3779b97f4a7c15ull ^
		     size * 0xbf58476d1ce4e5b9ull ^ (uint64_t)iter << 32 ^ off;

	x ^= x >> 29;
	return (uint8_t)(x ^ x >> 11);
}

static void fill(uint8_t *buf, size_t len, int from, size_t size, int iter)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(from, size, iter, i);
}

static void check(const uint8_t *buf, size_t len, int from, size_t size,
		  int iter, const char *what)
{
	for (size_t i = 0; i < len; i++) {
		if (buf[i] != pattern(from, size, iter, i)) {
			if (errors++ < 5)
				printf("# rank %d: %s from %d, %zu B, iteration %d: byte %zu is 0x%02x, not 0x%02x\n",
				       rank, what, from, size, iter, i, buf[i],
				       pattern(from, size, iter, i));
			return;
		}
	}
}

/*
 * The size after @size in steps of @factor up to @last, which is always
 * the last one (a step short of a factor if need be); 0 after it.
 */
static size_t next_size(size_t size, size_t last, size_t factor)
{
	if (size >= last)
		return 0;
	return size * factor < last ? size * factor : last;
}

static void point_to_point(uint8_t *sbuf, uint8_t *rbuf, size_t max,
			   int iters)
{
	int half = nranks / 2, peer;

	if (rank >= 2 * half) {		/* an odd rank out: it only waits */
		for (size_t size = 1024; size; size = next_size(size, max, 4))
			MPI_Barrier(MPI_COMM_WORLD);
		return;
	}
	peer = rank < half ? rank + half : rank - half;
	for (size_t size = 1024; size; size = next_size(size, max, 4)) {
		double t0, dt;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (int it = 0; it < iters; it++) {
			fill(sbuf, size, rank, size, it);
			memset(rbuf, 0, size);
			MPI_Sendrecv(sbuf, (int)size, MPI_BYTE, peer, it,
				     rbuf, (int)size, MPI_BYTE, peer, it,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			check(rbuf, size, peer, size, it, "sendrecv");
		}
		dt = MPI_Wtime() - t0;
		if (rank == 0)
			printf("# p2p %9zu B x %d each way: %.2f MB/s per rank pair (pattern and check included)\n",
			       size, iters, 2.0 * size * iters / dt / 1e6);
	}
}

static void alltoall(uint8_t *sbuf, uint8_t *rbuf, size_t max)
{
	size_t last = max / nranks;

	if (last < 1024)
		return;
	for (size_t block = 1024; block; block = next_size(block, last, 8)) {
		double t0;

		for (int to = 0; to < nranks; to++)
			fill(sbuf + to * block, block, rank, block, to);
		memset(rbuf, 0, block * nranks);
		t0 = MPI_Wtime();
		MPI_Alltoall(sbuf, (int)block, MPI_BYTE, rbuf, (int)block,
			     MPI_BYTE, MPI_COMM_WORLD);
		for (int from = 0; from < nranks; from++)
			check(rbuf + from * block, block, from, block, rank,
			      "alltoall");
		if (rank == 0)
			printf("# alltoall %9zu B blocks, %d ranks: %.3f s\n",
			       block, nranks, MPI_Wtime() - t0);
	}
}

static void allreduce(uint8_t *sbuf, uint8_t *rbuf, size_t max)
{
	int64_t *in = (int64_t *)sbuf, *out = (int64_t *)rbuf;
	/* sum over ranks of (rank + 1) * (i + 1) = (i + 1) * n(n+1)/2 */
	int64_t tri = (int64_t)nranks * (nranks + 1) / 2;

	for (size_t bytes = 1024; bytes; bytes = next_size(bytes, max, 8)) {
		size_t n = bytes / sizeof(int64_t);
		double t0;

		for (size_t i = 0; i < n; i++)
			in[i] = (int64_t)(rank + 1) * (int64_t)(i + 1);
		memset(out, 0, bytes);
		t0 = MPI_Wtime();
		MPI_Allreduce(in, out, (int)n, MPI_INT64_T, MPI_SUM,
			      MPI_COMM_WORLD);
		for (size_t i = 0; i < n; i++) {
			if (out[i] != (int64_t)(i + 1) * tri) {
				if (errors++ < 5)
					printf("# rank %d: allreduce of %zu B: element %zu is %" PRId64 ", not %" PRId64 "\n",
					       rank, bytes, i, out[i],
					       (int64_t)(i + 1) * tri);
				break;
			}
		}
		if (rank == 0)
			printf("# allreduce %9zu B, %d ranks: %.3f s\n", bytes,
			       nranks, MPI_Wtime() - t0);
	}
}

int main(int argc, char **argv)
{
	size_t max = 64u << 20;
	long total = 0;
	int iters = 3, opt;
	uint8_t *sbuf, *rbuf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	while ((opt = getopt(argc, argv, "m:i:")) != -1) {
		if (opt == 'm')
			max = strtoull(optarg, NULL, 0);
		else if (opt == 'i')
			iters = atoi(optarg);
	}
	if (nranks < 2 || max < 1024 || iters < 1) {
		if (rank == 0)
			fprintf(stderr, "mpi-check: 2 ranks or more, -m >= 1024, -i >= 1\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	sbuf = malloc(max);
	rbuf = malloc(max);
	if (!sbuf || !rbuf)
		MPI_Abort(MPI_COMM_WORLD, 2);
	point_to_point(sbuf, rbuf, max, iters);
	alltoall(sbuf, rbuf, max);
	allreduce(sbuf, rbuf, max);
	MPI_Allreduce(&errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("# %d ranks: %s (%ld errors)\n", nranks,
		       total ? "FAILED" : "every byte checked", total);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return total ? 1 : 0;
}
