#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host-side checks of the lab library (selftests/mrc/mrclab): what it
parses and decides, without a lab. GID tables are fake sysfs trees,
counters and summaries are sample outputs, commands are harmless ones.
KTAP, through the library's own ktap module (whose output is checked
first, against scripts/ktap-summary's parser).
"""

import contextlib
import io
import os
import sys
import tempfile
import threading
import time
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.realpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(TOP, "selftests", "mrc"))

# pylint: disable=wrong-import-position
from mrclab import cmd, fabric, ktap, lab, mrcctl, rdma, traffic  # noqa
from mrclab.ktap import Fail, Ktap  # noqa: E402


def load_script(name, path):
    """A Python script without a .py name (scripts/ktap-summary) as a
    module."""
    spec = spec_from_loader(name, SourceFileLoader(name, path))
    module = module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUMMARY = load_script("ktap_summary",
                      os.path.join(TOP, "scripts", "ktap-summary"))


def expect(cond, what):
    if not cond:
        raise Fail(what)


def expect_eq(got, want, what=""):
    if got != want:
        raise Fail(f"{what + ': ' if what else ''}got {got!r}, "
                   f"expected {want!r}")


def expect_raises(exc, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        return e
    raise Fail(f"{fn.__name__} did not raise {exc.__name__}")


def ktap_run(body, plan):
    """BODY(k) on a Ktap writing to a buffer: (output, exit status)."""
    out = io.StringIO()
    k = Ktap(out)
    k.begin(plan)
    body(k)
    status = expect_raises(SystemExit, k.finish).code
    return out.getvalue(), status


def summary_of(text, status):
    lines = ["# unit: sample\n"] + text.splitlines(True) + \
        [f"# exit: {status}\n"]
    return SUMMARY.parse(lines)[0]


# ---- ktap --------------------------------------------------------------

def t_ktap_lines_and_totals():
    def body(k):
        k.ok("a")
        k.fail("b", "why not")
        k.skip("c", "needs\nsomething")
        k.xfail("d", "issue 7")
        k.info("two\nlines")
    text, status = ktap_run(body, 4)
    expect_eq(text.splitlines(), [
        "KTAP version 1", "1..4", "ok 1 a", "# b: why not", "not ok 2 b",
        "ok 3 c # SKIP needs something", "not ok 4 d # TODO issue 7",
        "# two", "# lines",
        "# totals: pass:1 fail:1 skip:1 xfail:1"])
    expect_eq(status, ktap.KSFT_FAIL, "exit status")
    prog = summary_of(text, status)
    expect_eq((len(prog.passed), len(prog.failed), len(prog.skipped),
               len(prog.known)), (1, 1, 1, 1), "ktap-summary's counts")


def t_ktap_case_outcomes():
    def raises(exc):
        def fn():
            raise exc
        return fn

    def body(k):
        k.case("passes", lambda: None)
        k.case("fails", raises(Fail("bytes differ")))
        k.case("skips", raises(ktap.Skip("no tool")))
        k.case("known", raises(ktap.KnownFailure("issue 19")))
        k.case("cmd", cmd.run, ["sh", "-c", "echo out; echo err >&2; exit 3"])
        k.case("bug", raises(KeyError("x")))
        k.case("false", lambda: False)
    text, status = ktap_run(body, 7)
    lines = text.splitlines()
    expect("ok 1 passes" in lines, "pass line")
    expect("# fails: bytes differ" in lines and "not ok 2 fails" in lines,
           "failure with its reason")
    expect("ok 3 skips # SKIP no tool" in lines, "skip line")
    expect("not ok 4 known # TODO issue 19" in lines, "TODO line")
    expect("# stdout:" in lines and "# out" in lines and "# err" in lines,
           "a command's output as diagnostics")
    expect("# cmd: sh exit status 3" in lines, "the command's status")
    expect(any("Traceback" in l for l in lines) and "not ok 6 bug" in lines,
           "an unexpected exception fails with its traceback")
    expect("# false: returned False" in lines and "not ok 7 false" in lines,
           "a check's False is no pass")
    expect_eq(status, ktap.KSFT_FAIL)
    prog = summary_of(text, status)
    expect_eq(len(prog.failed), 4, "failures ktap-summary sees")


def t_ktap_exit_statuses():
    _, status = ktap_run(lambda k: (k.ok("a"), k.skip("b", "x")), 2)
    expect_eq(status, ktap.KSFT_PASS, "pass and skip")
    _, status = ktap_run(lambda k: k.skip("b", "x"), 1)
    expect_eq(status, ktap.KSFT_SKIP, "all skipped")
    text, status = ktap_run(lambda k: k.ok("a"), 2)
    expect_eq(status, ktap.KSFT_FAIL, "a plan not kept")
    expect("# planned 2 cases, reported 1" in text.splitlines(),
           "the plan's shortfall is said")
    expect(summary_of(text, status).failed, "ktap-summary fails it")


def t_ktap_skip_all():
    out = io.StringIO()
    status = expect_raises(SystemExit, ktap.skip_all, "needs root", out).code
    expect_eq(out.getvalue(), "KTAP version 1\n1..0 # SKIP needs root\n")
    expect_eq(status, ktap.KSFT_SKIP)
    prog = summary_of(out.getvalue(), status)
    expect_eq((len(prog.skipped), len(prog.failed)), (1, 0))


# ---- cmd ---------------------------------------------------------------

def t_cmd_run():
    res = cmd.run(["sh", "-c", "echo hello; echo warn >&2"])
    expect_eq((res.ok, res.stdout, res.stderr), (True, "hello\n", "warn\n"))
    expect_eq(cmd.in_ns(["ip", "a"], "mrcna"),
              ["ip", "netns", "exec", "mrcna", "ip", "a"])
    expect_eq(cmd.in_ns(["ip", 5]), ["ip", "5"])
    e = expect_raises(cmd.CmdError, cmd.run,
                      ["sh", "-c", "echo partial; echo broke >&2; exit 2"])
    expect("exit status 2" in str(e), f"status in {e}")
    expect("partial" in e.details and "broke" in e.details,
           "output in the details")
    res = cmd.run(["sh", "-c", "exit 5"], check=False)
    expect_eq(res.returncode, 5)
    res = cmd.run(["/nonexistent/program"], check=False)
    expect_eq(res.returncode, 127, "a missing program")


def t_cmd_timeout():
    t0 = time.monotonic()
    res = cmd.run(["sleep", "5"], timeout=0.3, check=False)
    expect(res.timed_out and not res.ok, "timed out")
    expect(time.monotonic() - t0 < 3, "ended at its limit")
    expect_eq(res.status_text(), "timed out")


def t_cmd_background():
    with cmd.Background(["sh", "-c", "echo up; read line; echo got $line"],
                        stdin=True) as bg:
        expect(cmd.wait_for(5, lambda: "up" in bg.output()), "started")
        bg.send("go\n")
        res = bg.wait(5)
    expect_eq((res.ok, res.output), (True, "up\ngot go\n"))
    bg = cmd.Background(["sleep", "30"])
    res = bg.stop()
    expect(not bg.running() and not res.ok, "stopped")
    res = cmd.Background(["sleep", "30"]).wait(0.2)
    expect(res.timed_out, "killed at its limit")


def t_wait_for():
    calls = []

    def third():
        calls.append(1)
        if len(calls) < 3:
            raise OSError("not yet")
        return "done"
    expect_eq(cmd.wait_for(5, third, interval=0.01), "done")
    t0 = time.monotonic()
    expect_eq(cmd.wait_for(0.2, lambda: 0, interval=0.01), 0)
    expect(time.monotonic() - t0 < 2, "gave up at its limit")


# ---- rdma --------------------------------------------------------------

def fake_port(root, dev, table):
    """A sysfs GID table: {index: (gid text, type)}; every other index
    of 0..15 unset, as ib_core leaves it."""
    port = os.path.join(root, dev, "ports", "1")
    for sub in ("gids", "gid_attrs/types", "gid_attrs/ndevs"):
        os.makedirs(os.path.join(port, sub), exist_ok=True)
    for i in range(16):
        gid, gid_type = table.get(i, ("0000:" * 7 + "0000", None))
        with open(os.path.join(port, "gids", str(i)), "w") as f:
            f.write(gid + "\n")
        if gid_type:
            for sub, text in (("types", gid_type), ("ndevs", "mrcva")):
                with open(os.path.join(port, "gid_attrs", sub, str(i)),
                          "w") as f:
                    f.write(text + "\n")
    return port


V4_GID = "0000:0000:0000:0000:0000:ffff:c000:0201"
LL_GID = "fe80:0000:0000:0000:0000:0000:0000:0001"
V6_GID = "fc00:0000:0001:0000:0000:0000:0000:0001"


def t_gid_of():
    expect_eq(rdma.gid_of("192.0.2.1").exploded, V4_GID)
    expect_eq(rdma.gid_of("fc00:0:1::1").exploded, V6_GID)
    expect_eq(rdma.gid_of(V4_GID).exploded, V4_GID)
    expect_raises(ValueError, rdma.gid_of, "not an address")


def t_gids_and_lookup():
    with tempfile.TemporaryDirectory() as root:
        fake_port(root, "mrc0", {0: (LL_GID, "RoCE v2"),
                                 1: (V4_GID, "IB/RoCE v1"),
                                 2: (V6_GID, "RoCE v2"),
                                 10: (V4_GID, "RoCE v2"),
                                 3: (V4_GID, "RoCE v2")})
        table = rdma.gids("mrc0", root=root)
        expect_eq([g.index for g in table], [0, 1, 2, 3, 10],
                  "set entries, by number")
        expect_eq((table[0].link_local, table[0].family), (True, 6))
        expect_eq((table[3].family, str(table[3].address), table[3].ndev),
                  (4, "192.0.2.1", "mrcva"))
        expect_eq(rdma.gid_index("mrc0", "192.0.2.1", root=root), 3,
                  "the lowest RoCE v2 entry")
        expect_eq(rdma.gid_index("mrc0", "192.0.2.1", gid_type=None,
                                 root=root), 1, "any type")
        expect_eq(rdma.gid_index("mrc0", "fc00:0:1::1", root=root), 2)
        expect_eq(rdma.gid_index("mrc0", V6_GID, root=root), 2,
                  "a GID as sysfs writes it")
        g = rdma.find_gid("mrc0", family=6, link_local=False, root=root)
        expect_eq(g.index, 2, "NCCL's choice: no link-local GID")
        expect_eq(rdma.find_gid("mrc0", family=4, root=root).index, 3)
        expect_eq(rdma.find_gid("nodev", family=4, root=root), None)
        e = expect_raises(rdma.GidNotFound, rdma.gid_index, "mrc0",
                          "192.0.2.9", root=root)
        expect("192.0.2.9" in str(e) and "mrc0" in str(e), str(e))
        expect(isinstance(e, Fail), "a failure inside a case")


def t_gid_index_waits():
    with tempfile.TemporaryDirectory() as root:
        port = fake_port(root, "mrc1", {0: (LL_GID, "RoCE v2")})

        def add():
            time.sleep(0.3)
            with open(os.path.join(port, "gid_attrs/types/1"), "w") as f:
                f.write("RoCE v2\n")
            with open(os.path.join(port, "gids/1"), "w") as f:
                f.write(V4_GID + "\n")
        adder = threading.Thread(target=add)
        adder.start()
        try:
            expect_eq(rdma.gid_index("mrc1", "192.0.2.1", timeout=5,
                                     root=root, interval=0.02), 1)
        finally:
            adder.join()
        t0 = time.monotonic()
        expect_raises(rdma.GidNotFound, rdma.gid_index, "mrc1",
                      "192.0.2.2", timeout=0.2, root=root, interval=0.02)
        expect(time.monotonic() - t0 < 2, "gave up at its limit")


STAT_JSON = ('[{"ifindex":4,"ifname":"mrc1","port":1,"rx_packets":120,'
             '"rx_bytes":98304,"rx_drop_too_short":0,"rx_drop_no_qp":2,'
             '"duplicates":5,"retransmits":0}]')


def t_counters_parse():
    c = rdma.parse_stat_json(STAT_JSON, "mrc1", 1)
    expect_eq(c, {"rx_packets": 120, "rx_bytes": 98304,
                  "rx_drop_too_short": 0, "rx_drop_no_qp": 2,
                  "duplicates": 5, "retransmits": 0})
    expect_eq(rdma.parse_stat_json(STAT_JSON), c, "the only link")
    expect_raises(ValueError, rdma.parse_stat_json, STAT_JSON, "mrc0", 1)
    expect_raises(ValueError, rdma.parse_stat_json, "[]")
    expect_eq(c.show(["duplicates", "nosuch", "rx_drop_no_qp"]),
              "duplicates 5  rx_drop_no_qp 2")
    later = rdma.Counters(c, rx_packets=130)
    expect_eq(c.delta(later)["rx_packets"], 10)


def t_check_deltas():
    before = rdma.Counters(rx_drop_too_short=1, rx_drop_no_qp=2,
                           duplicates=5, rx_packets=100)
    after = rdma.Counters(rx_drop_too_short=4, rx_drop_no_qp=2,
                          duplicates=5, rx_packets=103)
    expect_eq(rdma.check_deltas(before, after, {"rx_drop_too_short": 3},
                                watched=rdma.is_drop), [])
    expect_eq(rdma.check_deltas(before, after, {"rx_drop_too_short": 2},
                                watched=rdma.is_drop),
              ["rx_drop_too_short rose by 3, expected 2"])
    after2 = rdma.Counters(after, rx_drop_no_qp=3)
    expect_eq(rdma.check_deltas(before, after2, {"rx_drop_too_short": 3},
                                watched=rdma.is_drop),
              ["rx_drop_no_qp rose by 1, expected 0"],
              "another drop reason moved")
    expect_eq(rdma.check_deltas(before, after, {"rx_drop_too_short": 3}),
              ["rx_packets rose by 3, expected 0"], "every counter watched")
    expect_eq(rdma.check_deltas(before, after, {"trims": 1},
                                watched=rdma.is_drop),
              ["rx_drop_too_short rose by 3, expected 0",
               "no counter trims"])


# ---- traffic -----------------------------------------------------------

INTEGRITY_OUT = """\
# seed 12345, at most 600 transfers or 45 s, 4 in flight
# transfers 600 (write 201, send 199, read 200), bytes checked 1234567890123, corrupted 0, 41.5 s
"""


def t_integrity_parse():
    f = traffic.parse_integrity(INTEGRITY_OUT)
    expect_eq(f, {"transfers": 600, "writes": 201, "sends": 199,
                  "reads": 200, "bytes_checked": 1234567890123,
                  "corrupted": 0, "seconds": 41.5})
    expect_eq(traffic.parse_integrity("# seed 1\n"), None)
    res = traffic.IntegrityResult(cmd.Result(["integrity"], 0,
                                             INTEGRITY_OUT, ""))
    expect(res.ok and res.bytes_checked == 1234567890123, "a clean run")
    res.check()


def t_integrity_failures():
    def result(status, out, err=""):
        return traffic.IntegrityResult(cmd.Result(["integrity"], status,
                                                  out, err))
    bad = INTEGRITY_OUT.replace("corrupted 0", "corrupted 2")
    res = result(1, bad, "transfer 7 (write, 9 B, 1+1 SGEs): ...\n")
    expect_eq(res.problems(), ["integrity exit status 1",
                               "2 transfers corrupted"])
    e = expect_raises(Fail, res.check)
    expect("corrupted" in str(e), str(e))
    expect_eq(result(0, bad).problems(), ["2 transfers corrupted"],
              "corruption fails even with status 0")
    expect_eq(result(0, "# seed 1\n").problems(),
              ["no summary line from integrity"])
    none = INTEGRITY_OUT.replace("transfers 600", "transfers 0")
    expect_eq(result(0, none).problems(), ["no transfer completed"])
    timed = traffic.IntegrityResult(cmd.Result(["integrity"], None, "", "",
                                               timed_out=True))
    expect_eq(timed.problems(), ["integrity timed out",
                                 "no summary line from integrity"])


def t_integrity_argv():
    argv = traffic.integrity_argv("mrc0", "192.0.2.1", "mrc1", "192.0.2.2",
                                  seconds=45, transfers=600, depth=4,
                                  seed=7, writes_only=True, program="I")
    expect_eq(argv, ["I", "-s", "7", "-t", "45", "-n", "600", "-d", "4",
                     "-w", "mrc0", "192.0.2.1", "mrc1", "192.0.2.2"])
    argv = traffic.integrity_argv("a", "1.1.1.1", "b", "1.1.1.2")
    expect_eq(argv[0], os.path.join(lab.SELFTEST_DIR, "integrity"))
    argv = traffic.integrity_argv("a", "1.1.1.1", "b", "1.1.1.2",
                                  wr_api=True, program="I")
    expect_eq(argv, ["I", "-x", "a", "1.1.1.1", "b", "1.1.1.2"],
              "the ibv_wr_* API")


def t_integrity_runs():
    # A stand-in program that prints a summary: the runner's plumbing.
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "integrity")
        with open(prog, "w") as f:
            f.write("#!/bin/sh\nprintf '%s' \"$INTEGRITY_OUT\"\n"
                    "echo \"args $*\" >&2\n")
        os.chmod(prog, 0o755)
        os.environ["INTEGRITY_OUT"] = INTEGRITY_OUT
        try:
            res = traffic.run_integrity("mrc0", "192.0.2.1", "mrc1",
                                        "192.0.2.2", seconds=1,
                                        program=prog)
            expect(res.ok, "; ".join(res.problems()))
            expect("args -t 1 mrc0 192.0.2.1" in res.output, res.output)
            with traffic.IntegrityRun("mrc0", "a", "mrc1", "b",
                                      program=prog) as bg:
                expect_eq(bg.result(10).transfers, 600)
        finally:
            del os.environ["INTEGRITY_OUT"]


# ---- fabric and lab ----------------------------------------------------

def t_fabric_parsers():
    expect_eq(fabric.parse_nodes("h1 1\nh2 2\np1t0s1 1101\n"),
              {"h1": 1, "h2": 2, "p1t0s1": 0x1101})
    expect_eq(fabric.parse_paths("1 fc00:0:1101:2101:1102:5::\n"
                                 "2 fc00:0:1201:2201:1202:5::\n"),
              [(1, "fc00:0:1101:2101:1102:5::"),
               (2, "fc00:0:1201:2201:1202:5::")])
    stats = fabric.parse_keyed(
        "p1t0s1 h1-port forwarded 10 trimmed 2 dropped 0 mode trim\n")
    expect_eq(stats, {("p1t0s1", "h1-port"): {
        "forwarded": 10, "trimmed": 2, "dropped": 0, "mode": "trim"}})
    expect_raises(ValueError, fabric.parse_keyed, "sw port forwarded\n")


def t_fabric_calls():
    # The script's command lines, through a stand-in that echoes them.
    fab = fabric.Fabric(script="/bin/echo")
    line = fab.up(hosts=8, rate="100mbit", trim=True, delay=None).stdout
    expect_eq(line.split(), ["up", "--hosts", "8", "--rate", "100mbit",
                             "--trim"])
    expect_eq(fab.link("h1-p1t0s1", "down", seconds=2).stdout.split(),
              ["link", "h1-p1t0s1", "down", "--for", "2"])
    h = fab.host("h1")
    expect_eq((h.ns, h.dev, h.netdev), ("mf-h1", "mrch1", "bond0"))
    expect_eq(h.addrs, ["addr", "h1"], "addresses: the script's words")


MRCCTL_PATHS = """\
qp 16 dest-qp 17 peer 192.0.2.2 profile 1
  ev 0 plane 0 udp 49152 profile-ev 0 state GOOD sent 95 acked 25 lost 0 probes 0
  ev 1 plane 1 usids 100,1200 profile-ev 1 state ASSUMED_BAD sent 5 acked 2 lost 3 probes 1
qp 18 dest-qp 19 profile 0
  ev 0 plane 1 udp 49153 state GOOD sent 10 acked 10 lost 0 probes 0
"""


def t_mrcctl_paths():
    qps = mrcctl.parse_paths(MRCCTL_PATHS)
    expect_eq([(q.qpn, q.dest_qp, q.peer, q.profile, len(q.evs))
               for q in qps],
              [(16, 17, "192.0.2.2", 1, 2), (18, 19, None, 0, 1)])
    expect_eq(qps[0].evs[1], {"ev": 1, "plane": 1, "usids": [0x100, 0x1200],
                              "profile-ev": 1, "state": "ASSUMED_BAD",
                              "sent": 5, "acked": 2, "lost": 3, "probes": 1})
    expect_eq(mrcctl.sent_per_plane(qps), {0: 95, 1: 15})
    expect_eq(mrcctl.parse_paths(""), [])
    expect_raises(ValueError, mrcctl.parse_paths, "  ev 0 plane 0\n")
    expect_raises(ValueError, mrcctl.parse_paths, "qp 1 dest-qp\n")
    expect_raises(ValueError, mrcctl.parse_paths, "paths of mrc0\n")


MRCCTL_PLANES = """\
plane 0 netdev - state down tx 12 via-master 3
plane 1 netdev pa1 state up tx 5000000000 via-master 0
"""


def t_mrcctl_planes():
    planes = mrcctl.parse_planes(MRCCTL_PLANES)
    expect_eq([(p.index, p.netdev, p.state, p.up, p.tx, p.via_master)
               for p in planes],
              [(0, None, "down", False, 12, 3),
               (1, "pa1", "up", True, 5000000000, 0)])
    expect_eq(mrcctl.parse_planes(""), [])
    expect_raises(ValueError, mrcctl.parse_planes, "plane 0 netdev pa0\n")
    expect_raises(ValueError, mrcctl.parse_planes,
                  "plane 0 netdev pa0 state sideways tx 1 via-master 0\n")
    expect_raises(ValueError, mrcctl.parse_planes,
                  "plane 0 netdev pa0 state up tx many via-master 0\n")
    expect_raises(ValueError, mrcctl.parse_planes, "qp 1 dest-qp 2\n")


def t_lab():
    expect_eq(lab.TOP, TOP, "the tree, from the library's place")
    expect(os.path.exists(lab.selftest_file("integrity.c")),
           "selftest_file")
    with tempfile.NamedTemporaryFile("w") as f:
        f.write("0000a000 0000000b 00000000\n00000001 00000010 0000\n")
        f.flush()
        expect_eq(lab.softnet_drops(f.name), 0x0b + 0x10)
    os.environ["MRC_SEED"] = "42"
    try:
        expect_eq(lab.rng().random(), lab.rng().random(), "MRC_SEED")
    finally:
        del os.environ["MRC_SEED"]
    saved = os.environ.pop("MRC_TEST_TIMEOUT_SCALE", None)
    try:
        expect_eq(lab.scaled(90), 90, "no scale")
        for value, want in (("20", 1800), ("0", 90), ("-3", 90),
                            ("x", 90), ("", 90)):
            os.environ["MRC_TEST_TIMEOUT_SCALE"] = value
            expect_eq(lab.scaled(90), want, f"scale {value!r}")
    finally:
        os.environ.pop("MRC_TEST_TIMEOUT_SCALE", None)
        if saved is not None:
            os.environ["MRC_TEST_TIMEOUT_SCALE"] = saved


def t_shell_entry():
    """python3 -m mrclab, the lookups lib.sh's mrc_gid_index and
    mrc_counters wrap: the library's answers as lines, a failure as an
    exit status with the reason on stderr."""
    import mrclab.__main__ as cli
    saved = rdma.counters
    rdma.counters = lambda dev, port=1: rdma.Counters(
        {"retransmits": 7, "timeouts": 2, "tx_packets": 90})
    try:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["counters", "mrc0", "timeouts", "retransmits"])
        expect_eq((status, out.getvalue()), (0, "timeouts 2\nretransmits 7\n"),
                  "named counters, in the order asked")
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["counters", "mrc0"])
        expect_eq(out.getvalue().splitlines()[0], "retransmits 7", "sorted")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["counters", "mrc0", "timeouts", "nosuch"])
        expect_eq((status, out.getvalue()), (1, "timeouts 2\n"),
                  "a missing counter fails")
        expect("nosuch" in err.getvalue(), "and is named")
    finally:
        rdma.counters = saved
    saved = mrcctl.planes
    mrcctl.planes = lambda dev, ns=None: mrcctl.parse_planes(MRCCTL_PLANES)
    try:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["planes", "mrc0"])
        expect_eq((status, out.getvalue()),
                  (0, "0 - down 12 3\n1 pa1 up 5000000000 0\n"),
                  "every field of every plane")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["planes", "--plane", "1", "mrc0", "tx",
                               "state"])
        expect_eq((status, out.getvalue()), (0, "5000000000 up\n"),
                  "one plane's named fields, in the order asked")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["planes", "--plane", "2", "mrc0"])
        expect_eq((status, out.getvalue()), (0, ""), "no plane 2: nothing")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["planes", "mrc0", "tx", "colour"])
        expect_eq((status, out.getvalue()), (2, ""), "an unknown field")
        expect("colour" in err.getvalue(), "is named")
    finally:
        mrcctl.planes = saved
    # A real command that fails: its status and its reason.
    saved = mrcctl.mrcctl
    mrcctl.mrcctl = lambda: "false"
    try:
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(err):
            status = cli.main(["planes", "mrc0"])
        expect_eq(status, 1, "mrcctl failed")
        expect("mrc0" in err.getvalue(), "the reason names the device")
    finally:
        mrcctl.mrcctl = saved
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(err):
        status = cli.main(["gid-index", "mrcnosuch0", "192.0.2.1"])
    expect_eq(status, 1, "no such device: no GID")
    expect("192.0.2.1" in err.getvalue(), "the reason names the address")

CASES = [(name[2:], fn) for name, fn in list(globals().items())
         if name.startswith("t_")]


def main():
    k = Ktap()
    k.begin(len(CASES))
    for name, fn in CASES:
        k.case(name, fn)
    k.finish()


if __name__ == "__main__":
    main()
