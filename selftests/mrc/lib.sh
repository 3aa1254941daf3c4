# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared helpers of the mrc selftests. They run as root inside the lab VM
# (scripts/mrc-vm) or on a real host where mrc.ko may be loaded.

MRC_SELFTEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MRC_TOP=$(cd "$MRC_SELFTEST_DIR/../.." && pwd)
MRC_KO=${MRC_KO:-$MRC_TOP/drivers/infiniband/sw/mrc/mrc.ko}
VERBS_PROBE=$MRC_SELFTEST_DIR/verbs-probe

# shellcheck source=../lib/ktap.sh
. "$MRC_SELFTEST_DIR/../lib/ktap.sh"

mrc_require_root_tools()
{
	[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
	command -v rdma >/dev/null || ktap_skip_all "needs rdma (iproute2)"
	[ -r "$MRC_KO" ] || ktap_skip_all "no $MRC_KO: run make first"
}

mrc_module_loaded()
{
	[ -d /sys/module/mrc ]
}

mrc_load()
{
	mrc_module_loaded || insmod "$MRC_KO"
}

mrc_unload()
{
	! mrc_module_loaded || rmmod mrc
}

# Polls COMMAND until it succeeds or SECONDS (tenths allowed) pass.
wait_for()	# SECONDS COMMAND...
{
	local tenths deadline
	tenths=$(awk "BEGIN { print int($1 * 10) }")
	shift
	for ((deadline = tenths; deadline > 0; deadline--)); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}

ib_exists()	# IBDEV
{
	[ -e "/sys/class/infiniband/$1" ]
}

ib_gone()	# IBDEV
{
	! ib_exists "$1"
}

# The port state as sysfs says it, e.g. "ACTIVE" or "DOWN".
ib_port_state()	# IBDEV
{
	sed 's/^[0-9]*: *//' "/sys/class/infiniband/$1/ports/1/state"
}

ib_port_state_is()	# IBDEV STATE
{
	[ "$(ib_port_state "$1")" = "$2" ]
}

# Every GID of port 1 that is set, one per line as "GID TYPE". One grep
# reads the whole table: a process per entry is slow under emulation.
ib_gids()	# IBDEV
{
	local port=/sys/class/infiniband/$1/ports/1 file gid
	grep -H . "$port"/gids/* 2>/dev/null |
	grep -v ':0000:0000:0000:0000:0000:0000:0000:0000$' |
	while IFS= read -r file; do
		gid=${file#*gids/*:}
		file=${file%%:*}
		echo "$gid $(cat "$port/gid_attrs/types/${file##*/}")"
	done
}

ib_has_gid()	# IBDEV GID-REGEX
{
	ib_gids "$1" | grep -qiE "$2"
}

ib_lacks_gid()	# IBDEV GID-REGEX
{
	! ib_has_gid "$@"
}

# A veth pair with both ends up, so the first end has carrier.
make_veth()	# NAME PEER
{
	ip link add "$1" type veth peer name "$2" &&
	ip link set "$1" up && ip link set "$2" up
}

# Removes everything the tests may have made; safe to call at any time.
mrc_cleanup()
{
	local dev
	for dev in /sys/class/infiniband/mrc*; do
		[ -e "$dev" ] && rdma link delete "${dev##*/}" 2>/dev/null
	done
	for dev in /sys/class/net/mrct*; do
		[ -e "$dev" ] && ip link del "${dev##*/}" 2>/dev/null
	done
	return 0
}
