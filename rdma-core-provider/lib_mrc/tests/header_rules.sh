#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The OCP headers as a program meets them, KTAP: the compile-time version
# rules of mrc_api_ver.h and mrc_ctl_api_ver.h (a program may not state a
# version newer than the header's; the oldest supported one warns; LATEST
# means current; a 1.0.0 program does not see the 1.0.1 calls), the
# headers clean under -Wall -Wextra -Werror -pedantic as C and as C++, and
# the OCP way of consuming the folder (-I and the library side by side,
# -l_mrc or -lnv_mrc, each recording its own name).
#   header_rules.sh LIB_DIR
set -u
export LC_ALL=C
lib=$(cd "${1:-..}" && pwd)
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/selftests/lib/ktap.sh"
work=$(mktemp -d /tmp/lib-mrc-headers.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc=${CC:-cc}
cxx=${CXX:-g++}

# A program stating VERSION (or nothing) and calling what it may.
program()	# FILE USED_DEFINE EXTRA_CODE
{
	cat >"$1" <<-EOC
	$2
	#include <mrc.h>
	#include <mrc_ctl.h>
	int main(void)
	{
		uint32_t cur, last, vend, vlast;

		mrc_query_version(&cur, &last, &vend, &vlast);
		$3
		return 0;
	}
	EOC
}

compiles()	# SOURCE [FLAGS...]
{
	local src=$1
	shift
	$cc -std=gnu11 -Wall -Wextra -Werror -pedantic -I"$lib" -c -o "$work/o.o" "$src" "$@"
}

refused_with()	# MESSAGE-REGEX SOURCE [FLAGS...]
{
	local out re=$1 src=$2
	shift 2
	if out=$(compiles "$src" -Wno-error "$@" 2>&1); then
		echo "compiled, expected: $re"
		return 1
	fi
	grep -qE "$re" <<<"$out" || { echo "$out"; return 1; }
}

warns_with()	# MESSAGE-REGEX SOURCE
{
	local out
	out=$(compiles "$2" -Wno-error -Wno-cpp 2>&1) || { echo "$out"; return 1; }
	out=$(compiles "$2" -Wno-error 2>&1)
	grep -qE "$1" <<<"$out" || { echo "no warning matching $1: $out"; return 1; }
}

ktap_begin 9

program "$work/current.c" "" \
	"struct mrc_device_attr a; int s; (void)mrc_query_device_ex(0, 0, &a, &s);
	_Static_assert(MRC_API_VER_USED == MRC_API_VER(1, 0, 1), \"current\");"
ktap_check "current_version_by_default_is_clean" compiles "$work/current.c"

program "$work/latest.c" "#define MRC_API_VER_USED MRC_API_VER_LATEST
#define MRC_CTL_API_VER_USED MRC_CTL_API_VER_LATEST" \
	"_Static_assert(MRC_API_VER_USED == MRC_API_CURRENT_VERSION, \"latest\");
	_Static_assert(MRC_CTL_API_VER_USED == MRC_CTL_API_CURRENT_VERSION, \"latest\");"
ktap_check "latest_means_current" compiles "$work/latest.c"

program "$work/newer.c" "#define MRC_API_VER_USED MRC_API_VER(1, 0, 2)" ""
ktap_check "newer_api_than_header_is_an_error" \
	refused_with "MRC_API_VER_USED is newer" "$work/newer.c"

program "$work/newer_ctl.c" "#define MRC_CTL_API_VER_USED MRC_CTL_API_VER(1, 1, 0)" ""
ktap_check "newer_ctl_api_than_header_is_an_error" \
	refused_with "MRC_CTL_API_VER_USED is newer" "$work/newer_ctl.c"

program "$work/oldest.c" "#define MRC_API_VER_USED MRC_API_VER(0, 0, 0)" ""
ktap_check "oldest_supported_version_warns" \
	warns_with "MRC_API_VER_USED is the oldest supported" "$work/oldest.c"

program "$work/v100.c" "#define MRC_API_VER_USED MRC_API_VER(1, 0, 0)
#define MRC_CTL_API_VER_USED MRC_CTL_API_VER(1, 0, 0)" \
	"struct mrc_device_attr a; int s; (void)mrc_query_device_ex(0, 0, &a, &s);"
ktap_check "a_1_0_0_program_does_not_see_query_device_ex" \
	refused_with "implicit declaration of function .mrc_query_device_ex" "$work/v100.c" \
	-Werror=implicit-function-declaration

cxx_compiles()
{
	command -v "$cxx" >/dev/null || { echo "no $cxx (scripts/setup installs g++)"; return 1; }
	program "$work/cxx.cc" "" "struct mrc_qp_attr a = {}; (void)a;"
	$cxx -std=c++11 -Wall -Wextra -Werror -pedantic -I"$lib" -c -o "$work/cxx.o" "$work/cxx.cc"
}
ktap_check "headers_compile_as_cxx" cxx_compiles

# As the OCP examples' makefile does: -I the folder, link its library.
links_as()	# NAME LINK-ARGS...
{
	local name=$1 needed
	shift
	program "$work/link.c" "" ""
	$cc -std=gnu11 -I"$lib" -o "$work/link" "$work/link.c" "$@" -libverbs || return 1
	needed=$(readelf -d "$work/link" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
	grep -qx "$name" <<<"$needed" || { echo "NEEDED: $needed"; return 1; }
}
ktap_check "ocp_makefile_way_records_lib_mrc_so" links_as lib_mrc.so "$lib/lib_mrc.so"
ktap_check "lnv_mrc_records_libnv_mrc_so" links_as libnv_mrc.so -L"$lib" -lnv_mrc
ktap_finish
