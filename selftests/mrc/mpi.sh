#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Open MPI over UCX over mrc between two namespaces, every byte checked:
# mpi.py, on the lab library (mrclab/). Its entry point.
# lab-timeout: 600
command -v python3 >/dev/null 2>&1 ||
	{ printf 'KTAP version 1\n1..0 # SKIP needs python3\n'; exit 4; }
exec python3 -B "$(dirname "$0")/mpi.py" "$@"
