#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# NCCL's IB transport's use of verbs (nccl-ib-probe) between two
# namespaces, bytes checked: nccl_ib.py, on the lab library. Its entry point.
# lab-timeout: 420
command -v python3 >/dev/null 2>&1 ||
	{ printf 'KTAP version 1\n1..0 # SKIP needs python3\n'; exit 4; }
exec python3 -B "$(dirname "$0")/nccl_ib.py" "$@"
