# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""mrclab: the lab library of the mrc selftests (and, in time, of every
lab script and benchmark). Documentation/testing.rst, "The lab library",
says how a test uses it. One concern per module:

    ktap     KTAP output: plan, cases, skips, known failures, totals
    cmd      commands in or out of a namespace, under time limits
    lab      the tree, the module, tools, presets, program requirements
    rdma     devices, GID lookup, counters by name (netlink)
    mrcctl   the controller (netlink): connections' EVs and a device's
             planes by field name
    hosts    host handles, the two-namespace lab (TwoHosts)
    fabric   the multi-plane fabric (scripts/mrc-fabric) as handles
    traffic  the integrity program: runs that check every byte

A test next to this package imports it as `import mrclab`, from the
source tree and from a kselftest install alike.
"""

from . import cmd, fabric, hosts, ktap, lab, mrcctl, rdma, traffic
from .cmd import Background, CmdError, Result, run, wait_for
from .fabric import Fabric
from .hosts import Host, TwoHosts
from .ktap import Fail, KnownFailure, Ktap, Skip, skip_all
from .rdma import GidNotFound, check_deltas, counters, find_gid, gid_index, \
    gids
from .traffic import IntegrityRun, run_integrity

__all__ = [
    "cmd", "fabric", "hosts", "ktap", "lab", "mrcctl", "rdma", "traffic",
    "Background", "CmdError", "Result", "run", "wait_for", "Fabric", "Host",
    "TwoHosts", "Fail", "KnownFailure", "Ktap", "Skip", "skip_all",
    "GidNotFound", "check_deltas", "counters", "find_gid", "gid_index",
    "gids", "IntegrityRun", "run_integrity",
]
