#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""RC data integrity between two hosts (network namespaces), first over a
clean veth pair, then with netem on both ends: 2% loss, 25% reordering,
1% duplication. The integrity tool sends WRITEs, SENDs and READs of
random size (1 B to 4 MiB), at unaligned offsets and over several SGEs,
and checks every byte, every completion status, and that nothing
completes twice. The transport's counters are shown for each variant.
On the clean link it runs twice: requests posted with ibv_post_send(),
then with the ibv_wr_* API (integrity -x; perftest cannot test that API
on mrc: it posts with it only on devices it knows, conformance.rst).
MRC_INTEGRITY_VARIANTS names the variants to run (clean, wr_api, netem;
all by default). integrity.sh is its kselftest entry point.
"""

import os

from mrclab import Ktap, TwoHosts, lab, run, run_integrity
from mrclab.cmd import CmdError

# Each variant stops posting after this many seconds (or transfers).
SECONDS = int(os.environ.get("MRC_INTEGRITY_SECONDS") or 45)
WR_API_SECONDS = int(os.environ.get("MRC_INTEGRITY_WR_API_SECONDS") or 20)
TRANSFERS = int(os.environ.get("MRC_INTEGRITY_TRANSFERS") or 600)
NETEM = "loss 2% delay 1ms reorder 25% duplicate 1%"
# Which variants run (all by default): a short run names fewer.
VARIANTS = ("clean", "wr_api", "netem")
# The requester's and the responder's counters shown around each run.
SHOWN = ("retransmits", "timeouts", "duplicates", "out_of_order", "trims",
         "rx_drop_out_of_window")


def show_counters(ktap, lab2):
    for h in lab2.hosts:
        ktap.info(f"{h.dev}: {h.counters().show(SHOWN)}")
    ktap.info(f"backlog drops {lab.softnet_drops()}")


def run_variant(ktap, lab2, rng, name, seconds=SECONDS, wr_api=False):
    a, b = lab2.a, lab2.b
    ktap.info(f"counters before {name}:")
    show_counters(ktap, lab2)
    res = run_integrity(a.dev, a.addr, b.dev, b.addr, seconds=seconds,
                        transfers=TRANSFERS, depth=4, wr_api=wr_api,
                        seed=rng.randrange(1 << 30))
    ktap.info(res.output)
    ktap.info(f"counters after {name}:")
    show_counters(ktap, lab2)
    res.check()


def netem_case(ktap, lab2, rng):
    name = "integrity_netem_loss_reorder_duplicate"
    if not lab.have("tc"):
        ktap.skip(name, "needs tc (iproute2)")
        return
    if not run(["modprobe", "sch_netem"], check=False).ok:
        # No module to load: netem may be built in.
        if not run(["tc", "qdisc", "add", "dev", "lo", "root", "netem"],
                   check=False).ok:
            ktap.skip(name, "needs sch_netem (tc netem)")
            return
        run(["tc", "qdisc", "del", "dev", "lo", "root"], check=False)
    try:
        for h in lab2.hosts:
            h.run(["tc", "qdisc", "add", "dev", h.netdev, "root", "netem"] +
                  NETEM.split())
    except CmdError as e:
        ktap.info(e.details)
        ktap.fail(name, "tc netem failed")
        return
    ktap.info(f"netem on both ends: {NETEM}")
    ktap.case(name, run_variant, ktap, lab2, rng, "netem")


def main():
    lab.exit_on_sigterm()
    lab.require_root_tools()
    lab.require_loaded()
    lab.require_file(lab.selftest_file("integrity"))
    rng = lab.rng()
    chosen = (os.environ.get("MRC_INTEGRITY_VARIANTS") or
              " ".join(VARIANTS)).split()
    unknown = [v for v in chosen if v not in VARIANTS]
    if unknown or not chosen:
        raise SystemExit(f"MRC_INTEGRITY_VARIANTS: {' '.join(unknown)} not "
                         f"among {' '.join(VARIANTS)}")
    with TwoHosts() as lab2:
        lab2.up_or_skip()
        ktap = Ktap()
        ktap.begin(len(chosen))
        if "clean" in chosen:
            ktap.case("integrity_clean_link", run_variant, ktap, lab2, rng,
                      "clean")
        if "wr_api" in chosen:
            ktap.case("integrity_wr_api_clean_link", run_variant, ktap,
                      lab2, rng, "wr_api", WR_API_SECONDS, True)
        if "netem" in chosen:
            netem_case(ktap, lab2, rng)
        ktap.finish()


if __name__ == "__main__":
    main()
