// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ktap.h"

int ktap_case_failed;

int ktap_run(const char *suite, const struct ktap_case *cases, int count)
{
	int failed = 0;

	printf("KTAP version 1\n# suite: %s\n1..%d\n", suite, count);
	for (int i = 0; i < count; i++) {
		ktap_case_failed = 0;
		cases[i].run();
		printf("%sok %d %s\n", ktap_case_failed ? "not " : "", i + 1,
		       cases[i].name);
		failed += ktap_case_failed;
	}
	fflush(stdout);
	return failed ? 1 : 0;
}
