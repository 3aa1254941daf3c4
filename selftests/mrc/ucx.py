#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""UCX over mrc between two hosts (network namespaces), with UCX's own
defaults: only the device (UCX_NET_DEVICES) and the transports
(UCX_TLS, so that the two namespaces of one machine do not talk through
shared memory or TCP) are set.

  - ucx_info lists rc_verbs and ud_verbs on the mrc device;
  - ucx_perftest: put bandwidth over ud_verbs alone and over rc_verbs
    (wired up through ud_verbs), tag bandwidth and tag latency over
    rc_verbs: each finishes and reports a non-zero figure;
  - io_demo -q: READs and WRITEs of 1 B to 64 KiB through UCP, every
    byte and transaction checked by io_demo itself, connected through
    the RDMA CM (UCX_SOCKADDR_TLS_PRIORITY=rdmacm).

The figures are diagnostics, not limits. On a slower kernel (run-lab's
MRC_TEST_TIMEOUT_SCALE, the debug lab's) UCX's UD timeout (30 s,
UCX_UD_VERBS_TIMEOUT) stretches with our own limits: there a UD
endpoint's wire-up outlived it. ucx.sh is its entry point.
"""

import re

from mrclab import Fail, Ktap, TwoHosts, lab, skip_all
from mrclab.cmd import wait_for

RC = "rc_verbs,ud_verbs"
PERF_PORT = 13337
DEMO_PORT = 13338
# What a lab run may take: the emulated lab moves a few MB/s.
LIMIT = lab.scaled(90)


def ucx_env(host, tls):
    env = {"UCX_NET_DEVICES": f"{host.dev}:1", "UCX_TLS": tls}
    if lab.time_scale() > 1:
        env["UCX_UD_VERBS_TIMEOUT"] = f"{lab.scaled(30)}s"
    return env


def transports_listed(a):
    out = a.run(["ucx_info", "-d"], timeout=LIMIT).stdout
    blocks = out.split("# Memory domain:")
    mine = [b for b in blocks if b.strip().startswith(a.dev)]
    if not mine:
        raise Fail(f"ucx_info -d has no memory domain {a.dev}")
    for tl in ("rc_verbs", "ud_verbs"):
        if not re.search(rf"Transport: {tl}\s*\n#\s*Device: {a.dev}:1",
                         mine[0]):
            raise Fail(f"ucx_info -d lists no {tl} on {a.dev}:1")


def final_figures(output):
    """ucx_perftest's Final line: (typical latency us, average latency
    us, bandwidth MB/s, message rate msg/s)."""
    for line in output.splitlines():
        if line.startswith("Final:"):
            f = line.split()
            return float(f[2]), float(f[3]), float(f[6]), float(f[8])
    raise Fail("ucx_perftest printed no Final line")


def perftest(ktap, two, test, tls, size, iters):
    a, b = two.a, two.b
    argv = ["ucx_perftest", "-p", str(PERF_PORT)]
    with b.background(argv, env=ucx_env(b, tls)) as server:
        if not wait_for(lab.scaled(30), lambda: b.tcp_listening(PERF_PORT)):
            raise Fail("ucx_perftest's server never listened:\n" +
                       server.output())
        client = a.run(argv + [b.addr, "-t", test, "-s", str(size),
                               "-n", str(iters)],
                       env=ucx_env(a, tls), timeout=LIMIT, check=False)
        sres = server.wait(LIMIT)
    if not client.ok or not sres.ok:
        ktap.info(client.details())
        ktap.info(sres.details())
        raise Fail(f"ucx_perftest {test} over {tls} failed")
    _, lat, bw, rate = final_figures(client.stdout)
    ktap.info(f"ucx_perftest {test} {size} B over {tls}: {bw:.2f} MB/s, "
              f"{rate:.0f} msg/s, average latency {lat:.1f} us")
    figure = lat if test.endswith("lat") else bw
    if figure <= 0:
        raise Fail(f"{test}: a figure of {figure}")


def io_demo_checked(ktap, two):
    a, b = two.a, two.b
    env_b = dict(ucx_env(b, RC), UCX_SOCKADDR_TLS_PRIORITY="rdmacm")
    env_a = dict(env_b, UCX_NET_DEVICES=f"{a.dev}:1")
    common = ["io_demo", "-q", "-p", str(DEMO_PORT), "-d", "1:65536"]
    with b.background(common, env=env_b) as server:
        # An RDMA CM listener: no TCP socket to see.
        if not wait_for(lab.scaled(30),
                        lambda: "started listener" in server.output()):
            raise Fail("io_demo's server never listened:\n" +
                       server.output())
        client = a.run(common + ["-i", "300", "-o", "read,write", b.addr],
                       env=env_a, timeout=LIMIT, check=False)
    lines = client.output.splitlines()
    ktap.info("\n".join(l for l in lines if "read" in l.lower() or
                        "write" in l.lower() or "status" in l)[-2000:])
    if not client.ok or not any("Client exit with status 'OK'" in l
                                for l in lines):
        ktap.info(client.details())
        raise Fail("io_demo -q did not end OK")


def main():
    lab.exit_on_sigterm()
    lab.require_root_tools()
    lab.require_loaded()
    for tool in ("ucx_info", "ucx_perftest", "io_demo"):
        if not lab.have(tool):
            skip_all(f"needs {tool} (ucx-utils)")
    with TwoHosts() as two:
        two.up_or_skip()
        ktap = Ktap()
        ktap.begin(6)
        ktap.case("ucx_info_lists_rc_and_ud_verbs", transports_listed,
                  two.a)
        ktap.case("put_bw_ud_verbs", perftest, ktap, two, "ucp_put_bw",
                  "ud_verbs", 65536, 200)
        ktap.case("put_bw_rc_verbs", perftest, ktap, two, "ucp_put_bw", RC,
                  65536, 200)
        ktap.case("tag_bw_rc_verbs", perftest, ktap, two, "tag_bw", RC,
                  65536, 200)
        ktap.case("tag_lat_rc_verbs", perftest, ktap, two, "tag_lat", RC,
                  8, 1000)
        ktap.case("io_demo_read_write_checked", io_demo_checked, ktap, two)
        ktap.finish()


if __name__ == "__main__":
    main()
