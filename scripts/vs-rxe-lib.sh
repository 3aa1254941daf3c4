# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# shellcheck shell=bash
# mrc beside rxe inside the lab VM, as scripts/bench-vs-rxe sets them up:
# the veth pair both devices sit on, the four devices, a perftest
# server/client pair and the parsers of its results. Sourced by
# scripts/profile-vs-rxe; $top is the tree.
#
# Topology: rxe on 6.1 opens its UDP socket in init_net only, so both
# devices of each pair live in init_net on the two ends of one veth pair.
# Routes send each peer address out of its veth, and packets arriving on a
# veth are looked up in the local table, so traffic really crosses the veth
# instead of short-cutting through lo. mrc listens on UDP 4792 so that rxe
# keeps 4791.

A=192.0.2.1
B=192.0.2.2

setup_link()
{
	ip link add bva type veth peer name bvb
	ip addr add $A/32 dev bva
	ip addr add $B/32 dev bvb
	ip link set bva up
	ip link set bvb up
	sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
	sysctl -qw net.ipv4.conf.bva.rp_filter=0 net.ipv4.conf.bvb.rp_filter=0
	sysctl -qw net.ipv4.conf.bva.accept_local=1 net.ipv4.conf.bvb.accept_local=1
	# Out of the own veth to the peer; deliver what arrives on a veth.
	ip route add $B/32 dev bva table 100
	ip route add $A/32 dev bvb table 101
	ip rule add from $A table 100 pref 10
	ip rule add from $B table 101 pref 11
	ip rule add iif bva lookup local pref 1
	ip rule add iif bvb lookup local pref 2
	ip rule del pref 0 lookup local 2>/dev/null
	ip rule add pref 100 lookup local
}

# rxea/rxeb and mrca/mrcb on the two veths, mrc with the lab's preset.
# shellcheck disable=SC2154 # $top is the sourcing script's
setup_devices()
{
	modprobe rdma_rxe || return 1
	insmod "$top/drivers/infiniband/sw/mrc/mrc.ko" udp_port=4792 || return 1
	rdma link add rxea type rxe netdev bva || return 1
	rdma link add rxeb type rxe netdev bvb || return 1
	rdma link add mrca type mrc netdev bva || return 1
	rdma link add mrcb type mrc netdev bvb || return 1
	# The lab's preset: NSCC tuned to emulated round trips (real-nics.rst).
	local dev
	for dev in mrca mrcb; do
		"$top/tools/mrcctl/mrcctl" dev $dev set preset lab || return 1
	done
	sleep 2
}

# Each run gets a TCP port of its own: no waiting out TIME_WAIT.
next_port=18515

listening()	# PORT
{
	ss -Hltn "sport = :$1" | grep -q .
}

# run_pair TOOL DEV_SERVER DEV_CLIENT ARGS... -> prints the client's output
# PAIR_BEFORE_CLIENT and PAIR_AFTER_CLIENT, if set, name commands run once
# the server listens and once the client is done (scripts/profile-vs-rxe
# samples only between the two).
run_pair()
{
	local tool=$1 srv=$2 cli=$3 port=$next_port i status
	shift 3
	next_port=$((next_port + 1))
	timeout 300 "$tool" -d "$srv" -x 1 -p "$port" "$@" \
		>/tmp/bench-srv.log 2>&1 &
	local spid=$!
	# A bandwidth server registers its buffers before it listens, which
	# takes seconds under emulation: a client started blindly after a
	# fixed sleep finds nobody and gives no figure.
	for ((i = 0; i < 300; i++)); do
		listening "$port" && break
		sleep 0.1
	done
	${PAIR_BEFORE_CLIENT:-}
	timeout 300 "$tool" -d "$cli" -x 1 -p "$port" "$@" $B 2>&1
	status=$?
	${PAIR_AFTER_CLIENT:-}
	[ $status -eq 0 ] || kill $spid 2>/dev/null
	wait $spid
	return $status
}

# The average bandwidth (MB/s) from perftest's result line.
bw_of()
{
	awk '/^[ \t]*[0-9]+[ \t]+[0-9]+[ \t]+[0-9.]+[ \t]+[0-9.]+/ { v = $4 } END { print v }'
}

# The message rate (Mpps) from perftest's bandwidth result line.
rate_of()
{
	awk '/^[ \t]*[0-9]+[ \t]+[0-9]+[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]+[0-9.]+/ { v = $5 } END { print v }'
}

# Loads every program and library once and runs each device once, so that
# no measured run waits for the host's file server (lab.rst, deterministic
# mode).
warm_up()
{
	local tool dev
	for tool in ib_write_bw ib_send_bw ib_read_bw ib_send_lat; do
		"$tool" -h >/dev/null 2>&1
	done
	ibv_devinfo >/dev/null 2>&1
	for dev in rxe mrc; do
		run_pair ib_write_bw "${dev}b" "${dev}a" -s 4096 -n 20 >/dev/null
	done
}
