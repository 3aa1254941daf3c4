// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* ib_device_get_by_name(), removed from ib_core's exports (7.x). */
#include <rdma/ib_verbs.h>

struct ib_device *mrc_probe(const char *name);
struct ib_device *mrc_probe(const char *name)
{
	return ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
}
