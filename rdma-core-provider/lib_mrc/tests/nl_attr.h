/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Finding attributes in the requests the unit tests capture (fake_nl.c):
 * what ctl_test.c, nl_test.c and tools/mrcctl/mrcctl_test.c check
 * requests with.
 */
#ifndef LIB_MRC_TEST_NL_ATTR_H
#define LIB_MRC_TEST_NL_ATTR_H

#include <libmnl/libmnl.h>

/* The first attribute of type @type at the top of @nlh, or NULL. */
const struct nlattr *msg_attr(const struct nlmsghdr *nlh, int type);
/* The first of type @type inside @nest (NULL: none), or NULL. */
const struct nlattr *nest_attr(const struct nlattr *nest, int type);
/* The @n-th attribute inside @nest, or NULL. */
const struct nlattr *nest_nth(const struct nlattr *nest, int n);
int count_attrs(const struct nlmsghdr *nlh);
int count_nested(const struct nlattr *nest);
/* An unsigned attribute of exactly @len bytes (1, 2, 4, 8), or -1. */
long long attr_uint(const struct nlattr *a, unsigned int len);

#endif /* LIB_MRC_TEST_NL_ATTR_H */
