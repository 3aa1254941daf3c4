#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# NVMe over RDMA, the kernel's own storage ULP, over mrc: an nvmet target
# (nvmet-rdma) exports a memory-backed null_blk namespace from one device,
# the nvme-rdma host connects from the other, and fio writes and reads with
# --verify (4 KiB random and 1 MiB sequential read/write), then the host
# disconnects, the target is taken down and every module unloads. The host
# registers each I/O's pages with fast registration (REG_MR), the target
# answers with SEND_WITH_INV or the host invalidates them (LOCAL_INV).
#
# Both ends are the kernel's, and nvme-rdma and nvmet-rdma resolve
# addresses in init_net only, so the two "hosts" are two veth ends in
# init_net (mrctna 192.0.2.1 with mrc0, mrctnb 192.0.2.2 with mrc1), each
# peer routed out of its own veth and what arrives on a veth delivered
# locally (as scripts/bench-vs-rxe does).
#
# MRC_NVME_SECONDS: seconds of each fio run (default 12, the CI form;
# MRC_NVME_LONG=1 makes it 60, the long form). A third run goes through a
# link flap of MRC_NVME_FLAP_SECONDS (2). Then both ends are rebuilt on
# bonds of two plane ports each, and a fourth run goes through the loss
# of the host's plane 1 port for MRC_NVME_PLANE_DOWN_SECONDS (3).
# lab-timeout: 900
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_root_tools
command -v nvme >/dev/null || ktap_skip_all "needs nvme-cli"
command -v fio >/dev/null || ktap_skip_all "needs fio"
for mod in nvmet nvmet_rdma nvme_rdma null_blk; do
	modprobe -n -q "$mod" 2>/dev/null ||
		ktap_skip_all "the kernel has no $mod module"
done
[ -d /sys/kernel/config ] || mount -t configfs none /sys/kernel/config
mrc_require_loaded

SECONDS_EACH=${MRC_NVME_SECONDS:-12}
[ "${MRC_NVME_LONG:-0}" = 1 ] && SECONDS_EACH=${MRC_NVME_SECONDS:-60}
A=192.0.2.1
B=192.0.2.2
NQN=nqn.2026-11.org.soft-mrc:nvme-rdma-test
PORT_ID=4791
NVMET=/sys/kernel/config/nvmet
NULLB=/sys/kernel/config/nullb/mrcnvme
NS_MB=256
OUT=$(mktemp -d /tmp/mrc-nvme.XXXXXX)
# Patterns the lab also watches for in the console (scripts/mrc-vm).
BAD='WARNING:|BUG:|Oops|lockdep|possible circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|refcount_t:|general protection fault|KASAN:|UBSAN:'

# Restores the routing rules setup_link changed; safe at any time.
restore_rules()
{
	ip rule add pref 0 lookup local 2>/dev/null
	for pref in 1 2 10 11 100; do
		ip rule del pref $pref 2>/dev/null
	done
	ip route flush table 100 2>/dev/null
	ip route flush table 101 2>/dev/null
	return 0
}

nvme_teardown()
{
	nvme disconnect -n "$NQN" >/dev/null 2>&1
	rm -f "$NVMET/ports/$PORT_ID/subsystems/$NQN" 2>/dev/null
	rmdir "$NVMET/ports/$PORT_ID" 2>/dev/null
	[ -d "$NVMET/subsystems/$NQN/namespaces/1" ] &&
		echo 0 >"$NVMET/subsystems/$NQN/namespaces/1/enable"
	rmdir "$NVMET/subsystems/$NQN/namespaces/1" 2>/dev/null
	rmdir "$NVMET/subsystems/$NQN" 2>/dev/null
	[ -d "$NULLB" ] && echo 0 >"$NULLB/power" 2>/dev/null
	rmdir "$NULLB" 2>/dev/null
	return 0
}

cleanup()
{
	nvme_teardown
	modprobe -r nvme_rdma nvmet_rdma 2>/dev/null
	modprobe -r nvmet null_blk 2>/dev/null
	mrc_cleanup
	restore_rules
	sysctl -qw net.ipv4.conf.all.rp_filter="$RP_ALL" \
		net.ipv4.conf.default.rp_filter="$RP_DEFAULT" 2>/dev/null
	rm -rf "$OUT"
}

RP_ALL=$(sysctl -n net.ipv4.conf.all.rp_filter)
RP_DEFAULT=$(sysctl -n net.ipv4.conf.default.rp_filter)
ktap_begin 14
trap cleanup EXIT
nvme_teardown
mrc_cleanup
restore_rules
echo "nvme_rdma.sh: start" >/dev/kmsg

setup_link()
{
	make_veth mrctna mrctnb &&
	ip addr add $A/32 dev mrctna && ip addr add $B/32 dev mrctnb &&
	sysctl -qw net.ipv4.conf.all.rp_filter=0 \
		net.ipv4.conf.default.rp_filter=0 \
		net.ipv4.conf.mrctna.rp_filter=0 \
		net.ipv4.conf.mrctnb.rp_filter=0 \
		net.ipv4.conf.mrctna.accept_local=1 \
		net.ipv4.conf.mrctnb.accept_local=1 &&
	ip route add $B/32 dev mrctna table 100 &&
	ip route add $A/32 dev mrctnb table 101 &&
	ip rule add from $A table 100 pref 10 &&
	ip rule add from $B table 101 pref 11 &&
	ip rule add iif mrctna lookup local pref 1 &&
	ip rule add iif mrctnb lookup local pref 2 &&
	ip rule add pref 100 lookup local &&
	ip rule del pref 0 lookup local &&
	rdma link add mrc0 type mrc netdev mrctna &&
	rdma link add mrc1 type mrc netdev mrctnb &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0201 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "ffff:c000:0202 RoCE v2"
}
setup_link || ktap_skip_all "cannot build the two ends in init_net"

# mrc advertises what nvme-rdma needs: fast registration and invalidation.
mem_mgt_extensions()
{
	local caps
	caps=$(rdma dev show mrc0 -d 2>/dev/null)
	echo "$caps" | grep -o "caps: <[^>]*>" | head -n 1
	ibv_devinfo -v -d mrc0 | grep -A3 device_cap_flags | head -n 4
	ibv_devinfo -v -d mrc0 | grep -q MEM_MGT_EXTENSIONS
}
ktap_check "device_advertises_mem_mgt_extensions" mem_mgt_extensions

# The null_blk device of the target, named after its configfs directory
# (older kernels: nullbINDEX).
target_dev()
{
	local dev=/dev/${NULLB##*/}
	[ -b "$dev" ] || dev=/dev/nullb$(cat "$NULLB/index" 2>/dev/null)
	[ -b "$dev" ] && echo "$dev"
}

# The target: a memory-backed null_blk device (so that bytes written can
# be read back), one subsystem with one namespace, an RDMA port on B.
target_up()
{
	modprobe null_blk nr_devices=0 && modprobe nvmet && modprobe nvmet_rdma &&
	mkdir "$NULLB" && echo $NS_MB >"$NULLB/size" &&
	echo 1 >"$NULLB/memory_backed" && echo 4096 >"$NULLB/blocksize" &&
	echo 1 >"$NULLB/power" || return 1
	wait_for 5 target_dev || { echo "no block device for $NULLB"; return 1; }
	TARGET_DEV=$(target_dev)
	mkdir "$NVMET/subsystems/$NQN" &&
	echo 1 >"$NVMET/subsystems/$NQN/attr_allow_any_host" &&
	mkdir "$NVMET/subsystems/$NQN/namespaces/1" &&
	echo "$TARGET_DEV" >"$NVMET/subsystems/$NQN/namespaces/1/device_path" &&
	echo 1 >"$NVMET/subsystems/$NQN/namespaces/1/enable" &&
	mkdir "$NVMET/ports/$PORT_ID" &&
	echo rdma >"$NVMET/ports/$PORT_ID/addr_trtype" &&
	echo ipv4 >"$NVMET/ports/$PORT_ID/addr_adrfam" &&
	echo $B >"$NVMET/ports/$PORT_ID/addr_traddr" &&
	echo 4420 >"$NVMET/ports/$PORT_ID/addr_trsvcid" &&
	ln -s "$NVMET/subsystems/$NQN" "$NVMET/ports/$PORT_ID/subsystems/$NQN" &&
	echo "target $NQN on $B:4420, namespace $TARGET_DEV ($NS_MB MiB)"
}
TARGET_DEV=
ktap_check "target_nvmet_rdma_up" target_up
# The cases run in subshells: what they found is looked up again here.
[ -L "$NVMET/ports/$PORT_ID/subsystems/$NQN" ] && TARGET_DEV=$(target_dev)

# The host's block device of our subsystem's namespace.
host_dev()
{
	local b
	for b in /sys/block/nvme*; do
		[[ ${b##*/} =~ ^nvme[0-9]+n[0-9]+$ ]] || continue
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$NQN" ] &&
			echo "/dev/${b##*/}" && return 0
	done
	return 1
}

# Both ends' RC queue pairs of the connection are on mrc devices.
rc_qps()	# IBDEV
{
	rdma resource show qp link "$1/1" | grep -c "type RC"
}

host_connect()
{
	local n0 n1
	modprobe nvme_rdma || return 1
	# The keep-alive timeout is nvme-cli's 5 s, stretched on a slower
	# kernel: the debug kernel's target missed it while the link flapped.
	nvme connect -t rdma -a $B -s 4420 -w $A -n "$NQN" -i 2 \
		-k "$(mrc_scaled 5)" || return 1
	wait_for 30 host_dev || { echo "no namespace appeared"; return 1; }
	HOST_DEV=$(host_dev)
	n0=$(rc_qps mrc0)
	n1=$(rc_qps mrc1)
	echo "host namespace $HOST_DEV, $(blockdev --getsize64 "$HOST_DEV") bytes; RC QPs: mrc0 $n0, mrc1 $n1"
	[ "$(blockdev --getsize64 "$HOST_DEV")" -eq $((NS_MB << 20)) ] &&
	[ "$n0" -ge 3 ] && [ "$n1" -ge 3 ]
}
HOST_DEV=
if [ -n "$TARGET_DEV" ]; then
	ktap_check "host_nvme_rdma_connect" host_connect
	HOST_DEV=$(host_dev)
else
	ktap_skip "host_nvme_rdma_connect" "no target"
fi

# fio_verified NAME FIO-ARGS...: a time-based run whose every write is
# read back and checked (crc32c and the block's offset in its header):
# continuously (verify_backlog) and once more at the end; any mismatch
# fails fio (verify_fatal). Prints the bytes written and read. How many
# reads fio counts for verification varies with the mix (sequential rw
# read less than it wrote on a loaded host): only fio's verdict counts.
fio_verified()
{
	local name=$1 status w r t
	shift
	fio --name="$name" --filename="$HOST_DEV" --direct=1 \
		--ioengine=libaio --time_based --runtime="$SECONDS_EACH" \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--verify_backlog=256 --verify_state_save=0 \
		--output-format=json --output="$OUT/$name.json" "$@" \
		>"$OUT/$name.log" 2>&1
	status=$?
	tail -n 5 "$OUT/$name.log"
	read -r w r t < <(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["write"]["io_bytes"], j["read"]["io_bytes"],
      "%.1f" % (j["job_runtime"] / 1000), file=sys.stdout)
e = j["error"]
sys.exit(1 if e else 0)' "$OUT/$name.json" 2>/dev/null) || status=1
	echo "$name: fio exit $status, ${w:-?} bytes written (verified by the backlog and the final pass), ${r:-?} bytes read in all in ${t:-?}s ($(awk -v w="${w:-0}" -v r="${r:-0}" -v s="${t:-$SECONDS_EACH}" 'BEGIN { printf "%.1f MB/s", (w + r) / s / 1e6 }'))"
	[ "$status" -eq 0 ] && [ "${w:-0}" -gt 0 ] && [ "${r:-0}" -gt 0 ] &&
		! grep -qi "verify.*\(bad\|fail\)" "$OUT/$name.log"
}

if [ -n "$HOST_DEV" ]; then
	ktap_check "fio_4k_randrw_verify" fio_verified randrw4k \
		--rw=randrw --bs=4k --iodepth=16
	ktap_check "fio_1m_rw_verify" fio_verified rw1m \
		--rw=rw --bs=1m --iodepth=4
else
	ktap_skip "fio_4k_randrw_verify" "not connected"
	ktap_skip "fio_1m_rw_verify" "not connected"
fi

# The link goes down for FLAP_SECONDS and comes back while fio runs: the
# QPs retransmit what the dead link lost (within their retry budget), the
# connection stays up and every byte is still verified. Both veth ends
# lose carrier, so both devices' ports go down; IPv4 deletes the routes
# through a link that goes down, so they are put back once it is up.
# Then the queues must not have needed nvme-rdma's error recovery: once
# the port is back, probes prove its paths and what the outage held is
# resent at once (paths.rst, "A path back to a stalled QP"), well within
# the keep-alive timeout; a backed-off RTO would not be.
FLAP_SECONDS=${MRC_NVME_FLAP_SECONDS:-2}
flap_link()
{
	sleep $((SECONDS_EACH / 3))
	echo "nvme_rdma.sh: flap" >/dev/kmsg
	ip link set mrctna down
	sleep "$FLAP_SECONDS"
	ip link set mrctna up
	ip route replace $B/32 dev mrctna table 100
	ip route replace $A/32 dev mrctnb table 101
	echo "link mrctna was down for ${FLAP_SECONDS}s from $((SECONDS_EACH / 3))s"
}

fio_through_flap()
{
	local status fpid
	flap_link >"$OUT/flap.log" 2>&1 &
	fpid=$!
	fio_verified flap4k --rw=randrw --bs=4k --iodepth=16
	status=$?
	wait "$fpid"
	cat "$OUT/flap.log"
	# Whether the QPs rode it out or nvme-rdma had to reconnect.
	dmesg | sed -n '/nvme_rdma.sh: flap/,$p' |
		grep -E "nvme|mrc|rdma" | head -n 12
	for dev in mrc0 mrc1; do
		echo "$dev: $(mrc_counters $dev timeouts retransmits_timeout retransmits_plane \
			path_back_restarts probes_sent probes_answered tx_errors |
			paste -sd ' ')"
	done
	ip link show mrctna | grep -q "state UP" || { echo "mrctna not up"; return 1; }
	return $status
}

if [ -n "$HOST_DEV" ]; then
	ktap_check "fio_4k_randrw_verify_through_link_flap" fio_through_flap
else
	ktap_skip "fio_4k_randrw_verify_through_link_flap" "not connected"
fi

# No error recovery since MARK was logged: no keep-alive expired, no
# queue was torn down and reconnected.
queues_rode_out()	# MARK
{
	local log
	log=$(dmesg | sed -n "\\|$1|,\$p")
	[ -n "$log" ] || { echo "no \"$1\" in the kernel log"; return 1; }
	echo "error recoveries: $(grep -c 'starting error recovery' <<<"$log"), reconnects: $(grep -c 'Successfully reconnected' <<<"$log")"
	! grep -qE 'keep-alive timer .* expired|starting error recovery|Reconnecting in' <<<"$log"
}

if [ -n "$HOST_DEV" ]; then
	ktap_check "queues_rode_out_the_link_flap" \
		queues_rode_out "nvme_rdma.sh: flap"
else
	ktap_skip "queues_rode_out_the_link_flap" "not connected"
fi

# What the host wrote is on the target's own device, byte for byte.
bytes_on_target()
{
	local pattern=/var/tmp/mrc-nvme-pattern.$$ status
	head -c $((8 << 20)) /dev/urandom >"$pattern" &&
	dd if="$pattern" of="$HOST_DEV" bs=1M seek=17 oflag=direct \
		status=none || return 1
	dd if="$TARGET_DEV" of="$OUT/readback" bs=1M skip=17 count=8 \
		iflag=direct status=none
	cmp "$pattern" "$OUT/readback"
	status=$?
	echo "8 MiB written by the host at 17 MiB, compared on $TARGET_DEV: cmp exit $status"
	rm -f "$pattern"
	return $status
}
if [ -n "$HOST_DEV" ]; then
	ktap_check "host_writes_land_on_target_device" bytes_on_target
else
	ktap_skip "host_writes_land_on_target_device" "not connected"
fi

# A plane port loss. The same two ends rebuilt on two bonds (balance-xor)
# of two plane ports each, as the fabric's bonded hosts have: mrctba
# (192.0.2.1, mrc0) of mrctpa0 and mrctpa1, mrctbb (192.0.2.2, mrc1) of
# mrctpb0 and mrctpb1, joined plane by plane (mrctpa0-mrctpb0,
# mrctpa1-mrctpb1). A packet of plane P leaves on slave P and the bond it
# arrives on delivers it, so the rules of setup_link work on the bonds.
# The host's plane 1 port then goes down for PLANE_DOWN_SECONDS while fio
# runs, taking the carrier of the target's plane 1 port with it (veth).
# fio must outlast the windows the per-plane counters are read in, which
# a loaded emulated host stretches far beyond their sleeps: it runs until
# the last window is read (its trigger file), PLANE_MAX_SECONDS at most,
# and at least SECONDS_EACH in the long form.
PLANE_DOWN_SECONDS=${MRC_NVME_PLANE_DOWN_SECONDS:-3}
PLANE_EXTRA_SECONDS=0
[ "${MRC_NVME_LONG:-0}" = 1 ] && PLANE_EXTRA_SECONDS=$SECONDS_EACH
PLANE_MAX_SECONDS=$(($(mrc_scaled 120) + PLANE_EXTRA_SECONDS))
# A window's packets on a plane in use: more than probes and keep-alives
# alone send in it.
PLANE_MIN_PACKETS=20

setup_planes()
{
	local p
	for p in 0 1; do
		ip link add mrctpa$p type veth peer name mrctpb$p || return 1
	done
	ip link add mrctba type bond mode balance-xor miimon 100 &&
	ip link add mrctbb type bond mode balance-xor miimon 100 || return 1
	for p in 0 1; do
		ip link set mrctpa$p master mrctba &&
		ip link set mrctpb$p master mrctbb || return 1
	done
	ip link set mrctba up && ip link set mrctbb up &&
	ip addr add $A/32 dev mrctba && ip addr add $B/32 dev mrctbb &&
	sysctl -qw net.ipv4.conf.mrctba.rp_filter=0 \
		net.ipv4.conf.mrctbb.rp_filter=0 \
		net.ipv4.conf.mrctba.accept_local=1 \
		net.ipv4.conf.mrctbb.accept_local=1 &&
	ip route add $B/32 dev mrctba table 100 &&
	ip route add $A/32 dev mrctbb table 101 &&
	ip rule add from $A table 100 pref 10 &&
	ip rule add from $B table 101 pref 11 &&
	ip rule add iif mrctba lookup local pref 1 &&
	ip rule add iif mrctbb lookup local pref 2 &&
	ip rule add pref 100 lookup local &&
	ip rule del pref 0 lookup local &&
	# Permanent neighbours, as the fabric has for its gateway: a plane's
	# packets go straight to its slave from the first one.
	ip neigh replace $B dev mrctba nud permanent \
		lladdr "$(cat /sys/class/net/mrctbb/address)" &&
	ip neigh replace $A dev mrctbb nud permanent \
		lladdr "$(cat /sys/class/net/mrctba/address)" &&
	rdma link add mrc0 type mrc netdev mrctba &&
	rdma link add mrc1 type mrc netdev mrctbb &&
	mrc_select_preset mrc0 mrc1 &&
	wait_for 5 ib_has_gid mrc0 "ffff:c000:0201 RoCE v2" &&
	wait_for 5 ib_has_gid mrc1 "ffff:c000:0202 RoCE v2" &&
	wait_for 5 plane_is mrc0 1 up && wait_for 5 plane_is mrc1 1 up &&
	"$MRCCTL" planes mrc0 && "$MRCCTL" planes mrc1
}

# The state (up or down) of plane N of IBDEV, and what it sent: mrcctl
# itself, as a Python start costs seconds under emulation.
plane_is()	# IBDEV N STATE
{
	[ "$("$MRCCTL" planes "$1" | mrc_planes_fields "$2" state)" = "$3" ]
}

# Packets mrc0 and mrc1 sent on their planes 0 and 1: "A0 A1 B0 B1".
planes_tx()
{
	{ "$MRCCTL" planes mrc0 && "$MRCCTL" planes mrc1; } |
		mrc_planes_fields "" tx | paste -sd ' '
}

# Tears down the connection and the veth ends, builds the bonds, exports
# the namespace again and connects to it over them.
reconnect_over_planes()
{
	nvme disconnect -n "$NQN" >/dev/null || return 1
	wait_for 20 eval '! host_dev' || { echo "namespace still there"; return 1; }
	nvme_teardown
	mrc_cleanup
	wait_for 10 ib_gone mrc0 && wait_for 10 ib_gone mrc1 || return 1
	restore_rules
	setup_planes || { echo "cannot build the two bonds"; return 1; }
	target_up && host_connect
}

MRCCTL=$(mrc_tool mrcctl)
PLANES_WHY=
if [ -z "$MRCCTL" ]; then
	PLANES_WHY="needs mrcctl (make tools)"
elif ! modprobe -q bonding; then
	PLANES_WHY="the kernel has no bonding module"
elif [ -z "$HOST_DEV" ]; then
	PLANES_WHY="not connected"
fi
if [ -z "$PLANES_WHY" ]; then
	ktap_check "host_reconnects_over_two_plane_bonds" reconnect_over_planes
	HOST_DEV=$(host_dev)
	TARGET_DEV=$(target_dev)
	[ -n "$HOST_DEV" ] || PLANES_WHY="not connected over the bonds"
else
	ktap_skip "host_reconnects_over_two_plane_bonds" "$PLANES_WHY"
fi

# Runs beside fio: the per-plane counters in each window, as lines
# "WINDOW-EDGE A0 A1 B0 B1".
# Whether mrc0 has sent more than PLANE_MIN_PACKETS on plane 0 since it
# had sent FROM: fio's I/O flows.
io_flows()	# FROM
{
	local now
	now=$(planes_tx) || return 1
	[ "${now%% *}" -gt $(($1 + PLANE_MIN_PACKETS)) ]
}

plane_port_loss()
{
	local from i start
	# fio takes seconds to start issuing I/O on a loaded emulated host:
	# the window before begins once it does.
	from=$(planes_tx)
	for ((i = 0; i < 60; i++)); do
		io_flows "${from%% *}" && break
		sleep 1
	done
	echo "before0 $(planes_tx)"
	sleep 2
	echo "before1 $(planes_tx)"
	echo "nvme_rdma.sh: plane port loss" >/dev/kmsg
	start=$EPOCHREALTIME
	ip link set mrctpa1 down
	wait_for 10 plane_is mrc0 1 down || echo "# mrc0 plane 1 never went down"
	wait_for 10 plane_is mrc1 1 down || echo "# mrc1 plane 1 never went down"
	# What was already queued on the plane leaves or is dropped. What
	# was in flight on it is lost and the I/O waits for its retransmits:
	# the window begins once I/O flows on plane 0 again, and how long
	# that took from the port's loss is a figure (resumed_after SECONDS),
	# not the question.
	sleep 0.5
	from=$(planes_tx)
	for ((i = 0; i < $(mrc_scaled 100); i++)); do
		io_flows "${from%% *}" && break
		sleep 0.1
	done
	echo "resumed_after $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
	echo "down0 $(planes_tx)"
	sleep "$PLANE_DOWN_SECONDS"
	echo "down1 $(planes_tx)"
	ip link set mrctpa1 up
	wait_for 10 plane_is mrc0 1 up || echo "# mrc0 plane 1 never came back"
	wait_for 10 plane_is mrc1 1 up || echo "# mrc1 plane 1 never came back"
	echo "up0 $(planes_tx)"
	sleep 3
	echo "up1 $(planes_tx)"
	sleep "$PLANE_EXTRA_SECONDS"
	touch "$OUT/planes.done"
}

fio_through_plane_loss()
{
	local status ppid SECONDS_EACH=$PLANE_MAX_SECONDS
	plane_port_loss >"$OUT/planes.log" 2>&1 &
	ppid=$!
	fio_verified planes4k --rw=randrw --bs=4k --iodepth=16 \
		--trigger-file="$OUT/planes.done"
	status=$?
	wait "$ppid"
	cat "$OUT/planes.log"
	# fio removes its trigger file once it has seen it.
	[ ! -e "$OUT/planes.done" ] && grep -q "^up1 " "$OUT/planes.log" ||
		{ echo "fio ended before the last window"; status=1; }
	dmesg | sed -n '/nvme_rdma.sh: plane port loss/,$p' |
		grep -E "nvme|mrc|rdma|bond" | head -n 12
	for dev in mrc0 mrc1; do
		echo "$dev: $(mrc_counters $dev timeouts retransmits_timeout \
			retransmits_plane plane_state_sent plane_state_applied \
			probes_sent probes_answered tx_errors | paste -sd ' ')"
	done
	return $status
}

# The packets of each device on each plane in each window: both planes
# before, plane 0 alone while plane 1 was down, plane 1 again after.
planes_used_around_loss()
{
	local w a0 a1 b0 b1 w0 w1 d i dev p n resumed ok=0
	declare -A at
	while read -r w a0 a1 b0 b1; do
		[[ $w == "#"* ]] && { ok=1; continue; }
		at[$w]="$a0 $a1 $b0 $b1"
	done <"$OUT/planes.log"
	resumed=${at[resumed_after]:-?}
	echo "I/O flowed on plane 0 again ${resumed%% *} s after the port went down"
	for w in before down up; do
		[ -n "${at[${w}0]:-}" ] && [ -n "${at[${w}1]:-}" ] ||
			{ echo "no $w window"; return 1; }
		read -ra w0 <<<"${at[${w}0]}"
		read -ra w1 <<<"${at[${w}1]}"
		for i in 0 1 2 3; do
			d[i]=$((w1[i] - w0[i]))
		done
		echo "$w: mrc0 plane 0 +${d[0]}, plane 1 +${d[1]}; mrc1 plane 0 +${d[2]}, plane 1 +${d[3]}"
		for i in 0 1 2 3; do
			dev=mrc$((i / 2))
			p=$((i % 2))
			n=${d[$i]}
			case $w/$p in
			down/1)	[ "$n" -eq 0 ] ||
					{ echo "$dev sent on its down plane"; ok=1; } ;;
			before/*|down/0|up/1)
				[ "$n" -ge $PLANE_MIN_PACKETS ] ||
					{ echo "$dev sent $n on plane $p ($w)"; ok=1; } ;;
			esac
		done
	done
	return $ok
}

if [ -z "$PLANES_WHY" ]; then
	ktap_check "fio_4k_randrw_verify_through_plane_port_loss" \
		fio_through_plane_loss
	ktap_check "planes_used_before_surviving_while_down_both_after" \
		planes_used_around_loss
	ktap_check "queues_rode_out_the_plane_port_loss" \
		queues_rode_out "nvme_rdma.sh: plane port loss"
else
	ktap_skip "fio_4k_randrw_verify_through_plane_port_loss" "$PLANES_WHY"
	ktap_skip "planes_used_before_surviving_while_down_both_after" "$PLANES_WHY"
	ktap_skip "queues_rode_out_the_plane_port_loss" "$PLANES_WHY"
fi

# Disconnect, take the target down, unload every module of the stack.
teardown_clean()
{
	if [ -n "$HOST_DEV" ]; then
		nvme disconnect -n "$NQN" || return 1
		wait_for 20 eval '! host_dev' ||
			{ echo "namespace still there"; return 1; }
	fi
	nvme_teardown
	modprobe -r nvme_rdma nvmet_rdma && modprobe -r nvmet null_blk || return 1
	for m in nvme_rdma nvmet_rdma nvmet null_blk; do
		[ -d /sys/module/$m ] && { echo "$m still loaded"; return 1; }
	done
	mrc_cleanup
	wait_for 10 ib_gone mrc0 && wait_for 10 ib_gone mrc1 &&
	mrc_unload && ! mrc_module_loaded && echo "all modules unloaded"
}
ktap_check "disconnect_and_unload" teardown_clean

# No warning, bug or lockdep report since the start.
dmesg_clean()
{
	local log
	log=$(dmesg | sed -n '/nvme_rdma.sh: start/,$p')
	echo "$log" | grep -E "nvme|nvmet" | tail -n 8
	! echo "$log" | grep -E "$BAD"
}
ktap_check "dmesg_clean" dmesg_clean

# Leave mrc loaded, as the tests after this one expect.
mrc_load || echo "# mrc did not load again"
ktap_finish
