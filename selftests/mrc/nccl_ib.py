#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""NCCL's IB transport, as nccl-ib-probe does it (nccl_ib_probe.c says
what that is), between two hosts (network namespaces): the GID chosen as
NCCL chooses it (RoCE v2, not link-local, IPv4 first), dmabuf refused
cleanly, ECE consistent, MRs by ibv_reg_mr_iova2 with relaxed ordering,
a clear-to-send FIFO written with inline WRITEs, each message split over
the connection's QPs as WRITEs closed by WRITE_WITH_IMM, 8 in flight,
every byte checked. With NCCL's default of 1 QP per connection, then 4.
nccl_ib.sh is its entry point.
"""

from mrclab import Fail, Ktap, TwoHosts, lab, run

PROBE = "nccl-ib-probe"


def transfer(ktap, two, qps, messages):
    res = run([lab.selftest_file(PROBE), "-q", str(qps), "-n",
               str(messages), two.a.dev, two.b.dev], timeout=300,
              check=False)
    ktap.info("\n".join(l[2:] if l.startswith("# ") else l
                         for l in res.output.strip().splitlines()))
    if not res.ok:
        raise Fail(f"{PROBE} {res.status_text()}")
    if "bytes checked" not in res.stdout:
        raise Fail(f"{PROBE} reported no bytes checked")


def main():
    lab.exit_on_sigterm()
    lab.require_root_tools()
    lab.require_loaded()
    lab.require_file(lab.selftest_file(PROBE))
    with TwoHosts() as two:
        two.up_or_skip()
        ktap = Ktap()
        ktap.begin(2)
        ktap.case("nccl_pattern_1_qp_checked", transfer, ktap, two, 1, 100)
        ktap.case("nccl_pattern_4_qps_checked", transfer, ktap, two, 4, 100)
        ktap.finish()


if __name__ == "__main__":
    main()
