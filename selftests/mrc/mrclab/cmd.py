# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Running commands: in a network namespace or not, always under a time
limit, failing with an error that shows what the command printed.

    res = run(["rdma", "link", "show"])          # CmdError unless status 0
    res = run(["ping", "-c1", addr], ns="mrcna", check=False)
    with Background(["ib_write_bw", ...], ns="mf-h5") as server:
        ...
        res = server.wait(30)
"""

import os
import shlex
import signal
import subprocess
import tempfile
import time

# A command's output shown in an error: its last lines, enough to see why.
ERROR_TAIL_LINES = 40


def in_ns(argv, ns=None):
    """ARGV as run inside network namespace NS (none: as it is)."""
    argv = [str(a) for a in argv]
    return ["ip", "netns", "exec", ns] + argv if ns else argv


def tail(text, lines=ERROR_TAIL_LINES):
    rows = text.rstrip("\n").split("\n") if text else []
    if len(rows) > lines:
        rows = [f"[{len(rows) - lines} lines before]"] + rows[-lines:]
    return "\n".join(rows)


class Result:
    """What a finished command did: argv, returncode (None: killed at its
    time limit), stdout, stderr."""

    def __init__(self, argv, returncode, stdout, stderr, timed_out=False):
        self.argv, self.returncode = argv, returncode
        self.stdout, self.stderr = stdout or "", stderr or ""
        self.timed_out = timed_out

    @property
    def ok(self):
        return self.returncode == 0

    @property
    def output(self):
        """stdout, then stderr."""
        if self.stdout and self.stderr and not self.stdout.endswith("\n"):
            return self.stdout + "\n" + self.stderr
        return self.stdout + self.stderr

    def status_text(self):
        if self.timed_out:
            return "timed out"
        if self.returncode is not None and self.returncode < 0:
            return f"killed by signal {-self.returncode}"
        return f"exit status {self.returncode}"

    def details(self):
        text = "$ " + shlex.join(self.argv) + f"  ({self.status_text()})"
        for name, out in (("stdout", self.stdout), ("stderr", self.stderr)):
            if out.strip():
                text += f"\n{name}:\n" + tail(out)
        return text


class CmdError(Exception):
    """A command failed: str() says which and how; .details adds what it
    printed (ktap.Ktap.case shows them); .result is its Result."""

    def __init__(self, result):
        self.result = result
        self.details = result.details()
        super().__init__(f"{os.path.basename(result.argv[0])} "
                         f"{result.status_text()}")


def run(argv, ns=None, timeout=60, check=True, input=None, env=None):
    """Runs ARGV (in namespace NS) to its end or TIMEOUT seconds; its
    Result. CHECK: a non-zero status or the time limit raises CmdError."""
    argv = in_ns(argv, ns)
    full_env = None
    if env:
        full_env = dict(os.environ)
        full_env.update({k: str(v) for k, v in env.items()})
    try:
        p = subprocess.run(argv, input=input, capture_output=True,
                           text=True, errors="replace", timeout=timeout,
                           env=full_env, check=False)
        res = Result(argv, p.returncode, p.stdout, p.stderr)
    except subprocess.TimeoutExpired as e:
        res = Result(argv, None, _text(e.stdout), _text(e.stderr),
                     timed_out=True)
    except OSError as e:
        res = Result(argv, 127, "", f"{e}\n")
    if check and not res.ok:
        raise CmdError(res)
    return res


def _text(data):
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode(errors="replace")


class Background:
    """ARGV started in the background (in namespace NS), stdout and
    stderr together into a file: .output() reads what it printed so far,
    .wait() its Result, .stop() ends it. As a context manager it is
    stopped on the way out. STDIN=True keeps a pipe to it (.send())."""

    def __init__(self, argv, ns=None, stdin=False, env=None):
        self.argv = in_ns(argv, ns)
        self._file = tempfile.TemporaryFile(mode="w+", errors="replace")
        full_env = None
        if env:
            full_env = dict(os.environ)
            full_env.update({k: str(v) for k, v in env.items()})
        self.proc = subprocess.Popen(
            self.argv, stdout=self._file, stderr=subprocess.STDOUT,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            text=True, env=full_env)
        self.result = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    @property
    def pid(self):
        return self.proc.pid

    def running(self):
        return self.proc.poll() is None

    def output(self):
        if self.result is not None:
            return self.result.output
        self._file.flush()
        self._file.seek(0)
        return self._file.read()

    def send(self, text, close=True):
        """Writes TEXT to its stdin (then closes it, unless not CLOSE)."""
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        if close:
            self.close_stdin()

    def close_stdin(self):
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass

    def wait(self, timeout=60, check=False):
        """Its Result once it ends; stopped after TIMEOUT seconds (the
        Result then says timed out). CHECK as for run()."""
        if self.result is None:
            timed_out = False
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                self._kill()
            self.close_stdin()
            self.result = Result(self.argv, None if timed_out else
                                 self.proc.returncode, self.output(), "",
                                 timed_out=timed_out)
            self._file.close()
        if check and not self.result.ok:
            raise CmdError(self.result)
        return self.result

    def stop(self, grace=2):
        """Ends it (SIGTERM, SIGKILL after GRACE seconds) unless it ended;
        its Result."""
        if self.result is not None:
            return self.result
        if self.running():
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self._kill()
        return self.wait(grace)

    def _signal(self, sig):
        try:
            self.proc.send_signal(sig)
        except ProcessLookupError:
            pass

    def _kill(self):
        self._signal(signal.SIGKILL)
        self.proc.wait()


def wait_for(seconds, check, interval=0.1):
    """Polls CHECK() until it returns a true value or SECONDS pass; that
    value, or the last call's after the deadline (whose exceptions then
    propagate: earlier ones count as not yet)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:  # pylint: disable=broad-except
            value = None
        if value:
            return value
        time.sleep(interval)
    return check()
