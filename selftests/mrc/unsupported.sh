#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What soft-MRC lacks (ODP, device memory, dma-buf MRs, XRC, raw packet
# and driver QPs) is refused at once with the error conformance.rst lists,
# and the device stays usable: unsupported-probe on one device.
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
PROBE=$MRC_SELFTEST_DIR/unsupported-probe
[ -x "$PROBE" ] || ktap_skip_all "no $PROBE: run make first"

trap mrc_cleanup EXIT
mrc_cleanup
make_veth mrctu0 mrctu0p || ktap_skip_all "cannot create a veth pair"
rdma link add mrc0 type mrc netdev mrctu0 ||
	ktap_skip_all "rdma link add failed (see link.sh)"
timeout 60 "$PROBE" mrc0
exit $?
