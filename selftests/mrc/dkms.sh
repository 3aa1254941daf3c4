#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# DKMS as a user runs it (README, "DKMS"): the module's sources (dkms.conf,
# Kbuild, Makefile, drivers/, include/; no git, no tests) go to
# /usr/src/soft-mrc-VERSION, then dkms add, build and install for the
# running kernel; `modprobe mrc` loads the module DKMS installed and the
# mrc device type works (rdma link add/delete); then modprobe -r and dkms
# remove leave the system as it was.
# Writes into the system (/usr/src, /var/lib/dkms, /lib/modules): runs only
# in the lab VM, or with MRC_ALLOW_INSTALL=1 on a disposable machine, and
# never over a soft-mrc already in DKMS. A long test, so not in
# TEST_PROGS: in the TCG lab the module build took 591 and 702 s, dkms
# install and remove (depmod over 9p) 130 to 230 s each, 776 and 1133 s in
# all (the second on a host loaded by other VMs); on trixie's lab (dkms
# 3.2) build 770 s, install 322 s, remove 266 s, 1440 s in all. Run it with
#   scripts/mrc-vm --timeout 3000 [--distro trixie] -- selftests/run-lab dkms.sh
# lab-timeout: 2700
set -u
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || ktap_skip_all "needs root"
mrc_require_tree "the module's sources and dkms.conf"
command -v dkms >/dev/null || ktap_skip_all "needs dkms"
command -v rdma >/dev/null || ktap_skip_all "needs rdma (iproute2)"
kver=$(uname -r)
[ -e "/lib/modules/$kver/build/Makefile" ] ||
	ktap_skip_all "needs the running kernel's headers (/lib/modules/$kver/build, e.g. linux-headers-$kver)"
[ "$(hostname)" = mrc-lab ] || [ -n "${MRC_ALLOW_INSTALL:-}" ] ||
	ktap_skip_all "installs into the system: runs only in the lab VM (or with MRC_ALLOW_INSTALL=1)"

conf=$MRC_TOP/dkms.conf
pkg_name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$conf")
pkg_ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$conf")
[ -n "$pkg_name" ] && [ -n "$pkg_ver" ] || ktap_skip_all "no PACKAGE_NAME or PACKAGE_VERSION in $conf"
src=/usr/src/$pkg_name-$pkg_ver
if [ -e "$src" ] || [ -n "$(dkms status -m "$pkg_name" 2>/dev/null)" ]; then
	ktap_skip_all "$pkg_name is in DKMS already ($src, dkms status): this test would replace it"
fi
# What DKMS gets: the module's build and nothing else of the tree.
DKMS_PATHS="dkms.conf Kbuild Makefile drivers include"

was_loaded=
mrc_module_loaded && was_loaded=1
cleanup()
{
	rdma link delete mrcd0 2>/dev/null
	ip link del mrcdv0 2>/dev/null
	modprobe -r mrc 2>/dev/null
	[ -z "$(dkms status -m "$pkg_name" -v "$pkg_ver" 2>/dev/null)" ] ||
		dkms remove -m "$pkg_name" -v "$pkg_ver" --all >/dev/null 2>&1
	rm -rf "$src"
	# Later tests want the module they had.
	[ -z "$was_loaded" ] || mrc_load
}
trap cleanup EXIT

timed()	# COMMAND...: runs it, then prints how long it took
{
	local start=$EPOCHREALTIME status
	"$@"
	status=$?
	echo "took $(awk "BEGIN { printf \"%.1f\", $EPOCHREALTIME - $start }") s"
	return $status
}

ktap_begin 8

copy_sources()
{
	mkdir -p "$src" &&
	tar -C "$MRC_TOP" -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.o.d' \
		--exclude=modules.order --exclude=Module.symvers $DKMS_PATHS |
		tar -C "$src" -x || return 1
	echo "$(find "$src" -type f | wc -l) files in $src"
	[ -z "$(find "$src" -name '*.o' -o -name '*.ko' -o -name .git)" ]
}
ktap_check "sources_copied_to_usr_src" copy_sources
ktap_check "dkms_add" dkms add -m "$pkg_name" -v "$pkg_ver"
ktap_check "dkms_build_for_running_kernel" \
	timed dkms build -m "$pkg_name" -v "$pkg_ver" -k "$kver"
ktap_check "dkms_install" timed dkms install -m "$pkg_name" -v "$pkg_ver" -k "$kver"

# The GNU build id of the loaded mrc (its ELF note in sysfs: the last 20
# bytes are the id) and of a module file, compressed or not. Unlike
# srcversion, which a module without MODULE_VERSION does not have, every
# module has one.
loaded_build_id()
{
	od -An -tx1 -v /sys/module/mrc/notes/.note.gnu.build-id 2>/dev/null |
		tr -d ' \n' | tail -c 40
}

file_build_id()	# FILE
{
	local ko=$1 tmp
	case $ko in
	*.xz) tmp=$(mktemp) && xz -dc "$ko" >"$tmp" ;;
	*.zst) tmp=$(mktemp) && zstd -qdc "$ko" >"$tmp" ;;
	*.gz) tmp=$(mktemp) && gzip -dc "$ko" >"$tmp" ;;
	esac
	readelf -n "${tmp:-$ko}" | sed -n 's/^ *Build ID: *//p'
	[ -z "${tmp:-}" ] || rm -f "$tmp"
}

# The module modprobe loads is the one DKMS installed for this kernel.
modprobe_loads_dkms_module()
{
	local file loaded
	mrc_unload || return 1
	file=$(modinfo -n mrc) || return 1
	echo "modinfo -n mrc: $file"
	case $file in
	"/lib/modules/$kver/"*) ;;
	*) echo "not under /lib/modules/$kver"; return 1 ;;
	esac
	dkms status -m "$pkg_name" -v "$pkg_ver" | grep -q "$kver.*installed" ||
		{ dkms status; return 1; }
	modprobe mrc && mrc_module_loaded || return 1
	loaded=$(loaded_build_id) file=$(file_build_id "$file")
	echo "build id loaded ${loaded:-none}, file ${file:-none}"
	[ -n "$loaded" ] && [ "$loaded" = "$file" ]
}
ktap_check "modprobe_loads_dkms_module" modprobe_loads_dkms_module

device_type_registered()
{
	make_veth mrcdv0 mrcdv1 &&
	rdma link add mrcd0 type mrc netdev mrcdv0 && ib_exists mrcd0 &&
	rdma link show | grep "link mrcd0/" &&
	rdma link delete mrcd0 && ib_gone mrcd0 &&
	ip link del mrcdv0
}
ktap_check "rdma_link_add_type_mrc" device_type_registered
ktap_check "modprobe_r" sh -c 'modprobe -r mrc && [ ! -d /sys/module/mrc ]'

removed_cleanly()
{
	timed dkms remove -m "$pkg_name" -v "$pkg_ver" --all || return 1
	rm -rf "$src"
	[ -z "$(dkms status -m "$pkg_name")" ] || { dkms status; return 1; }
	if find "/lib/modules/$kver" -path '*dkms*' -name 'mrc.ko*' | grep .; then
		echo "module file left behind"
		return 1
	fi
	[ ! -e "/var/lib/dkms/$pkg_name" ] || { ls -R "/var/lib/dkms/$pkg_name"; return 1; }
}
ktap_check "dkms_remove_leaves_nothing" removed_cleanly
ktap_finish
