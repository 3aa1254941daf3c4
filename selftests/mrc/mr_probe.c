// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mr-probe: memory region registration through libibverbs, for mr.sh.
 * Every check prints what it saw; the exit status is 0 only if all passed.
 *
 *   mr-probe DEVICE access      access flag combinations succeed or fail
 *                               as the IB rules and the device say
 *   mr-probe DEVICE length      zero, too long, overflowing iova ranges
 *   mr-probe DEVICE readonly    a PROT_READ buffer: read-only access
 *                               works, local write is refused
 *   mr-probe DEVICE limit       registers up to the MR limit (which must
 *                               fail with ENOMEM), then re-registers one
 *                               index many times: its key byte never
 *                               repeats within 256 registrations
 *   mr-probe DEVICE hold SECS   registers MRs, prints "ready", waits for
 *                               IBV_EVENT_DEVICE_FATAL, then deregisters
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include "probe_util.h"

#define KEY_INDEX(key)	((key) >> 8)
#define KEY_BYTE(key)	((key) & 0xff)
#define REKEY_ROUNDS	600

static long page_size;
static int failures;

#define fail(...)							\
	do {								\
		fprintf(stderr, __VA_ARGS__);				\
		failures++;						\
	} while (0)

/* The keys of any registration: one key, never below index 1. */
static void check_keys(const struct ibv_mr *mr, const char *what)
{
	if (mr->lkey != mr->rkey)
		fail("%s: lkey 0x%x != rkey 0x%x\n", what, mr->lkey, mr->rkey);
	if (KEY_INDEX(mr->lkey) == 0)
		fail("%s: key 0x%x has index 0\n", what, mr->lkey);
}

static void dereg(struct ibv_mr *mr, const char *what)
{
	int err = ibv_dereg_mr(mr);

	if (err)
		fail("%s: ibv_dereg_mr: %s\n", what, strerror(err));
}

/*
 * Registers [addr, addr + length) at iova with access; the result must be
 * success (want_errno 0) or a failure with want_errno (or alt_errno).
 */
static void expect_reg(struct ibv_pd *pd, void *addr, size_t length,
		       uint64_t iova, unsigned int access, int want_errno,
		       int alt_errno, const char *what)
{
	struct ibv_mr *mr;

	errno = 0;
	mr = ibv_reg_mr_iova2(pd, addr, length, iova, access);
	if (mr) {
		check_keys(mr, what);
		if (want_errno)
			fail("%s: registered (key 0x%x), expected %s\n", what,
			     mr->lkey, strerror(want_errno));
		else
			printf("%s: ok, key 0x%x\n", what, mr->lkey);
		dereg(mr, what);
		return;
	}
	if (!want_errno)
		fail("%s: failed with %s, expected success\n", what,
		     strerror(errno));
	else if (errno != want_errno && (!alt_errno || errno != alt_errno))
		fail("%s: failed with %s, expected %s\n", what,
		     strerror(errno), strerror(want_errno));
	else
		printf("%s: refused, %s\n", what, strerror(errno));
}

static void *map_pages(int npages, int prot)
{
	void *buf = mmap(NULL, npages * page_size, prot,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED) {
		fprintf(stderr, "mmap: %s\n", strerror(errno));
		exit(1);
	}
	return buf;
}

static void probe_access(struct ibv_pd *pd)
{
	static const struct {
		unsigned int access;
		int want_errno;
		int alt_errno;
		const char *what;
	} cases[] = {
		{ 0, 0, 0, "local_read_only" },
		{ IBV_ACCESS_LOCAL_WRITE, 0, 0, "local_write" },
		{ IBV_ACCESS_REMOTE_READ, 0, 0, "remote_read" },
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, 0, 0,
		  "local_and_remote_write" },
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_ATOMIC, 0, 0,
		  "local_write_remote_atomic" },
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC, 0, 0,
		  "all_rights" },
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING, 0, 0,
		  "relaxed_ordering_hint" },
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_HUGETLB, 0, 0,
		  "hugetlb_hint" },
		/* IB: remote write or atomic needs local write. */
		{ IBV_ACCESS_REMOTE_WRITE, EINVAL, 0, "remote_write_alone" },
		{ IBV_ACCESS_REMOTE_ATOMIC, EINVAL, 0, "remote_atomic_alone" },
		{ IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE, EINVAL, 0,
		  "remote_read_write_without_local_write" },
		/* Memory windows may be bound to it (mw.sh). */
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND, 0, 0,
		  "mw_bind" },
		/* Not implemented by the device. */
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ZERO_BASED, EOPNOTSUPP, 0,
		  "zero_based" },
		/* ib_core refuses it first (EINVAL) on 6.1. */
		{ IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND, EINVAL,
		  EOPNOTSUPP, "on_demand" },
		/* Outside IB_ACCESS_SUPPORTED and the optional range. */
		{ IBV_ACCESS_LOCAL_WRITE | (1u << 15), EINVAL, 0,
		  "unknown_bit" },
	};
	void *buf = map_pages(2, PROT_READ | PROT_WRITE);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_reg(pd, buf, 2 * page_size, (uintptr_t)buf,
			   cases[i].access, cases[i].want_errno,
			   cases[i].alt_errno, cases[i].what);

	/* Two registrations of one buffer are two MRs with two keys. */
	{
		unsigned int acc = IBV_ACCESS_LOCAL_WRITE;
		struct ibv_mr *a = ibv_reg_mr(pd, buf, page_size, acc);
		struct ibv_mr *b = ibv_reg_mr(pd, buf, page_size, acc);

		if (!a || !b) {
			fail("registering one buffer twice: %s\n",
			     strerror(errno));
		} else if (a->lkey == b->lkey) {
			fail("two MRs share key 0x%x\n", a->lkey);
		} else {
			printf("same_buffer_twice: keys 0x%x 0x%x\n",
			       a->lkey, b->lkey);
		}
		if (a)
			dereg(a, "same_buffer_twice");
		if (b)
			dereg(b, "same_buffer_twice");
	}
	munmap(buf, 2 * page_size);
}

static void probe_length(struct ibv_context *ctx, struct ibv_pd *pd)
{
	unsigned int acc = IBV_ACCESS_LOCAL_WRITE;
	struct ibv_device_attr attr;
	uint64_t top_page;
	void *buf;
	int err;

	err = ibv_query_device(ctx, &attr);
	if (err) {
		fail("ibv_query_device: %s\n", strerror(err));
		return;
	}
	printf("max_mr %d, max_mr_size 0x%" PRIx64 "\n", attr.max_mr,
	       (uint64_t)attr.max_mr_size);
	if (attr.max_mr <= 0 || attr.max_mr_size < (uint64_t)page_size)
		fail("device reports no usable MR limits\n");

	buf = map_pages(2, PROT_READ | PROT_WRITE);
	expect_reg(pd, buf, 0, (uintptr_t)buf, acc, EINVAL, 0, "length_zero");
	expect_reg(pd, buf, 1, (uintptr_t)buf, acc, 0, 0, "length_one");
	expect_reg(pd, (char *)buf + 100, page_size, (uintptr_t)buf + 100,
		   acc, 0, 0, "unaligned_across_pages");
	/* Checked before any page is pinned, so the buffer need not exist. */
	expect_reg(pd, buf, attr.max_mr_size + 1, (uintptr_t)buf, acc,
		   EINVAL, 0, "length_above_max_mr_size");
	expect_reg(pd, buf, SIZE_MAX & ~(size_t)(page_size - 1),
		   (uintptr_t)buf, acc, EINVAL, 0, "length_huge");
	/* An iova of the caller's choosing, with the same page offset. */
	expect_reg(pd, buf, 2 * page_size, 0x10000, acc, 0, 0, "custom_iova");
	top_page = UINT64_MAX & ~(uint64_t)(page_size - 1);
	expect_reg(pd, buf, 2 * page_size, top_page, acc, EINVAL, 0,
		   "iova_range_wraps");
	expect_reg(pd, buf, page_size, top_page, acc, 0, 0,
		   "iova_range_ends_at_top");
	munmap(buf, 2 * page_size);
}

static void probe_readonly(struct ibv_pd *pd)
{
	void *buf = map_pages(2, PROT_READ);
	size_t len = 2 * page_size;

	/* Pinning for write fails on a mapping the process cannot write. */
	expect_reg(pd, buf, len, (uintptr_t)buf, IBV_ACCESS_LOCAL_WRITE,
		   EFAULT, EPERM, "readonly_buffer_local_write");
	expect_reg(pd, buf, len, (uintptr_t)buf,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, EFAULT,
		   EPERM, "readonly_buffer_remote_write");
	expect_reg(pd, buf, len, (uintptr_t)buf, 0, 0, 0,
		   "readonly_buffer_local_read");
	expect_reg(pd, buf, len, (uintptr_t)buf, IBV_ACCESS_REMOTE_READ, 0, 0,
		   "readonly_buffer_remote_read");
	munmap(buf, len);
}

static void probe_limit(struct ibv_context *ctx, struct ibv_pd *pd)
{
	unsigned int acc = IBV_ACCESS_LOCAL_WRITE;
	uint8_t history[256];
	struct ibv_device_attr attr;
	struct ibv_mr **mrs, *mr;
	int count = 0, victim, err, reg_errno = 0;
	uint32_t index;
	void *buf;

	err = ibv_query_device(ctx, &attr);
	if (err) {
		fail("ibv_query_device: %s\n", strerror(err));
		return;
	}
	mrs = calloc(attr.max_mr + 1, sizeof(*mrs));
	buf = map_pages(1, PROT_READ | PROT_WRITE);
	if (!mrs) {
		fail("calloc\n");
		return;
	}

	/* Until the device says no; kernel users may hold a few MRs. */
	while (count <= attr.max_mr) {
		mrs[count] = ibv_reg_mr(pd, buf, page_size, acc);
		if (!mrs[count]) {
			reg_errno = errno;
			break;
		}
		check_keys(mrs[count], "fill");
		count++;
	}
	printf("registered %d MRs (max_mr %d), then: %s\n", count,
	       attr.max_mr, reg_errno ? strerror(reg_errno) : "nothing");
	if (count > attr.max_mr)
		fail("more than max_mr MRs registered\n");
	else if (reg_errno != ENOMEM)
		fail("registration at the limit failed with %s, not ENOMEM\n",
		     strerror(reg_errno));
	if (count < attr.max_mr - 64)
		fail("only %d of %d MRs registered\n", count, attr.max_mr);
	if (count == 0)
		goto out;

	/*
	 * Every index is taken, so an MR registered after one is freed gets
	 * that index back; its key byte must differ from those of the last
	 * 255 registrations of the index.
	 */
	victim = count / 2;
	index = KEY_INDEX(mrs[victim]->lkey);
	memset(history, 0, sizeof(history));
	for (int round = 0; round < REKEY_ROUNDS; round++) {
		uint32_t key = mrs[victim]->lkey;

		if (round < 256)
			history[KEY_BYTE(key)]++;
		dereg(mrs[victim], "rekey");
		mr = ibv_reg_mr(pd, buf, page_size, acc);
		mrs[victim] = mr;
		if (!mr) {
			fail("round %d: re-registration failed: %s\n", round,
			     strerror(errno));
			goto out;
		}
		check_keys(mr, "rekey");
		if (KEY_INDEX(mr->lkey) != index) {
			fail("round %d: index 0x%x, expected 0x%x\n", round,
			     KEY_INDEX(mr->lkey), index);
			goto out;
		}
		if (mr->lkey == key)
			fail("round %d: key 0x%x repeated\n", round, key);
	}
	for (int i = 0; i < 256; i++)
		if (history[i] > 1)
			fail("key byte 0x%02x came %d times in 256 rounds\n", i,
			     history[i]);
	printf("index 0x%x re-registered %d times, key byte never repeated within 256\n",
	       index, REKEY_ROUNDS);

out:
	for (int i = 0; i < count; i++)
		if (mrs[i])
			dereg(mrs[i], "cleanup");
	free(mrs);
	munmap(buf, page_size);
}

static int probe_hold(struct ibv_context *ctx, struct ibv_pd *pd, int seconds)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event event;
	struct ibv_mr *mrs[4];
	bool fatal = false;
	void *buf;

	buf = map_pages(4, PROT_READ | PROT_WRITE);
	for (int i = 0; i < 4; i++) {
		mrs[i] = ibv_reg_mr(pd, (char *)buf + i * page_size, page_size,
				    IBV_ACCESS_LOCAL_WRITE |
				    IBV_ACCESS_REMOTE_WRITE);
		if (!mrs[i]) {
			fprintf(stderr, "ibv_reg_mr: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);

	while (!fatal) {
		if (poll(&pfd, 1, seconds * 1000) <= 0) {
			fprintf(stderr, "no device-fatal event within %d s\n",
				seconds);
			return 1;
		}
		if (ibv_get_async_event(ctx, &event)) {
			fprintf(stderr, "ibv_get_async_event: %s\n",
				strerror(errno));
			return 1;
		}
		printf("event: %s\n", ibv_event_type_str(event.event_type));
		fatal = event.event_type == IBV_EVENT_DEVICE_FATAL;
		ibv_ack_async_event(&event);
	}
	/* The kernel already destroyed them; userspace must still succeed. */
	for (int i = 0; i < 4; i++)
		dereg(mrs[i], "after removal");
	munmap(buf, 4 * page_size);
	return failures ? 1 : 0;
}

static int usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s DEVICE access|length|readonly|limit | DEVICE hold SECONDS\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	const char *mode;
	int status = 0;

	if (argc < 3)
		return usage(argv[0]);
	mode = argv[2];
	if (!strcmp(mode, "hold") && argc < 4)
		return usage(argv[0]);
	if (strcmp(mode, "access") && strcmp(mode, "length") &&
	    strcmp(mode, "readonly") && strcmp(mode, "limit") &&
	    strcmp(mode, "hold"))
		return usage(argv[0]);

	page_size = sysconf(_SC_PAGESIZE);
	ctx = probe_open_device(argv[1]);
	if (!ctx)
		return 1;
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		fprintf(stderr, "ibv_alloc_pd: %s\n", strerror(errno));
		return 1;
	}

	if (!strcmp(mode, "access"))
		probe_access(pd);
	else if (!strcmp(mode, "length"))
		probe_length(ctx, pd);
	else if (!strcmp(mode, "readonly"))
		probe_readonly(pd);
	else if (!strcmp(mode, "limit"))
		probe_limit(ctx, pd);
	else
		status = probe_hold(ctx, pd, atoi(argv[3]));

	if (ibv_dealloc_pd(pd)) {
		fprintf(stderr, "ibv_dealloc_pd failed\n");
		status = 1;
	}
	if (ibv_close_device(ctx)) {
		fprintf(stderr, "ibv_close_device failed\n");
		status = 1;
	}
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return status || failures ? 1 : 0;
}
