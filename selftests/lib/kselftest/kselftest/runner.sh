#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A minimal stand-in for the kernel's kselftest/runner.sh (see ../lib.mk):
# run_many PROGRAM... runs each program of the collection in the current
# directory under the timeout of its "settings" file (timeout=SECONDS,
# default 45), prefixes what it prints with '# ' and reports it as one TAP
# line: ok, ok # SKIP (exit 4), not ok # TIMEOUT (exit 124), not ok # exit=N.
# Sourced with BASE_DIR set to the directory above the collection's.
export skip_rc=4
export timeout_rc=124
export kselftest_default_timeout=45
logfile=${logfile:-/dev/stdout}

if [ -z "$BASE_DIR" ]; then
	echo "Error: BASE_DIR must be set before sourcing." >&2
	exit 1
fi

run_one()	# DIR TEST NUM
{
	dir=$1 test=$2 num=$3
	name=$(basename "$test")
	kselftest_timeout=$kselftest_default_timeout
	if [ -r "$BASE_DIR/$dir/settings" ]; then
		value=$(sed -n 's/^timeout=\([0-9]*\)$/\1/p' "$BASE_DIR/$dir/settings")
		[ -z "$value" ] || kselftest_timeout=$value
	fi
	hdr="selftests: $dir: $name"
	echo "# $hdr"
	if [ ! -x "$test" ]; then
		echo "# Warning: file $test is missing or not executable"
		echo "not ok $num $hdr"
		return
	fi
	rc_file=$(mktemp)
	(
		cd "$(dirname "$test")" &&
		timeout --foreground "$kselftest_timeout" "./$name" 2>&1
		echo $? >"$rc_file"
	) | sed -u 's/^/# /' >>"$logfile"
	rc=$(cat "$rc_file")
	rm -f "$rc_file"
	case $rc in
	0) echo "ok $num $hdr" ;;
	"$skip_rc") echo "ok $num $hdr # SKIP" ;;
	"$timeout_rc") echo "not ok $num $hdr # TIMEOUT $kselftest_timeout seconds" ;;
	*) echo "not ok $num $hdr # exit=$rc" ;;
	esac
}

run_many()	# PROGRAM...
{
	echo "TAP version 13"
	DIR="${PWD#"${BASE_DIR}"/}"
	test_num=0
	echo "1..$#"
	for TEST in "$@"; do
		test_num=$((test_num + 1))
		run_one "$DIR" "$TEST" "$test_num"
	done
}
