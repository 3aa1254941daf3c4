#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# RC traffic between two hosts (network namespaces) with standard ibverbs
# programs. ibv_rc_pingpong --chk checks every received buffer byte.
# lab-timeout: 600
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
mrc_require_loaded
command -v ibv_rc_pingpong >/dev/null || ktap_skip_all "needs ibverbs-utils"
command -v ib_write_lat >/dev/null || ktap_skip_all "needs perftest"

ktap_begin 6
trap 'remove_two_hosts; mrc_cleanup' EXIT
remove_two_hosts
make_two_hosts || ktap_skip_all "cannot build the two hosts"

for size in 1 4096 65536; do
	ktap_check "rc_pingpong_${size}B_checked" run_client_server 120 \
		ibv_rc_pingpong -g 1 -s $size -n 100 -c
done
ktap_check "ib_write_lat" run_perftest_pair 120 ib_write_lat -x 1 -n 200
ktap_check "ib_send_lat" run_perftest_pair 120 ib_send_lat -x 1 -n 200
ktap_check "ib_atomic_bw" run_perftest_pair 120 ib_atomic_bw -x 1 -n 200
ktap_finish
