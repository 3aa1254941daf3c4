/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A minimal KTAP producer for the protocol core's userspace unit tests.
 * Each test case is a function; a failed check prints where and why, marks
 * the case failed and carries on, so one run reports every broken case.
 */
#ifndef MRC_KTAP_H
#define MRC_KTAP_H

#include <stdio.h>
#include <stdlib.h>

struct ktap_case {
	const char *name;
	void (*run)(void);
};

extern int ktap_case_failed;

#define KTAP_CASE(fn) { #fn, fn }

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: check failed: %s\n",		\
			       __FILE__, __LINE__, #cond);		\
			ktap_case_failed = 1;				\
		}							\
	} while (0)

#define CHECK_EQ(actual, expected)					\
	do {								\
		long long a_ = (long long)(actual);			\
		long long e_ = (long long)(expected);			\
		if (a_ != e_) {						\
			printf("# %s:%d: %s == %lld, expected %lld\n",	\
			       __FILE__, __LINE__, #actual, a_, e_);	\
			ktap_case_failed = 1;				\
		}							\
	} while (0)

/* Runs every case, prints KTAP, returns the process exit status. */
int ktap_run(const char *suite, const struct ktap_case *cases, int count);

#define KTAP_MAIN(suite, cases)						\
	int main(void)							\
	{								\
		return ktap_run(suite, cases,				\
				(int)(sizeof(cases) / sizeof(cases[0])));\
	}

#endif /* MRC_KTAP_H */
