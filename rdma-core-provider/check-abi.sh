#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Which libibverbs the soft-MRC provider links against, which layout of
# libibverbs' private provider ABI that library has, and whether what we
# built matches it. The Makefile calls it at each step:
#
#   check-abi.sh detect CC FLAGS...
#	Links an empty shared object with CC FLAGS -libverbs -Wl,--trace,
#	i.e. exactly as the provider is linked (so -L in LDFLAGS, --sysroot
#	or -B in CFLAGS count), and reports the library the linker took:
#	    LAYOUT PABI SLOTS RELEASE LIBRARY
#	on stdout, or one line saying why not (exit status 1).
#   check-abi.sh layout RELEASE PRIVATE
#	The layout for rdma-core RELEASE (44.0) exporting version node
#	PRIVATE (IBVERBS_PRIVATE_34): prints "LAYOUT PABI SLOTS", or one line
#	saying why there is none (exit status 1).
#   check-abi.sh objects LIBRARY PABI OBJECT...
#	Every libibverbs private function the objects call is exported by
#	LIBRARY under IBVERBS_PRIVATE_<PABI>.
#   check-abi.sh linked PROVIDER TRACE LIBRARY PABI SLOTS
#	After the link: the linker's --trace output TRACE names LIBRARY,
#	PROVIDER needs IBVERBS_PRIVATE_<PABI> (and no other private version)
#	from libibverbs.so.1, and LIBRARY's verbs_set_ops() reads SLOTS
#	context ops, as far as its machine code tells.
#
# Layouts are named after the first rdma-core release that has them (see
# verbs_provider_abi.h and Documentation/abi.rst for what differs).

set -eu

# Supported rdma-core releases. 34 and 35 export IBVERBS_PRIVATE_34 as well,
# with other layouts of struct verbs_context_ops and verbs_sysfs_dev.
release_min=36
release_max=65

die()
{
	echo "check-abi: $*"
	exit 1
}

# layout_of MAJOR -> "LAYOUT PABI SLOTS" (empty if unsupported): the
# layout, the number of its IBVERBS_PRIVATE_ version node (and of the
# provider's file name) and how many verbs_context_ops slots it has.
layout_of()
{
	m=$1
	if [ "$m" -lt "$release_min" ] || [ "$m" -gt "$release_max" ]; then
		return 0
	elif [ "$m" -le 56 ]; then echo "36 34 76"
	elif [ "$m" -le 58 ]; then echo "57 57 76"
	elif [ "$m" -le 61 ]; then echo "59 59 79"
	# 62 inserted two ops slots and kept IBVERBS_PRIVATE_59.
	elif [ "$m" -le 63 ]; then echo "62 59 81"
	elif [ "$m" -le 64 ]; then echo "64 64 83"
	else echo "65 65 93"
	fi
}

supported="soft-MRC supports rdma-core $release_min to $release_max"

# cmd_layout RELEASE PRIVATE [LIBRARY]
cmd_layout()
{
	release=$1
	private=$2
	where=${3:+" ($3)"}
	major=${release%%.*}
	case $major in
	''|*[!0-9]*) die "cannot tell the rdma-core release of libibverbs$where; $supported" ;;
	esac
	found="rdma-core $release with ${private:-no IBVERBS_PRIVATE_* version}$where"
	layout=$(layout_of "$major")
	[ -n "$layout" ] || die "libibverbs is $found; $supported"
	pabi=$(echo "$layout" | cut -d' ' -f2)
	[ "$private" = "IBVERBS_PRIVATE_$pabi" ] ||
		die "libibverbs is $found, expected IBVERBS_PRIVATE_$pabi for that release; $supported"
	echo "$layout"
}

# The libibverbs.so the linker picks with these flags, from its --trace.
linked_library()
{
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo 'int mrc_check_abi_probe;' > "$tmp/probe.c"
	if ! "$@" -shared -o "$tmp/probe.so" "$tmp/probe.c" -libverbs \
		-Wl,--trace > "$tmp/trace" 2> "$tmp/err"; then
		why=$(grep -m 1 -i 'cannot find\|error' "$tmp/err" || true)
		die "cannot link with -libverbs${why:+ ($why)}; install libibverbs-dev"
	fi
	traced_library "$tmp/trace"
}

# traced_library TRACE: the libibverbs the link took, as a path. GNU ld
# prints "-libverbs (PATH)" or PATH; lld prints PATH.
traced_library()
{
	sed -n 's/^.*(\(.*\/libibverbs\.[^/]*\))$/\1/p; s/^\(\/.*\/libibverbs\.[^/ ]*\)$/\1/p' \
		"$1" | head -n 1
}

# release_of LIBRARY: rdma-core names the library
# libibverbs.so.1.<ABI minor>.<release>, e.g. libibverbs.so.1.14.44.0.
release_of()
{
	real=$(readlink -f "$1")
	release=$(basename "$real" |
		  sed -n 's/^libibverbs\.so\.1\.[0-9]*\.\([0-9][0-9.]*\)$/\1/p')
	# Failing that, pkg-config, but only if it describes this library.
	if [ -z "$release" ] && command -v pkg-config >/dev/null 2>&1 &&
	   [ "$(pkg-config --variable=libdir libibverbs 2>/dev/null)" = \
	     "$(dirname "$1")" ]; then
		release=$(pkg-config --modversion libibverbs 2>/dev/null |
			  sed -n 's/^1\.[0-9]*\.\([0-9][0-9.]*\)$/\1/p')
	fi
	echo "$release"
}

private_versions()
{
	objdump -T "$1" | grep -o 'IBVERBS_PRIVATE_[0-9A-Za-z_]*' | sort -u |
		tr '\n' ' ' | sed 's/ $//'
}

cmd_detect()
{
	[ $# -ge 1 ] || die "usage: $0 detect CC FLAGS..."
	lib=$(linked_library "$@") || { echo "$lib"; exit 1; }
	[ -n "$lib" ] || die "the linker's trace names no libibverbs; install libibverbs-dev"
	case $lib in
	*.so) ;;
	*) die "the linker took $lib, not a shared libibverbs" ;;
	esac
	real=$(readlink -f "$lib")
	[ -f "$real" ] || die "$lib is a dangling link"
	private=$(private_versions "$real") ||
		die "cannot read the symbol table of $real"
	layout=$(cmd_layout "$(release_of "$lib")" "$private" "$real") ||
		{ echo "$layout"; exit 1; }
	echo "$layout $(release_of "$lib") $real"
}

cmd_objects()
{
	[ $# -ge 3 ] || die "usage: $0 objects LIBRARY PABI OBJECT..."
	lib=$1
	want=IBVERBS_PRIVATE_$2
	shift 2

	dynsyms=$(objdump -T "$lib") ||
		die "cannot read the symbol table of $lib"
	# Every function the objects import that libibverbs defines under a
	# private version must be there under ours; a name that looks private
	# but is not defined at all is reported too, rather than left to the
	# linker.
	defined=$(printf '%s\n' "$dynsyms" | grep -v '\*UND\*' |
		  awk 'NF >= 2 { print $(NF - 1), $NF }')
	imports=$(nm -u "$@" | awk 'NF == 2 { print $2 }' | sort -u)

	missing=
	count=0
	for sym in $imports; do
		version=$(printf '%s\n' "$defined" |
			  awk -v sym="$sym" '$2 == sym { print $1; exit }')
		case $version in
		"$want")
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
		die "$lib does not export these with version $want:$missing"
	[ "$count" -gt 0 ] || die "no libibverbs private symbols referenced by $*"
	echo "check-abi: $lib provides $want and all $count private symbols soft-MRC uses"
}

# ops_slots_read LIBRARY: how many verbs_context_ops slots verbs_set_ops()
# copies, from its machine code: it tests each slot of the ops it is given
# for NULL (load from BASE+8*n, then test), so the highest such offset
# from the most used base register gives the slot count. Prints nothing if
# the code does not look like that (another compiler, another arch).
ops_slots_read()
{
	set -- $(objdump -T "$1" | awk '$NF == "verbs_set_ops" { print $1, $5; exit }') "$1"
	[ $# -eq 3 ] || return 0
	start=$((0x$1))
	objdump -d --no-show-raw-insn --start-address="$start" \
		--stop-address=$((start + 0x$2)) "$3" 2>/dev/null | awk '
	function hex(s,  i, v) {
		v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/\tmov +(0x[0-9a-f]+)?\(%r[a-z0-9]+\),%r[a-z0-9]+$/ {
		split($NF, p, ","); dst = p[2]
		off = p[1]; sub(/\(.*/, "", off); if (off == "") off = "0"
		base = p[1]; sub(/.*\(/, "", base); sub(/\)/, "", base)
		pending = 1; next
	}
	pending && /\ttest +%r/ {
		split($NF, q, ",")
		if (q[1] == dst && q[2] == dst && !((base, off) in seen)) {
			seen[base, off] = 1; n[base]++
			if (hex(off) > max[base]) max[base] = hex(off)
		}
		pending = 0; next
	}
	{ pending = 0 }
	END {
		for (b in n) if (n[b] > best) { best = n[b]; slots = max[b] / 8 + 1 }
		# Too few tests to be the op copy loop: say nothing.
		if (best >= 32) print slots
	}'
}

cmd_linked()
{
	[ $# -eq 5 ] || die "usage: $0 linked PROVIDER TRACE LIBRARY PABI SLOTS"
	provider=$1
	trace=$2
	lib=$3
	want=IBVERBS_PRIVATE_$4
	slots=$5

	took=$(traced_library "$trace")
	[ -n "$took" ] || die "the link of $provider took no libibverbs ($trace)"
	[ "$(readlink -f "$took")" = "$lib" ] ||
		die "$provider was linked against $(readlink -f "$took"), but its layout was chosen for $lib"

	needs=$(readelf -V "$provider" |
		grep -o 'IBVERBS_PRIVATE_[0-9A-Za-z_]*' | sort -u | tr '\n' ' ')
	[ "$needs" = "$want " ] ||
		die "$provider needs ${needs:-no private version} from libibverbs, expected $want"

	read=$(ops_slots_read "$lib")
	if [ -z "$read" ]; then
		echo "check-abi: cannot count the ops slots verbs_set_ops() reads in $lib; relying on the release"
	elif [ "$read" -ne "$slots" ]; then
		die "$lib's verbs_set_ops() reads $read ops slots, the layout chosen for it has $slots"
	fi
	echo "check-abi: $provider needs $want of $lib${read:+, whose verbs_set_ops() reads $read ops slots as declared}"
}

[ $# -ge 1 ] || die "usage: $0 detect|layout|objects|linked ..."
cmd=$1
shift
case $cmd in
detect) cmd_detect "$@" ;;
layout)
	[ $# -eq 2 ] || die "usage: $0 layout RELEASE PRIVATE"
	cmd_layout "$1" "$2" ;;
objects) cmd_objects "$@" ;;
linked) cmd_linked "$@" ;;
*) die "unknown command $cmd" ;;
esac
