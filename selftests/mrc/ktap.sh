# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# KTAP output for shell selftests, kselftest conventions: exit 0 when every
# case passed, 1 when any failed, 4 (KSFT_SKIP) when all were skipped.
# Sourced; callers set -u but not -e, so a failing command becomes a failed
# case rather than a silent exit.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

ktap_case_number=0
ktap_passed=0
ktap_failed=0
ktap_skipped=0
ktap_known=0

ktap_begin()	# PLANNED_CASES
{
	echo "KTAP version 1"
	echo "1..$1"
	ktap_mark_time
}

# Where the time goes, for CI's budget: a case that took a second or more
# since the previous one ended (its setup included) says so before its
# result line. Microseconds from bash's EPOCHREALTIME.
ktap_mark_time()
{
	ktap_case_start=${EPOCHREALTIME/./}
}

ktap_case_time()	# NAME
{
	local now=${EPOCHREALTIME/./} us
	[ -n "${ktap_case_start:-}" ] && [ -n "$now" ] || return 0
	us=$((now - ktap_case_start))
	[ $us -ge 1000000 ] &&
		printf '# case-time %s %d.%d s\n' "$1" $((us / 1000000)) \
			$((us % 1000000 / 100000))
	ktap_case_start=$now
}

ktap_info()
{
	echo "# $*"
}

ktap_pass()	# NAME
{
	ktap_case_time "$1"
	ktap_case_number=$((ktap_case_number + 1))
	ktap_passed=$((ktap_passed + 1))
	echo "ok $ktap_case_number $1"
}

ktap_fail()	# NAME [WHY]
{
	ktap_case_time "$1"
	ktap_case_number=$((ktap_case_number + 1))
	ktap_failed=$((ktap_failed + 1))
	[ $# -gt 1 ] && echo "# $1: $2"
	echo "not ok $ktap_case_number $1"
}

# A known failure: the case ran and failed for a reason an open issue
# tracks. KTAP's TODO directive; it fails nothing, but the summary lists it.
ktap_xfail()	# NAME WHY
{
	ktap_case_time "$1"
	ktap_case_number=$((ktap_case_number + 1))
	ktap_known=$((ktap_known + 1))
	echo "not ok $ktap_case_number $1 # TODO $2"
}

ktap_skip()	# NAME WHY
{
	ktap_case_time "$1"
	ktap_case_number=$((ktap_case_number + 1))
	ktap_skipped=$((ktap_skipped + 1))
	echo "ok $ktap_case_number $1 # SKIP $2"
}

# Runs COMMAND..., showing what it prints as diagnostics; its status.
ktap_run_case()
{
	local out status
	out=$("$@" 2>&1)
	status=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
	return $status
}

# ktap_check NAME COMMAND...: one case, passing when COMMAND succeeds. What
# COMMAND prints is shown as diagnostics.
ktap_check()
{
	local name=$1 status
	shift
	ktap_run_case "$@"
	status=$?
	if [ $status -eq 0 ]; then
		ktap_pass "$name"
	else
		ktap_fail "$name" "exit status $status"
	fi
}

# ktap_check_known NAME WHY COMMAND...: like ktap_check, but a failure is a
# known one (ktap_xfail, WHY names the open issue). A pass is still a pass.
ktap_check_known()
{
	local name=$1 why=$2
	shift 2
	if ktap_run_case "$@"; then
		ktap_pass "$name"
	else
		ktap_xfail "$name" "$why"
	fi
}

ktap_finish()
{
	echo "# totals: pass:$ktap_passed fail:$ktap_failed skip:$ktap_skipped xfail:$ktap_known"
	if [ $ktap_failed -gt 0 ]; then
		exit $KSFT_FAIL
	elif [ $ktap_passed -eq 0 ] && [ $ktap_skipped -gt 0 ]; then
		exit $KSFT_SKIP
	fi
	exit $KSFT_PASS
}

# Skips the whole program, kselftest style, printing why.
ktap_skip_all()	# WHY
{
	echo "KTAP version 1"
	echo "1..0 # SKIP $1"
	exit $KSFT_SKIP
}
