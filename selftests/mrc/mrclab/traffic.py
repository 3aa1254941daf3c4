# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Traffic that checks its bytes: the collection's integrity program
(integrity.c: WRITEs, SENDs and READs of random size, every byte and
every completion checked), run to its end or in the background, its
summary parsed. A run passes only when the program exited 0, printed its
summary, moved at least one transfer and corrupted none.

    res = run_integrity("mrc0", "192.0.2.1", "mrc1", "192.0.2.2",
                        seconds=45, transfers=600, depth=4, seed=7)
    ktap.info(res.output)
    res.check()                       # Fail, saying what went wrong
    res.bytes_checked
"""

import re

from . import lab
from .cmd import Background, run
from .ktap import Fail

PROGRAM = "integrity"
# Its last line: what moved and what was checked.
SUMMARY = re.compile(
    r"^# transfers (?P<transfers>\d+) \(write (?P<writes>\d+), "
    r"send (?P<sends>\d+), read (?P<reads>\d+)\), bytes checked "
    r"(?P<bytes_checked>\d+), corrupted (?P<corrupted>\d+), "
    r"(?P<seconds>[0-9.]+) s$", re.M)
# Beyond its own limit, a transfer may wait this long for its completion
# (integrity.c's CQ_TIMEOUT_S), and the run ends its last ones.
GRACE_SECONDS = 120


def parse_integrity(text):
    """The figures of integrity's summary line in TEXT (the last one if
    several), or None when there is none."""
    found = None
    for m in SUMMARY.finditer(text):
        found = m
    if not found:
        return None
    figures = {k: int(v) for k, v in found.groupdict().items()
               if k != "seconds"}
    figures["seconds"] = float(found.group("seconds"))
    return figures


class IntegrityResult:
    """One integrity run: its Result (.status, .output) and figures
    (.transfers, .writes, .sends, .reads, .bytes_checked, .corrupted,
    .seconds; None without a summary)."""

    FIELDS = ("transfers", "writes", "sends", "reads", "bytes_checked",
              "corrupted", "seconds")

    def __init__(self, result):
        self.result = result
        self.output = result.output
        self.figures = parse_integrity(self.output)
        for k in self.FIELDS:
            setattr(self, k, self.figures[k] if self.figures else None)

    def problems(self):
        """What makes the run a failure, one sentence each."""
        found = []
        if not self.result.ok:
            found.append(f"integrity {self.result.status_text()}")
        if self.figures is None:
            found.append("no summary line from integrity")
        else:
            if self.corrupted:
                found.append(f"{self.corrupted} transfers corrupted")
            if not self.transfers:
                found.append("no transfer completed")
        return found

    @property
    def ok(self):
        return not self.problems()

    def check(self):
        """Fail unless the run passed."""
        found = self.problems()
        if found:
            raise Fail("; ".join(found))
        return self


def integrity_argv(dev_a, ip_a, dev_b, ip_b, seconds=None, transfers=None,
                   depth=None, seed=None, writes_only=False,
                   reads_only=False, qp_timeout=None, start_file=None,
                   wr_api=False, program=None):
    """The command line of one run from DEV_A (IP_A, the requester) to
    DEV_B (IP_B); options as integrity.c documents them."""
    argv = [program or lab.selftest_file(PROGRAM)]
    for flag, value in (("-s", seed), ("-t", seconds), ("-n", transfers),
                        ("-d", depth), ("-T", qp_timeout),
                        ("-W", start_file)):
        if value is not None:
            argv += [flag, str(value)]
    if writes_only:
        argv.append("-w")
    if reads_only:
        argv.append("-r")
    if wr_api:
        argv.append("-x")
    return argv + [dev_a, str(ip_a), dev_b, str(ip_b)]


def _limit(seconds, timeout):
    if timeout is not None:
        return timeout
    return (seconds if seconds is not None else 600) + GRACE_SECONDS


def run_integrity(dev_a, ip_a, dev_b, ip_b, ns=None, timeout=None, **opts):
    """One run to its end (in namespace NS): an IntegrityResult. TIMEOUT
    defaults to its -t SECONDS plus GRACE_SECONDS."""
    argv = integrity_argv(dev_a, ip_a, dev_b, ip_b, **opts)
    return IntegrityResult(run(argv, ns=ns, check=False,
                               timeout=_limit(opts.get("seconds"), timeout)))


class IntegrityRun:
    """A run in the background (several at once, or while the test
    changes the fabric): .result() waits for its IntegrityResult."""

    def __init__(self, dev_a, ip_a, dev_b, ip_b, ns=None, **opts):
        self.limit = _limit(opts.get("seconds"), None)
        self.proc = Background(integrity_argv(dev_a, ip_a, dev_b, ip_b,
                                              **opts), ns=ns)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.stop()
        return False

    def output(self):
        return self.proc.output()

    def result(self, timeout=None):
        return IntegrityResult(self.proc.wait(timeout or self.limit))
