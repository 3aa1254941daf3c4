#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Line coverage of core sources from the gcov data in OBJDIR (their objects
# built with --coverage and the tests run):
#   coverage.sh OBJDIR SOURCE...
# One line per source, then the total over all of them.
set -u
objdir=$1
shift
total_hit=0 total_lines=0
for src in "$@"; do
	# gcov -n prints "File 'x.c'" then "Lines executed:P% of N" per file,
	# headers included; keep the source's own record.
	read -r pct lines < <(gcov -n -o "$objdir" "$src" 2>/dev/null |
		awk -v f="$src" '/^File / { want = index($0, f) > 0 }
			want && /^Lines executed/ {
				split($2, a, ":"); sub("%", "", a[2]);
				print a[2], $4; exit }')
	if [ -z "${lines:-}" ]; then
		printf '%-22s no data\n' "$(basename "$src")"
		continue
	fi
	printf '%-22s %6.2f%% of %5d lines\n' "$(basename "$src")" "$pct" "$lines"
	total_hit=$(awk -v h="$total_hit" -v p="$pct" -v n="$lines" \
		'BEGIN { printf "%.0f", h + p * n / 100 }')
	total_lines=$((total_lines + lines))
done
awk -v h="$total_hit" -v n="$total_lines" 'BEGIN {
	printf "%-22s %6.2f%% of %5d lines\n", "total", n ? 100 * h / n : 0, n }'
