# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""KTAP output for Python selftests, with the conventions of ktap.sh: the
same lines, the same totals line and exit statuses (0 when every case
passed, 1 when any failed, 4, KSFT_SKIP, when all were skipped), so that
scripts/ktap-summary and the kselftest runner read both alike.

A case is a function: returning is a pass (returning False, a check's
answer taken for a verdict, is a failure); raising Fail is a failure with
its reason; Skip a skip; KnownFailure a TODO (an open issue's failure);
an exception with a "details" attribute (CmdError) a failure that shows
those (the command's output); anything else a failure with its
traceback. What a case prints goes to the log as it
comes; the library prefixes it with "# " only where it prints it itself
(info(), a command's output), so a case prints through info().
"""

import sys
import traceback

KSFT_PASS = 0
KSFT_FAIL = 1
KSFT_SKIP = 4


class Fail(Exception):
    """A case failed; the message says why."""


class Skip(Exception):
    """A case, or with skip_all the program, cannot run; the message says
    why (never a pass)."""


class KnownFailure(Exception):
    """A case failed for a reason an open issue tracks (KTAP TODO): the
    message names the issue."""


def diag_lines(text):
    """Text as KTAP diagnostic lines ("# " before each line)."""
    if not text or not text.strip():
        return []
    return ["# " + line if line else "#"
            for line in text.rstrip("\n").split("\n")]


class Ktap:
    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.planned = None
        self.number = 0
        self.passed = self.failed = self.skipped = self.known = 0

    def _say(self, line):
        print(line, file=self.out, flush=True)

    def begin(self, planned):
        """The header and the plan: PLANNED cases will follow."""
        self.planned = planned
        self._say("KTAP version 1")
        self._say(f"1..{planned}")

    def info(self, text):
        """Diagnostics: every line of TEXT behind "# "."""
        for line in diag_lines(str(text)):
            self._say(line)

    def ok(self, name):
        self.number += 1
        self.passed += 1
        self._say(f"ok {self.number} {name}")

    def fail(self, name, why=None):
        self.number += 1
        self.failed += 1
        if why:
            self.info(f"{name}: {why}")
        self._say(f"not ok {self.number} {name}")

    def xfail(self, name, why):
        self.number += 1
        self.known += 1
        self._say(f"not ok {self.number} {name} # TODO {one_line(why)}")

    def skip(self, name, why):
        self.number += 1
        self.skipped += 1
        self._say(f"ok {self.number} {name} # SKIP {one_line(why)}")

    def case(self, name, fn, *args, **kwargs):
        """Runs FN(*ARGS) as the case NAME and reports it; returns True
        when it passed."""
        try:
            verdict = fn(*args, **kwargs)
        except Skip as e:
            self.skip(name, str(e) or "no reason given")
            return False
        except KnownFailure as e:
            self.xfail(name, str(e) or "no reason given")
            return False
        except Fail as e:
            self.fail(name, str(e) or "failed")
            return False
        except Exception as e:  # pylint: disable=broad-except
            details = getattr(e, "details", None)
            if details is None:
                self.info(traceback.format_exc())
                self.fail(name, f"{type(e).__name__}: {e}")
            else:
                self.info(details)
                self.fail(name, str(e))
            return False
        if verdict is False:
            self.fail(name, "returned False")
            return False
        self.ok(name)
        return True

    def totals(self):
        return (f"# totals: pass:{self.passed} fail:{self.failed} "
                f"skip:{self.skipped} xfail:{self.known}")

    def exit_status(self):
        if self.failed:
            return KSFT_FAIL
        if self.passed == 0 and self.skipped > 0:
            return KSFT_SKIP
        return KSFT_PASS

    def finish(self):
        """The totals line; exits with the kselftest status. A plan that
        the cases did not keep is a failure of the program."""
        if self.planned is not None and self.number != self.planned:
            self.info(f"planned {self.planned} cases, reported {self.number}")
            self.failed += 1
        self._say(self.totals())
        sys.exit(self.exit_status())


def one_line(text):
    return " ".join(str(text).split())


def skip_all(why, out=None):
    """Skips the whole program, kselftest style, saying why."""
    out = out or sys.stdout
    print("KTAP version 1", file=out)
    print(f"1..0 # SKIP {one_line(why)}", file=out, flush=True)
    sys.exit(KSFT_SKIP)
