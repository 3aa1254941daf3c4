#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Hostile packets aimed at a LIVE queue pair: truncated, bad lengths,
PSNs beyond the receive window, a QPN nobody has, a forged source QP,
wrong rkeys. Each is counted under its reason in `rdma statistic` (and
under no other drop reason), none touches the responder's memory or moves
either QP out of RTS, and the connection then carries traffic whose bytes
are checked. mrc-vm fails the run on any kernel splat.
hostile_packets.sh is its kselftest entry point.

TwoHosts: mrcna: mrcva 192.0.2.1/24 mrc0 (A, requester);
          mrcnb: mrcvb 192.0.2.2/24 mrc1 (B, responder).
The packets leave from namespace A, so their source address is A's GID.
"""

import sys
import time

from mrclab import Background, Fail, Ktap, TwoHosts, lab, rdma, \
    wait_for

# KIND (mrc_packet.py aim) and the counter of B that must rise by the
# number sent.
CASES = (
    ("too_short", "rx_drop_too_short"),
    ("bad_length", "rx_drop_bad_length"),
    ("out_of_window", "rx_drop_out_of_window"),
    ("no_qp", "rx_drop_no_qp"),
    ("bad_source_qp", "rx_drop_bad_source_qp"),
    ("wrong_rkey_bad_source_qp", "rx_drop_bad_source_qp"),
    ("wrong_rkey_out_of_window", "rx_drop_out_of_window"),
    ("wrong_rkey_duplicate", "duplicates"),
)
# err-probe's "qpn_a N qpn_b N rkey_b N va_b N epsn_b N" line, read by
# name.
LIVE_FIELDS = ("qpn_a", "qpn_b", "rkey_b", "va_b", "epsn_b")
# err-probe's checks and traffic after "go": seconds, with room to spare
# under emulation.
LIVE_TIMEOUT = 180


def parse_live(text):
    """The live connection's figures from err-probe's output, or None."""
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == "qpn_a" and len(f) % 2 == 0:
            fields = dict(zip(f[0::2], f[1::2]))
            if all(name in fields for name in LIVE_FIELDS):
                return fields
    return None


def connected(ktap, live):
    up = wait_for(60, lambda: any(l.startswith("ready") for l in
                                  live.output().splitlines()))
    ktap.info(live.output())
    if not up:
        raise Fail("err-probe never printed ready")


def aimed(ktap, lab2, conn, kind, counter):
    a, b = lab2.a, lab2.b
    before = b.counters()
    res = a.run([sys.executable, lab.selftest_file("mrc_packet.py"), "aim",
                 kind, b.addr, lab.udp_port(), conn["qpn_a"], conn["qpn_b"],
                 conn["rkey_b"], conn["va_b"], conn["epsn_b"]], check=False)
    sent = res.stdout.split()
    if not res.ok or len(sent) != 2:
        ktap.info(res.details())
        raise Fail("sending failed")
    count, size = int(sent[0]), int(sent[1])
    ktap.info(f"sent {count} packets ({size} bytes) at QP {conn['qpn_b']}")

    def problems():
        return rdma.check_deltas(before, b.counters(), {counter: count},
                                 watched=rdma.is_drop)
    wait_for(10, lambda: not problems())
    # Anything counted late, under another reason too, shows now.
    time.sleep(0.2)
    found = problems()
    if found:
        raise Fail("; ".join(found))


def main():
    lab.exit_on_sigterm()
    lab.require_root_tools()
    err_probe = lab.selftest_file("err-probe")
    lab.require_file(err_probe)
    lab.require_loaded()
    with TwoHosts() as lab2:
        lab.unload_rxe()
        lab2.up_or_skip()
        ktap = Ktap()
        ktap.begin(1 + len(CASES) + 1)
        # The live connection: err-probe waits for a line on stdin while
        # the packets fly.
        with Background([err_probe, lab2.a.dev, "1", lab2.b.dev, "1",
                         "live"], stdin=True) as live:
            ktap.case("live_connection_up", connected, ktap, live)
            conn = parse_live(live.output())
            for kind, counter in CASES:
                if conn is None:
                    ktap.skip(f"{kind}_counted", "no live connection")
                    continue
                ktap.case(f"{kind}_counted_as_{counter}", aimed, ktap, lab2,
                          conn, kind, counter)
            # The probe checks B's memory, both QPs' states, then real
            # traffic.
            live.send("go\n")
            res = live.wait(LIVE_TIMEOUT)
            lines = res.output.splitlines()
            after = next((i for i, l in enumerate(lines)
                          if l.startswith("ready")), None)
            if after is not None:
                ktap.info("\n".join(lines[after + 1:]))
            if res.ok:
                ktap.ok("live_connection_untouched_and_still_works")
            else:
                ktap.fail("live_connection_untouched_and_still_works",
                          res.status_text())
        ktap.finish()


if __name__ == "__main__":
    main()
