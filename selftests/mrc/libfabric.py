#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""libfabric's verbs provider over mrc between two hosts (network
namespaces):

  - fi_info -p verbs lists the mrc devices as MSG domains and as
    datagram domains (DEV-dgram);
  - fi_pingpong over each endpoint type, with -c: every message's bytes
    are checked by fi_pingpong itself:
      msg    verbs, a reliable connected endpoint (an RC QP over rdma_cm);
      rdm    verbs;ofi_rxm, the reliable datagram endpoint MPI and NCCL's
             libfabric path use, built by RxM on verbs MSG endpoints;
      dgram  verbs on UD QPs.

Debian's libfabric-bin ships fi_pingpong but not the fabtests
(fi_rdm_pingpong and the others); fi_pingpong -e rdm is the same RDM
endpoint. The figures are diagnostics. libfabric.sh is its entry point.
"""

import re

from mrclab import Fail, Ktap, TwoHosts, lab, skip_all
from mrclab.cmd import wait_for

# fi_pingpong's control connection (TCP), its default.
PORT = 47592
LIMIT = 90


def domains_listed(a, b):
    out = a.run(["fi_info", "-p", "verbs"], timeout=LIMIT).stdout
    domains = set(re.findall(r"domain:\s*(\S+)", out))
    want = {a.dev, b.dev, f"{a.dev}-dgram", f"{b.dev}-dgram"}
    if not want <= domains:
        raise Fail(f"fi_info -p verbs lists domains {sorted(domains)}, "
                   f"not all of {sorted(want)}")


def pingpong(ktap, two, provider, ep_type, size, iters, domain_suffix=""):
    a, b = two.a, two.b
    common = ["fi_pingpong", "-p", provider, "-e", ep_type, "-I",
              str(iters), "-S", str(size), "-c"]
    with b.background(common + ["-d", b.dev + domain_suffix]) as server:
        if not wait_for(30, lambda: b.tcp_listening(PORT)):
            raise Fail("fi_pingpong's server never listened:\n" +
                       server.output())
        client = a.run(common + ["-d", a.dev + domain_suffix, b.addr],
                       timeout=LIMIT, check=False)
        sres = server.wait(LIMIT)
    if not client.ok or not sres.ok:
        ktap.info(client.details())
        ktap.info(sres.details())
        raise Fail(f"fi_pingpong -p '{provider}' -e {ep_type} failed")
    rows = [l.split() for l in client.stdout.splitlines()
            if re.match(r"\s*\d+[kmg]?\s+\d+\s+=\d+", l)]
    if not rows:
        raise Fail("fi_pingpong printed no result row")
    sent, acked = rows[-1][1], rows[-1][2].lstrip("=")
    if int(sent) != iters or int(acked) != iters:
        raise Fail(f"{sent} sent and {acked} acknowledged of {iters}")
    ktap.info(f"fi_pingpong {provider} {ep_type} {size} B x {iters}: "
              f"{rows[-1][5]} MB/s, {rows[-1][6]} us per transfer")


def main():
    lab.exit_on_sigterm()
    lab.require_root_tools()
    lab.require_loaded()
    for tool in ("fi_info", "fi_pingpong"):
        if not lab.have(tool):
            skip_all(f"needs {tool} (libfabric-bin)")
    with TwoHosts() as two:
        two.up_or_skip()
        ktap = Ktap()
        ktap.begin(5)
        ktap.case("fi_info_lists_mrc_domains", domains_listed, two.a, two.b)
        ktap.case("msg_verbs_checked", pingpong, ktap, two, "verbs", "msg",
                  65536, 100)
        ktap.case("msg_verbs_small_checked", pingpong, ktap, two, "verbs",
                  "msg", 64, 500)
        ktap.case("rdm_verbs_rxm_checked", pingpong, ktap, two,
                  "verbs;ofi_rxm", "rdm", 65536, 100)
        ktap.case("dgram_verbs_checked", pingpong, ktap, two, "verbs",
                  "dgram", 512, 100, "-dgram")
        ktap.finish()


if __name__ == "__main__":
    main()
