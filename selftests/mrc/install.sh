#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `make install` as on a real host: the module lands in extra/, depmod knows
# it, `rdma link add ... type mrc` autoloads it, and libibverbs finds the
# installed provider. Only in a disposable VM: it writes to /lib/modules,
# /usr/lib and /etc.
# lab-timeout: 900
# (depmod reads every module of the kernel over 9p: minutes under TCG)
set -u
. "$(dirname "$0")/lib.sh"
mrc_require_tree "make install of the tree"
mrc_require_root_tools
[ "$(hostname)" = mrc-lab ] || [ -n "${MRC_ALLOW_INSTALL:-}" ] ||
	ktap_skip_all "installs into the system: runs only in the lab VM (or with MRC_ALLOW_INSTALL=1)"

# Its name carries the private ABI of the libibverbs it was built for.
provider_lib=$(make -s -C "$MRC_TOP/rdma-core-provider" print-lib)
[ -n "$provider_lib" ] || ktap_skip_all "the provider cannot tell its file name (rdma-core-provider print-lib)"

ktap_begin 5
trap mrc_cleanup EXIT
mrc_cleanup
kver=$(uname -r)
provider_dir=$(pkg-config --variable=libdir libibverbs 2>/dev/null ||
	echo /usr/lib/x86_64-linux-gnu)/libibverbs
rm -f "$provider_dir/$provider_lib" /etc/libibverbs.d/mrc.driver

# -o: the tree is built already; install what is there, as a packager would.
ktap_check "make_install" make -s -C "$MRC_TOP" -o module -o provider install \
	KDIR="/lib/modules/$kver/build"
ktap_check "module_in_extra_and_known_to_depmod" \
	sh -c "test -f /lib/modules/$kver/extra/drivers/infiniband/sw/mrc/mrc.ko && modinfo -n mrc | grep -q /extra/"
ktap_check "provider_installed" \
	sh -c "test -f $provider_dir/$provider_lib && grep -qx 'driver mrc' /etc/libibverbs.d/mrc.driver"

autoload()
{
	mrc_unload || return 1
	make_veth mrct0 mrct0p || return 1
	# ib_core asks for module alias rdma-link-mrc.
	rdma link add mrc0 type mrc netdev mrct0 && mrc_module_loaded &&
	ib_exists mrc0
}
ktap_check "link_add_autoloads_installed_module" autoload
ktap_check "installed_provider_opens_device" "$VERBS_PROBE" mrc0 pd
ktap_finish
