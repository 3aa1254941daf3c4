# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""RDMA devices as the tests look them up: a device's GID table (sysfs,
what libibverbs reads too), one GID index lookup for every use, and the
device's counters by name through the RDMA netlink interface (`rdma -j
statistic`, the dump Documentation/counters.rst describes), never by a
column's position.

    idx = gid_index("mrc0", "192.0.2.1", timeout=5)   # IPv4: ::ffff:...
    idx = gid_index("mrch1", "fc00:0:1::1")           # IPv6
    before = counters("mrc1")
    ...
    problems = check_deltas(before, counters("mrc1"),
                            {"rx_drop_no_qp": 3}, watched=is_drop)
"""

import ipaddress
import json
import os
import time

from .cmd import run
from .ktap import Fail

SYSFS_IB = "/sys/class/infiniband"
ROCE_V2 = "RoCE v2"
# The fields of a `rdma -j statistic show link` entry that name the
# link rather than count something.
LINK_FIELDS = ("ifindex", "ifname", "port")


class GidNotFound(Fail):
    """No GID of the address (and type) on the device: a failure in a
    case; a setup step may turn it into a skip."""


def exists(dev):
    return os.path.exists(os.path.join(SYSFS_IB, dev))


def devices(prefix="mrc", root=SYSFS_IB):
    """The RDMA devices whose name starts with PREFIX, sorted."""
    try:
        return sorted(d for d in os.listdir(root) if d.startswith(prefix))
    except OSError:
        return []


def port_state(dev, port=1, root=SYSFS_IB):
    """The port state as sysfs says it ("ACTIVE", "DOWN", ...)."""
    with open(os.path.join(root, dev, "ports", str(port), "state")) as f:
        return f.read().split(":", 1)[-1].strip()


def gid_of(addr):
    """The GID of an address: an IPv4 address as its IPv4-mapped IPv6
    address (as ib_core adds it), an IPv6 address, or a GID as sysfs
    writes it (eight groups of four hex digits)."""
    ip = ipaddress.ip_address(str(addr).strip())
    if ip.version == 4:
        return ipaddress.IPv6Address("::ffff:" + str(ip))
    return ip


class Gid:
    """One set entry of a port's GID table."""

    def __init__(self, index, gid, gid_type, ndev=None):
        self.index, self.gid, self.type, self.ndev = index, gid, gid_type, ndev

    @property
    def family(self):
        """4 for an IPv4-mapped GID, else 6."""
        return 4 if self.gid.ipv4_mapped else 6

    @property
    def address(self):
        """The IP address the GID stands for."""
        return self.gid.ipv4_mapped or self.gid

    @property
    def link_local(self):
        return self.family == 6 and self.gid.is_link_local

    def __repr__(self):
        return f"Gid({self.index}, {self.gid.exploded}, {self.type!r})"


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def gids(dev, port=1, root=SYSFS_IB):
    """The set entries of DEV's GID table on PORT, by index (all-zero
    entries are unset; an entry that goes away while read is left out)."""
    base = os.path.join(root, dev, "ports", str(port))
    try:
        names = os.listdir(os.path.join(base, "gids"))
    except OSError:
        return []
    table = []
    for name in sorted((n for n in names if n.isdigit()), key=int):
        text = _read(os.path.join(base, "gids", name))
        if not text:
            continue
        try:
            gid = ipaddress.IPv6Address(text)
        except ValueError:
            continue
        if gid == ipaddress.IPv6Address(0):
            continue
        gid_type = _read(os.path.join(base, "gid_attrs", "types", name))
        if gid_type is None:
            continue
        ndev = _read(os.path.join(base, "gid_attrs", "ndevs", name))
        table.append(Gid(int(name), gid, gid_type, ndev))
    return table


def find_gid(dev, addr=None, gid_type=ROCE_V2, family=None,
             link_local=None, port=1, root=SYSFS_IB):
    """The lowest-indexed GID entry of DEV that matches: the GID of ADDR,
    of GID_TYPE (None: any type), of address FAMILY (4 or 6), link-local
    or not (None: either). None when there is none."""
    want = gid_of(addr) if addr is not None else None
    for g in gids(dev, port, root):
        if want is not None and g.gid != want:
            continue
        if gid_type is not None and g.type != gid_type:
            continue
        if family is not None and g.family != family:
            continue
        if link_local is not None and g.link_local != link_local:
            continue
        return g
    return None


def gid_index(dev, addr, gid_type=ROCE_V2, timeout=0, port=1,
              root=SYSFS_IB, interval=0.1):
    """The GID index of ADDR (IPv4, IPv6 or a GID) of GID_TYPE (None: any
    type) on DEV, waiting up to TIMEOUT seconds for ib_core to add it;
    GidNotFound when it does not."""
    deadline = time.monotonic() + timeout
    while True:
        g = find_gid(dev, addr, gid_type, port=port, root=root)
        if g is not None:
            return g.index
        if time.monotonic() >= deadline:
            kind = f"{gid_type} GID" if gid_type else "GID"
            raise GidNotFound(f"no {kind} for {addr} on {dev} "
                              f"(port {port}) after {timeout} s")
        time.sleep(interval)


class Counters(dict):
    """One device's counters at one time: name -> value."""

    def delta(self, later):
        """How much each counter of LATER rose over these."""
        return {k: v - self.get(k, 0) for k, v in later.items()}

    def show(self, names=None):
        """"name value" pairs on one line (NAMES: those, in that order)."""
        names = [n for n in names if n in self] if names else sorted(self)
        return "  ".join(f"{n} {self[n]}" for n in names)


def parse_stat_json(text, dev=None, port=None):
    """The counters in `rdma -j statistic show link` output: of link
    DEV/PORT when given, else of its only link. ValueError when the
    output has no such link."""
    data = json.loads(text)
    links = data if isinstance(data, list) else [data]
    chosen = [e for e in links if isinstance(e, dict)
              and (dev is None or e.get("ifname") == dev)
              and (port is None or e.get("port") == port)]
    if len(chosen) != 1:
        raise ValueError(f"`rdma statistic` output has {len(chosen)} "
                         f"links {dev or ''}/{port or ''}, not one")
    return Counters({k: v for k, v in chosen[0].items()
                     if k not in LINK_FIELDS and isinstance(v, int)
                     and not isinstance(v, bool)})


def counters(dev, port=1, ns=None, timeout=30):
    """DEV's counters on PORT, through the RDMA netlink interface. In the
    rdma subsystem's shared namespace mode every namespace sees every
    device; NS runs the query inside one all the same."""
    res = run(["rdma", "-j", "statistic", "show", "link", f"{dev}/{port}"],
              ns=ns, timeout=timeout)
    return parse_stat_json(res.stdout, dev, port)


def check_deltas(before, after, expected, watched=None):
    """What differs from EXPECTED (name -> how much it must rise) between
    the snapshots BEFORE and AFTER, every other counter for which WATCHED
    (a predicate on the name; None: every counter) is true having to stay
    put. A list of problems, one sentence each; empty when all is as
    expected."""
    problems = []
    for name in sorted(after):
        if name not in expected and watched is not None and \
           not watched(name):
            continue
        rose = after[name] - before.get(name, 0)
        want = expected.get(name, 0)
        if rose != want:
            problems.append(f"{name} rose by {rose}, expected {want}")
    for name in sorted(expected):
        if name not in after:
            problems.append(f"no counter {name}")
    return problems


def is_drop(name):
    """A receive-drop counter (rx_drop_*)."""
    return name.startswith("rx_drop_")
