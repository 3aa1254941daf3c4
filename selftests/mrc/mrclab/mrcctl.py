# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""soft-MRC's controller through mrcctl (the `mrc` generic netlink
family, Documentation/controller.rst): the EVs of every connection and a
device's planes, read by field name from `mrcctl paths` and `mrcctl
planes`, the interface where tests used to read debugfs `paths` and
`planes` by column.

    for qp in paths("mrch1", peer=h5.addr6):
        sent = {ev["plane"]: ev["sent"] for ev in qp.evs}
    tx = {p.index: p.tx for p in planes("mrch1")}
"""

from . import lab
from .cmd import run


class QpPaths:
    """One RC queue pair's EVs: .qpn, .dest_qp, .peer (None when not
    given), .profile, .evs (one dict per EV: ev, plane, udp or usids,
    profile_ev, state, sent, acked, lost, probes; new fields as they come)."""

    def __init__(self, fields):
        self.qpn = fields["qp"]
        self.dest_qp = fields.get("dest-qp")
        self.peer = fields.get("peer")
        self.profile = fields.get("profile")
        self.evs = []

    def __repr__(self):
        return f"QpPaths(qp {self.qpn}, {len(self.evs)} EVs)"


class Plane:
    """One plane of a device, as `mrcctl planes` lists it: .index,
    .netdev (its lower netdev; None for an empty slot), .state ("up" or
    "down"), .up, .tx (packets sent on its netdev), .via_master (packets
    of the plane sent through the master instead)."""

    def __init__(self, fields):
        self.index = fields["plane"]
        netdev = fields["netdev"]
        self.netdev = None if netdev == "-" else netdev
        self.state = fields["state"]
        self.tx = fields["tx"]
        self.via_master = fields["via-master"]

    @property
    def up(self):
        return self.state == "up"

    def __repr__(self):
        return (f"Plane({self.index} {self.netdev or '-'} {self.state} "
                f"tx {self.tx} via-master {self.via_master})")


def _pairs(words, line):
    if len(words) % 2:
        raise ValueError(f"not name-value pairs: {line!r}")
    fields = {}
    for name, value in zip(words[::2], words[1::2]):
        if name == "usids":
            fields[name] = [int(u, 16) for u in value.split(",")]
        elif name in ("peer", "state", "netdev"):
            fields[name] = value
        else:
            fields[name] = int(value)
    return fields


def parse_paths(text):
    """`mrcctl paths` output: a list of QpPaths, in its order."""
    qps = []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "qp":
            qps.append(QpPaths(_pairs(words, line)))
        elif words[0] == "ev":
            if not qps:
                raise ValueError(f"an EV before any queue pair: {line!r}")
            qps[-1].evs.append(_pairs(words, line))
        else:
            raise ValueError(f"not a line of mrcctl paths: {line!r}")
    return qps


PLANE_FIELDS = ("plane", "netdev", "state", "tx", "via-master")


def parse_planes(text):
    """`mrcctl planes` output: a list of Plane, in its order."""
    planes = []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] != "plane":
            raise ValueError(f"not a line of mrcctl planes: {line!r}")
        fields = _pairs(words, line)
        missing = [f for f in PLANE_FIELDS if f not in fields]
        if missing:
            raise ValueError(f"no {' '.join(missing)} in {line!r}")
        if fields["state"] not in ("up", "down"):
            raise ValueError(f"state is up or down: {line!r}")
        planes.append(Plane(fields))
    return planes


def mrcctl():
    path = lab.tool("mrcctl")
    if not path:
        raise FileNotFoundError("no mrcctl (make tools, or make install)")
    return path


def paths(dev, peer=None, ns=None):
    """The EVs of DEV's connections (to PEER only, when given)."""
    argv = [mrcctl(), "paths", dev] + (["peer", str(peer)] if peer else [])
    return parse_paths(run(argv, ns=ns).stdout)


def planes(dev, ns=None):
    """DEV's planes (PLANE_GET): a list of Plane, by index."""
    return parse_planes(run([mrcctl(), "planes", dev], ns=ns).stdout)


def sent_per_plane(qps):
    """Packets sent on each plane, over the EVs of QPS: {plane: sent}."""
    per_plane = {}
    for qp in qps:
        for ev in qp.evs:
            per_plane[ev["plane"]] = per_plane.get(ev["plane"], 0) + \
                ev.get("sent", 0)
    return per_plane
