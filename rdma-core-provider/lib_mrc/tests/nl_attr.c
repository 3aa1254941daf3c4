// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The attribute finders of nl_attr.h. */
#include <linux/genetlink.h>

#include "nl_attr.h"

const struct nlattr *msg_attr(const struct nlmsghdr *nlh, int type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

const struct nlattr *nest_attr(const struct nlattr *nest, int type)
{
	const struct nlattr *a;

	if (!nest)
		return NULL;
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

const struct nlattr *nest_nth(const struct nlattr *nest, int n)
{
	const struct nlattr *a;

	if (!nest)
		return NULL;
	mnl_attr_for_each_nested(a, nest)
		if (!n--)
			return a;
	return NULL;
}

int count_attrs(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;
	int n = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		n++;
	return n;
}

int count_nested(const struct nlattr *nest)
{
	const struct nlattr *a;
	int n = 0;

	if (!nest)
		return 0;
	mnl_attr_for_each_nested(a, nest)
		n++;
	return n;
}

long long attr_uint(const struct nlattr *a, unsigned int len)
{
	if (!a || mnl_attr_get_payload_len(a) != len)
		return -1;
	switch (len) {
	case 1:
		return mnl_attr_get_u8(a);
	case 2:
		return mnl_attr_get_u16(a);
	case 4:
		return mnl_attr_get_u32(a);
	case 8:
		return (long long)mnl_attr_get_u64(a);
	default:
		return -1;
	}
}
