# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared helpers of the mrc selftests. They run as root inside the lab VM
# (scripts/mrc-vm), from a built source tree (make run_tests), or installed
# by kselftest (make install INSTALL_PATH=...) on a host or VM where mrc is
# loaded or installed (make install, DKMS). See Documentation/testing.rst.

MRC_SELFTEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# soft-MRC's source tree when the tests run from one; empty when they run
# installed or from a copy inside a kernel's tools/testing/selftests.
MRC_TOP=
if [ -e "$MRC_SELFTEST_DIR/../../drivers/infiniband/sw/mrc/mrc_main.c" ]; then
	MRC_TOP=$(cd "$MRC_SELFTEST_DIR/../.." && pwd -P)
fi
# The module file tests insmod: MRC_KO, else the tree's mrc.ko when built.
# Empty: `modprobe mrc` loads the installed module (make install, DKMS).
MRC_KO=${MRC_KO:-}
if [ -z "$MRC_KO" ] && [ -n "$MRC_TOP" ] &&
   [ -e "$MRC_TOP/drivers/infiniband/sw/mrc/mrc.ko" ]; then
	MRC_KO=$MRC_TOP/drivers/infiniband/sw/mrc/mrc.ko
fi
VERBS_PROBE=$MRC_SELFTEST_DIR/verbs-probe
# MRC_SEED (set by scripts/mrc-vm --deterministic) fixes every seed the tests
# draw from $RANDOM, so that a run repeats exactly.
if [ -n "${MRC_SEED:-}" ]; then
	RANDOM=$MRC_SEED
fi

# shellcheck source=ktap.sh
. "$MRC_SELFTEST_DIR/ktap.sh"

# run-lab's MRC_TEST_TIMEOUT_SCALE stretches each test's limit on a slower
# kernel (the debug lab kernel); a test's own waits for a client, a
# server or a transfer stretch with it: mrc_scaled SECONDS.
MRC_TIME_SCALE=${MRC_TEST_TIMEOUT_SCALE:-1}
case $MRC_TIME_SCALE in
'' | *[!0-9]* | 0) MRC_TIME_SCALE=1 ;;
esac
mrc_scaled()	# SECONDS
{
	echo $(($1 * MRC_TIME_SCALE))
}

# The same for a verbs QP timeout T (4.096 us x 2^T): one step more for
# each doubling of the scale, 31 at most.
mrc_scaled_qp_timeout()	# T
{
	local t=$1 s=$MRC_TIME_SCALE
	while [ "$s" -gt 1 ] && [ "$t" -lt 31 ]; do
		t=$((t + 1)) s=$(((s + 1) / 2))
	done
	echo "$t"
}

MRC_NO_LOADER="no module file to load: set MRC_KO=/path/to/mrc.ko, or install mrc where modprobe finds it (make install, or DKMS)"

# How this machine loads mrc: "insmod FILE", "modprobe FILE", or nothing.
mrc_loader()
{
	local file
	if [ -n "$MRC_KO" ] && [ -r "$MRC_KO" ]; then
		echo "insmod $MRC_KO"
	elif file=$(modinfo -F filename mrc 2>/dev/null) && [ -n "$file" ]; then
		echo "modprobe $file"
	fi
}

mrc_can_load()
{
	[ -n "$(mrc_loader)" ]
}

# Skips the whole program unless it can run: root, the rdma tool, and mrc
# loaded already (modprobe, DKMS, the lab VM's insmod) or loadable.
mrc_require_root_tools()
{
	[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
	command -v rdma >/dev/null || ktap_skip_all "needs rdma (iproute2)"
	mrc_module_loaded || mrc_can_load ||
		ktap_skip_all "mrc is not loaded and there is $MRC_NO_LOADER"
}

# For programs that unload mrc and load it again (with or without module
# parameters): a loaded module alone is not enough.
mrc_require_reload()
{
	mrc_can_load || ktap_skip_all "unloads and reloads mrc: $MRC_NO_LOADER"
}

# Loads mrc and skips the program if that fails.
mrc_require_loaded()
{
	mrc_load || ktap_skip_all "mrc did not load ($(mrc_loader)); see dmesg"
}

# Skips the program unless it runs from soft-MRC's source tree, naming
# what it needs from there (lab scripts, tools built in the tree).
mrc_require_tree()	# WHAT
{
	[ -n "$MRC_TOP" ] ||
		ktap_skip_all "needs soft-MRC's source tree ($1): run it from a built tree (selftests/run-lab, make run_tests), not installed"
}

# A soft-MRC tool: the tree's build, else the installed one (make install
# puts mrcctl in /usr/local/sbin). Prints nothing when there is none.
mrc_tool()	# NAME (mrcctl)
{
	if [ -n "$MRC_TOP" ] && [ -x "$MRC_TOP/tools/$1/$1" ]; then
		echo "$MRC_TOP/tools/$1/$1"
	else
		command -v "$1"
	fi
}

# Every EV of every QP of the devices, a line each, from the kernel's
# path dump (mrcctl paths): name-value pairs only, "dev D qp Q dest-qp Q
# peer P profile N ev I plane P udp PORT|usids U,U.. [profile-ev N] state
# S sent N acked N lost N probes N". Read fields by name: awk
# "$MRC_EV_FIELDS"'f["sent"] > 0 { ... }' fills f[] from each line.
mrc_ev_table()	# IBDEV...
{
	local dev mrcctl out
	mrcctl=$(mrc_tool mrcctl) || return 1
	for dev; do
		out=$("$mrcctl" paths "$dev") || return 1
		printf '%s\n' "$out" | awk -v dev="$dev" '
			$1 == "qp" { qp = $0; next }
			$1 == "ev" { $1 = $1; print "dev", dev, qp, $0 }'
	done
}
MRC_EV_FIELDS='{ split("", f); for (i = 1; i < NF; i += 2) f[$i] = $(i + 1) }
'

mrc_module_loaded()
{
	[ -d /sys/module/mrc ]
}

# Loads mrc unless it is loaded: MRC_KO (or the tree's mrc.ko) with insmod,
# after the modules it depends on; else the installed module with modprobe.
mrc_load()	# [PARAM=VALUE...]
{
	local dep
	mrc_module_loaded && return 0
	if [ -n "$MRC_KO" ] && [ -r "$MRC_KO" ]; then
		for dep in $(modinfo -F depends "$MRC_KO" 2>/dev/null | tr ',' ' '); do
			modprobe "$dep" || return 1
		done
		insmod "$MRC_KO" "$@"
	else
		modprobe mrc "$@"
	fi
}

mrc_unload()
{
	! mrc_module_loaded || rmmod mrc
}

# Loads mrc afresh with these module parameters (none: the defaults).
mrc_reload()	# [PARAM=VALUE...]
{
	mrc_unload && mrc_load "$@"
}

# Whether rdma_rxe can be loaded here (a distribution kernel has it).
rxe_available()
{
	[ -d /sys/module/rdma_rxe ] || modprobe -n -q rdma_rxe 2>/dev/null
}

# The udp_port parameter of the loaded module.
mrc_udp_port()
{
	cat /sys/module/mrc/parameters/udp_port
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

# The lab library (mrclab/) for shell: one GID lookup, one counter reader
# and one plane reader for every test, the Python tests' own.
mrclab()	# WHAT ARGS... (python3 -m mrclab --help)
{
	PYTHONPATH="$MRC_SELFTEST_DIR${PYTHONPATH:+:$PYTHONPATH}" \
		python3 -B -m mrclab "$@"
}

# The RoCE v2 GID index of ADDR (IPv4, IPv6 or a GID) on IBDEV, waiting up
# to SECONDS (default 0) for ib_core to add it; fails with a reason.
mrc_gid_index()	# IBDEV ADDR [SECONDS]
{
	mrclab gid-index "$1" "$2" --timeout "${3:-0}"
}

# IBDEV's counters as "name value" lines (only NAMEs, in order, if given;
# a NAME it lacks fails), by name from `rdma statistic`. awk, not the lab
# library: a Python start costs seconds in the TCG lab VM, and tests read
# counters in loops.
mrc_counters()	# IBDEV [NAME...]
{
	local dev=$1 out
	shift
	out=$(rdma statistic show link "$dev/1") || return 1
	printf '%s\n' "$out" | awk -v want="$*" '
	{ for (i = 1; i < NF; i++)
		if ($i ~ /^[a-z][a-z0-9_]*$/ && $(i + 1) ~ /^[0-9]+$/)
			have[$i] = $(i + 1) }
	END {
		if (want == "") {
			for (k in have) print k, have[k] | "sort"
			exit 0
		}
		n = split(want, w, " ")
		for (k = 1; k <= n; k++) {
			if (w[k] in have)
				print w[k], have[w[k]]
			else
				bad = 1
		}
		exit bad
	}'
}

# IBDEV's planes (the controller's PLANE_GET, through mrcctl), one line per
# plane of the FIELDs named, in that order: index, netdev ("-": an empty
# slot), state (up or down), tx, via_master; all five when none is named.
mrc_planes()	# IBDEV [FIELD...]
{
	local dev=$1 out
	shift
	out=$("$(mrc_tool mrcctl)" planes "$dev") || return 1
	printf '%s\n' "$out" | mrc_planes_fields "" "${*:-index netdev state tx via_master}"
}

# The FIELDs of plane N of IBDEV on one line; nothing if it has no plane N.
mrc_plane()	# IBDEV N [FIELD...]
{
	local dev=$1 n=$2 out
	shift 2
	out=$("$(mrc_tool mrcctl)" planes "$dev") || return 1
	printf '%s\n' "$out" | mrc_planes_fields "$n" "${*:-index netdev state tx via_master}"
}

# `mrcctl planes` lines ("plane N netdev X state S tx T via-master V") to
# the FIELDs asked, by name; of plane ONLY alone when it is not empty.
mrc_planes_fields()	# ONLY FIELDS
{
	awk -v only="$1" -v want="$2" '
	$1 == "plane" {
		split("", v)
		for (i = 1; i < NF; i += 2)
			v[$i] = $(i + 1)
		v["index"] = v["plane"]
		v["via_master"] = v["via-master"]
		if (only != "" && v["index"] != only)
			next
		n = split(want, w, " ")
		line = ""
		for (k = 1; k <= n; k++) {
			if (!(w[k] in v))
				bad = 1
			line = line (k > 1 ? " " : "") v[w[k]]
		}
		print line
	}
	END { exit bad }'
}

ib_exists()	# IBDEV
{
	[ -e "/sys/class/infiniband/$1" ]
}

# The first netdev of this namespace with a parent device (a NIC).
nic_netdev()
{
	local d
	for d in /sys/class/net/*; do
		[ -e "$d/device" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
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

# The device preset the tests select on every device that carries
# traffic (mrcctl dev DEV set preset): the lab's, whose CC profile fits
# the emulated lab's round trips of milliseconds. MRC_PRESET=nic keeps a
# new device's, for real NICs (Documentation/real-nics.rst).
MRC_PRESET=${MRC_PRESET:-lab}

mrc_select_preset()	# IBDEV...
{
	local mrcctl dev
	mrcctl=$(mrc_tool mrcctl)
	if [ -z "$mrcctl" ]; then
		echo "# no mrcctl (make tools, or make install): $* keep the nic preset"
		return 0
	fi
	for dev; do
		"$mrcctl" dev "$dev" set preset "$MRC_PRESET" || return 1
	done
}

# Two hosts: namespaces mrcna and mrcnb joined by a veth pair (192.0.2.1 and
# .2), with mrc0 in mrcna and mrc1 in mrcnb. GID index 1 is the IPv4 GID.
MRC_HOST_A=192.0.2.1
MRC_HOST_B=192.0.2.2

make_two_hosts()
{
	ip netns add mrcna && ip netns add mrcnb &&
	ip link add mrcva type veth peer name mrcvb &&
	ip link set mrcva netns mrcna && ip link set mrcvb netns mrcnb &&
	ip -n mrcna addr add $MRC_HOST_A/24 dev mrcva &&
	ip -n mrcnb addr add $MRC_HOST_B/24 dev mrcvb &&
	ip -n mrcna link set mrcva up && ip -n mrcna link set lo up &&
	ip -n mrcnb link set mrcvb up && ip -n mrcnb link set lo up &&
	ip netns exec mrcna rdma link add mrc0 type mrc netdev mrcva &&
	ip netns exec mrcnb rdma link add mrc1 type mrc netdev mrcvb &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0201 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "ffff:c000:0202 RoCE v2"
}

remove_two_hosts()
{
	ip netns del mrcna 2>/dev/null
	ip netns del mrcnb 2>/dev/null
	wait_for 10 ib_gone mrc0
	wait_for 10 ib_gone mrc1
	return 0
}

tcp_listening_in_b()	# PORT
{
	ip netns exec mrcnb ss -Hltn "sport = :$1" | grep -q .
}

# run_client_server TIMEOUT TOOL ARGS...: TOOL -d mrc1 ARGS runs as server
# in mrcnb, then TOOL -d mrc0 ARGS as client in mrcna towards it; both must
# succeed. The output of both is shown as diagnostics.
run_client_server()
{
	local limit=$1 tool=$2 out=/tmp/mrc-server.$$ spid sstatus cstatus i
	shift 2
	ip netns exec mrcnb timeout "$limit" "$tool" -d mrc1 "$@" >"$out" 2>&1 &
	spid=$!
	# The verbs examples and perftest listen on TCP port 18515 by default;
	# on a loaded emulated host a server may take seconds to get there.
	wait_for 30 tcp_listening_in_b 18515 || echo "the server never listened"
	ip netns exec mrcna timeout "$limit" "$tool" -d mrc0 "$@" $MRC_HOST_B 2>&1
	cstatus=$?
	# A server whose client failed may wait for it until its limit (a
	# perftest server over rdma_cm did, 290 s, after its client's clock
	# calibration gave up): it gets a short grace, then is stopped.
	if [ $cstatus -ne 0 ]; then
		for ((i = 0; i < 50; i++)); do
			kill -0 $spid 2>/dev/null || break
			sleep 0.2
		done
		kill $spid 2>/dev/null
	fi
	wait $spid
	sstatus=$?
	sed 's/^/server: /' "$out"
	rm -f "$out"
	echo "client exit $cstatus, server exit $sstatus"
	[ $cstatus -eq 0 ] && [ $sstatus -eq 0 ]
}

# perftest calibrates its cycle counter against gettimeofday() and gives
# up ("Correlation coefficient r^2 ... < 0.9", "Can't produce a report",
# exit 1, the message before the header it printed) when the fit is poor,
# as under TCG on a busy host: perftest's clock, not the transport. Up to
# MRC_PERFTEST_TRIES runs (default 4) of run_client_server TIMEOUT TOOL
# ARGS..., each repeated only when it failed that way.
MRC_PERFTEST_CLOCK_FAILED="Correlation coefficient"
run_perftest_pair()	# TIMEOUT TOOL ARGS...
{
	local try out status
	for ((try = 1; ; try++)); do
		out=$(run_client_server "$@" 2>&1)
		status=$?
		printf '%s\n' "$out"
		[ $status -eq 0 ] && return 0
		grep -q "$MRC_PERFTEST_CLOCK_FAILED" <<<"$out" || return $status
		[ "$try" -lt "${MRC_PERFTEST_TRIES:-4}" ] || return $status
		echo "perftest's clock calibration failed (run $try): again"
	done
}

# A KTAP case NAME on what `mrc-fabric flap --every PERIOD_MS` printed into
# FILE. Passes when the mean interval between downs is within 10 % of
# PERIOD_MS, no slot was skipped and no interval exceeded 1.5 x PERIOD_MS.
# Skips, with the figures, when the machine did not run the flapper in time:
# a slot skipped (its down toggle was over half the down time late), or a
# long interval within what its late wake-ups and slow toggles explain
# (flap schedules against absolute deadlines, so those are the only
# causes). Fails when FILE has no figures or fewer than 2 flaps,
# when the mean is off with no slot skipped, or an interval exceeds what
# lateness explains: then the schedule itself is wrong.
mrc_flap_period_case()	# NAME FILE PERIOD_MS
{
	local verdict
	sed 's/^/# /' "$2"
	verdict=$(awk -v p="$3" '
		/ flaps of .* achieved/ {
			n = $1
			for (i = 1; i <= NF; i++) {
				if (mean == "" && $(i + 1) == "ms" && $(i + 2) ~ /^achieved/)
					mean = $i
				if ($i == "interval") worst = $(i + 1)
				if ($(i + 1) == "slots") skipped = $i
			}
		}
		/^flap timing:/ {
			for (i = 1; i <= NF; i++) {
				if ($i == "wake-ups") late = $(i + 3)
				if ($i == "toggles") cost = $(i + 3)
			}
		}
		END {
			if (n < 2 || mean == "" || worst == "" || skipped == "") {
				print "fail no flap figures (fewer than 2 flaps?)"
				exit
			}
			fig = sprintf("%d flaps, mean %s ms, worst interval %s ms for %d ms asked, %d slots skipped, wake-ups up to %s ms late, toggles up to %s ms", n, mean, worst, p, skipped, late, cost)
			off = mean - p; if (off < 0) off = -off
			if (off <= p / 10 && skipped == 0 && worst <= 1.5 * p)
				print "pass " fig
			else if (skipped == 0 && off > p / 10)
				print "fail the mean is off with no slot skipped: " fig
			else if (skipped == 0 && worst > p + late + cost + 5)
				print "fail an interval longer than lateness explains: " fig
			else
				print "skip the machine did not run the flapper in time: " fig
		}' "$2")
	case $verdict in
	pass*)	echo "# ${verdict#pass }"; ktap_pass "$1" ;;
	skip*)	ktap_skip "$1" "${verdict#skip }" ;;
	*)	ktap_fail "$1" "${verdict#fail }" ;;
	esac
}
