#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Hostile packets at a live queue pair, each counted under its reason, the
# connection untouched: hostile_packets.py, on the lab library (mrclab/).
# Its entry point.
command -v python3 >/dev/null 2>&1 ||
	{ printf 'KTAP version 1\n1..0 # SKIP needs python3\n'; exit 4; }
exec python3 -B "$(dirname "$0")/hostile_packets.py" "$@"
