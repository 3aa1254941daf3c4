# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Where the selftests run and what they may use: the selftest directory
and soft-MRC's source tree (when they run from one), the module (loaded,
or loaded from MRC_KO, the tree's mrc.ko or an installed one), the tree's
tools, the preset of the tests' devices, the seed; and the program-wide
requirements that skip a whole program, saying why. The Python side of
lib.sh: the same environment variables, the same reasons.
"""

import os
import random
import signal
import sys

from .cmd import run
from .ktap import skip_all

SELFTEST_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
_TOP = os.path.realpath(os.path.join(SELFTEST_DIR, "..", ".."))
# soft-MRC's source tree when the tests run from one; None when they run
# installed or from a copy inside a kernel's tools/testing/selftests.
TOP = _TOP if os.path.exists(
    os.path.join(_TOP, "drivers/infiniband/sw/mrc/mrc_main.c")) else None
SYSFS_MODULE = "/sys/module/mrc"
NO_LOADER = ("no module file to load: set MRC_KO=/path/to/mrc.ko, or "
             "install mrc where modprobe finds it (make install, or DKMS)")
# The preset the tests select on every device that carries traffic
# (lib.sh, Documentation/testing.rst).
PRESET = os.environ.get("MRC_PRESET") or "lab"


def selftest_file(name):
    """A file of the collection (a C probe, a helper)."""
    return os.path.join(SELFTEST_DIR, name)


def module_file():
    """The module file tests insmod: MRC_KO, else the tree's mrc.ko when
    built; None: modprobe loads the installed module."""
    ko = os.environ.get("MRC_KO")
    if ko:
        return ko
    if TOP:
        ko = os.path.join(TOP, "drivers/infiniband/sw/mrc/mrc.ko")
        if os.path.exists(ko):
            return ko
    return None


def loader():
    """How this machine loads mrc: "insmod FILE", "modprobe FILE", or
    None."""
    ko = module_file()
    if ko and os.access(ko, os.R_OK):
        return f"insmod {ko}"
    res = run(["modinfo", "-F", "filename", "mrc"], check=False)
    if res.ok and res.stdout.strip():
        return f"modprobe {res.stdout.strip()}"
    return None


def can_load():
    return loader() is not None


def module_loaded():
    return os.path.isdir(SYSFS_MODULE)


def load(*params):
    """Loads mrc unless it is loaded: the module file with insmod, after
    the modules it depends on; else the installed module with modprobe.
    True when it is loaded."""
    if module_loaded():
        return True
    ko = module_file()
    if ko and os.access(ko, os.R_OK):
        deps = run(["modinfo", "-F", "depends", ko], check=False).stdout
        for dep in deps.strip().replace(",", " ").split():
            if not run(["modprobe", dep], check=False).ok:
                return False
        return run(["insmod", ko] + list(params), check=False).ok
    return run(["modprobe", "mrc"] + list(params), check=False).ok


def unload():
    return not module_loaded() or run(["rmmod", "mrc"], check=False).ok


def have(program):
    """Whether PROGRAM is on PATH."""
    return any(os.access(os.path.join(d, program), os.X_OK)
               for d in os.environ.get("PATH", "").split(os.pathsep) if d)


def tool(name):
    """A soft-MRC tool (mrcctl): the tree's build, else the installed one;
    None when there is none."""
    if TOP:
        path = os.path.join(TOP, "tools", name, name)
        if os.access(path, os.X_OK):
            return path
    for d in os.environ.get("PATH", "").split(os.pathsep):
        path = os.path.join(d, name)
        if d and os.access(path, os.X_OK):
            return path
    return None


def time_scale():
    """run-lab's MRC_TEST_TIMEOUT_SCALE (1 when unset or not a positive
    integer): how much slower than the normal lab this kernel runs (the
    debug lab kernel's), as lib.sh's mrc_scaled."""
    value = os.environ.get("MRC_TEST_TIMEOUT_SCALE", "")
    return int(value) if value.isdigit() and int(value) > 0 else 1


def scaled(seconds):
    """A test's own wait, stretched with time_scale()."""
    return seconds * time_scale()


def udp_port():
    """The udp_port parameter of the loaded module."""
    with open(os.path.join(SYSFS_MODULE, "parameters/udp_port")) as f:
        return int(f.read())


def unload_rxe():
    """rdma_rxe would take the UDP port our devices use."""
    if os.path.isdir("/sys/module/rdma_rxe"):
        run(["rmmod", "rdma_rxe"], check=False)


def select_preset(*devs):
    """The tests' preset (MRC_PRESET, default lab) on each device DEV.
    Without mrcctl the devices keep theirs, and the log says so."""
    mrcctl = tool("mrcctl")
    if not mrcctl:
        print(f"# no mrcctl (make tools, or make install): "
              f"{' '.join(devs)} keep the nic preset", flush=True)
        return
    for dev in devs:
        run([mrcctl, "dev", dev, "set", "preset", PRESET])


def cleanup():
    """Removes every mrc RDMA link and mrct* netdev the tests may have
    made; safe at any time."""
    for dev in _listdir("/sys/class/infiniband"):
        if dev.startswith("mrc"):
            run(["rdma", "link", "delete", dev], check=False)
    for dev in _listdir("/sys/class/net"):
        if dev.startswith("mrct"):
            run(["ip", "link", "del", dev], check=False)


def _listdir(path):
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def softnet_drops(path="/proc/net/softnet_stat"):
    """Packets the stack dropped for a full backlog, over every CPU
    (softnet_stat's second column, hex)."""
    with open(path) as f:
        return sum(int(line.split()[1], 16) for line in f if line.strip())


def rng():
    """A random generator: seeded from MRC_SEED when set (scripts/mrc-vm
    --deterministic), so that a run repeats exactly."""
    seed = os.environ.get("MRC_SEED")
    return random.Random(int(seed)) if seed else random.Random()


def exit_on_sigterm():
    """SIGTERM (the runner's time limit) exits through the program's
    cleanups (finally, with) rather than killing it where it stands."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))


def require_root_tools():
    """Skips the program unless it can run: root, the rdma tool, and mrc
    loaded already or loadable."""
    if os.geteuid() != 0:
        skip_all("needs root")
    if not have("rdma"):
        skip_all("needs rdma (iproute2)")
    if not module_loaded() and not can_load():
        skip_all(f"mrc is not loaded and there is {NO_LOADER}")


def require_loaded():
    """Loads mrc, or skips the program."""
    if not load():
        skip_all(f"mrc did not load ({loader()}); see dmesg")


def require_reload():
    """For programs that unload mrc and load it again."""
    if not can_load():
        skip_all(f"unloads and reloads mrc: {NO_LOADER}")


def require_tree(what):
    """Skips the program unless it runs from soft-MRC's source tree."""
    if not TOP:
        skip_all(f"needs soft-MRC's source tree ({what}): run it from a "
                 "built tree (selftests/run-lab, make run_tests), not "
                 "installed")


def require_file(path, why="run make first"):
    """Skips the program unless PATH (a C probe) is there to run."""
    if not os.access(path, os.X_OK):
        skip_all(f"no {path}: {why}")
