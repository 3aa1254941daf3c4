#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Runs installed kselftests: a minimal stand-in for the kernel's
# run_kselftest.sh, installed by selftests/mrc's `make install` when no
# kernel source is at hand. Same interface for what it supports:
#   run_kselftest.sh [-t COLLECTION:TEST]... [-c COLLECTION]... [-l] [-h]
BASE_DIR=$(realpath "$(dirname "$0")")
cd "$BASE_DIR" || exit 1
TESTS="$BASE_DIR"/kselftest-list.txt
if [ ! -r "$TESTS" ]; then
	echo "$0: Could not find list of tests to run ($TESTS)" >&2
	available=""
else
	available="$(cat "$TESTS")"
fi

. ./kselftest/runner.sh

usage()
{
	sed -n 's/^#   //p' "$0"
	exit "$1"
}

selected=""
while [ $# -gt 0 ]; do
	case $1 in
	-t | --test) selected="$selected $2"; shift 2 ;;
	-c | --collection)
		found=$(echo "$available" | grep "^$2:") ||
			{ echo "No such collection '$2'" >&2; exit 1; }
		selected="$selected $found"
		shift 2 ;;
	-l | --list) echo "$available"; exit 0 ;;
	-h | --help) usage 0 ;;
	*) usage 1 ;;
	esac
done
if [ -n "$selected" ]; then
	for test in $selected; do
		echo "$available" | grep -qx "$test" ||
			{ echo "No such test '$test'" >&2; exit 1; }
	done
	available=$(echo $selected | tr ' ' '\n')
fi

for collection in $(echo "$available" | cut -d: -f1 | uniq); do
	tests=$(echo "$available" | grep "^$collection:" | cut -d: -f2)
	# shellcheck disable=SC2086 # one word per test
	(cd "$collection" && run_many $tests)
done
