#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Refuse to build the soft-MRC provider against a libibverbs whose private
# provider ABI differs from the one verbs_provider_abi.h declares.
#
# usage: check-abi.sh CC OBJECT...
#
# The objects are the provider's compiled sources: every libibverbs private
# function they call must be exported by the installed library under
# IBVERBS_PRIVATE_34. Since rdma-core changed struct layouts without changing
# that version (see verbs_provider_abi.h), the rdma-core release must also be
# one whose layouts were checked.

set -eu

supported_private=IBVERBS_PRIVATE_34
# Releases whose provider structs were compared with verbs_provider_abi.h.
verified_min=36
verified_max=56

die()
{
	echo "check-abi: $*" >&2
	exit 1
}

[ $# -ge 2 ] || die "usage: $0 CC OBJECT..."
cc=$1
shift

# The library the link step will use (libibverbs-dev's symlink), resolved to
# the real file: its name carries the rdma-core release.
devlink=$($cc -print-file-name=libibverbs.so) || die "cannot run $cc"
case $devlink in
/*) ;;
*) die "libibverbs.so not found by $cc; install libibverbs-dev" ;;
esac
lib=$(readlink -f "$devlink")
[ -f "$lib" ] || die "$devlink is a dangling link"

dynsyms=$(objdump -T "$lib") || die "cannot read the symbol table of $lib"

privates=$(printf '%s\n' "$dynsyms" |
	   grep -o 'IBVERBS_PRIVATE_[0-9A-Za-z_]*' | sort -u | tr '\n' ' ')
privates=${privates% }
[ -n "$privates" ] ||
	die "$lib exports no IBVERBS_PRIVATE_* symbols;" \
	    "it cannot load providers"
[ "$privates" = "$supported_private" ] ||
	die "installed libibverbs private ABI is $privates;" \
	    "soft-MRC supports $supported_private ($lib)"

# libibverbs.so.1.<abi minor>.<rdma-core release>, e.g. 1.14.44.0
release=$(basename "$lib" |
	  sed -n 's/^libibverbs\.so\.1\.[0-9]*\.\([0-9][0-9.]*\)$/\1/p')
if [ -z "$release" ] && command -v pkg-config >/dev/null 2>&1; then
	release=$(pkg-config --modversion libibverbs 2>/dev/null |
		  sed -n 's/^1\.[0-9]*\.\([0-9][0-9.]*\)$/\1/p')
fi
[ -n "$release" ] || die "cannot tell which rdma-core release $lib comes from"
major=${release%%.*}
if [ "$major" -lt "$verified_min" ] || [ "$major" -gt "$verified_max" ]; then
	die "installed libibverbs is rdma-core $release;" \
	    "verbs_provider_abi.h was verified against rdma-core" \
	    "$verified_min..$verified_max only (rdma-core 34 and 35 also" \
	    "export $supported_private, but with other struct layouts)"
fi

# Every function the objects import that libibverbs defines under a private
# version must be there under ours; a name that looks private but is not
# defined at all is reported too, rather than left to the linker.
defined=$(printf '%s\n' "$dynsyms" | grep -v '\*UND\*' |
	  awk 'NF >= 2 { print $(NF - 1), $NF }')
imports=$(nm -u "$@" | awk 'NF == 2 { print $2 }' | sort -u)

missing=
count=0
for sym in $imports; do
	version=$(printf '%s\n' "$defined" |
		  awk -v sym="$sym" '$2 == sym { print $1; exit }')
	case $version in
	"$supported_private")
		count=$((count + 1)) ;;
	IBVERBS_PRIVATE_*|"(IBVERBS_PRIVATE_"*)
		missing="$missing $sym@$version" ;;
	"")
		case $sym in
		*verbs_*|ibv_cmd_*) missing="$missing $sym" ;;
		esac ;;
	esac
done
[ -z "$missing" ] ||
	die "$lib does not export these with version" \
	    "$supported_private:$missing"
[ "$count" -gt 0 ] || die "no libibverbs private symbols referenced by $*"

echo "check-abi: $lib (rdma-core $release) provides $supported_private" \
     "and all $count private symbols soft-MRC uses"
