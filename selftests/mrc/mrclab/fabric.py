# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The multi-plane fabric (scripts/mrc-fabric, Documentation/fabric.rst)
as handles: Fabric builds and changes it through the script, its hosts
are hosts.Host (namespace mf-hN, device mrchN on bond0, the fabric's
IPv6 and IPv4 addresses), switches are namespaces to run commands in.

    fab = Fabric()                    # needs the source tree
    fab.up(rate="100mbit")
    h1, h5 = fab.host("h1"), fab.host("h5")
    h1.gid = h1.gid_index(h1.addr6, timeout=20)
    fab.port("h1", 1, "down")
    fab.down()
"""

import os

from . import lab
from .cmd import run
from .hosts import Host

NS_PREFIX = "mf-"
HOST_NETDEV = "bond0"


def parse_nodes(text):
    """`mrc-fabric nodes`: name -> uSID."""
    nodes = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2:
            nodes[f[0]] = int(f[1], 16)
    return nodes


def parse_paths(text):
    """`mrc-fabric paths`: [(plane, uSID container)]."""
    paths = []
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2:
            paths.append((int(f[0]), f[1]))
    return paths


def parse_keyed(text, keys=2):
    """Lines of KEYS words then "name value" pairs (`mrc-fabric
    trimstats`): {(word, ...): {name: value}}, values as int where they
    are numbers. Fields are read by name: new ones may be appended."""
    table = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) < keys:
            continue
        pairs = f[keys:]
        if len(pairs) % 2:
            raise ValueError(f"not name-value pairs: {line!r}")
        row = {}
        for name, value in zip(pairs[::2], pairs[1::2]):
            row[name] = int(value) if value.lstrip("-").isdigit() else value
        table[tuple(f[:keys])] = row
    return table


class Fabric:
    """The fabric, driven through scripts/mrc-fabric of the tree."""

    def __init__(self, script=None):
        if script is None:
            if not lab.TOP:
                raise RuntimeError("the fabric needs soft-MRC's source tree")
            script = os.path.join(lab.TOP, "scripts", "mrc-fabric")
        self.script = script

    def call(self, *args, timeout=600, check=True):
        """mrc-fabric ARGS...; its Result."""
        return run([self.script] + [str(a) for a in args], timeout=timeout,
                   check=check)

    def up(self, **opts):
        """`up` with OPTS as its options: hosts=8, rate="100mbit",
        trim=True (a flag), ..."""
        args = ["up"]
        for name, value in opts.items():
            if value is False or value is None:
                continue
            args.append("--" + name.replace("_", "-"))
            if value is not True:
                args.append(value)
        return self.call(*args)

    def down(self):
        return self.call("down", check=False)

    def nodes(self):
        return parse_nodes(self.call("nodes").stdout)

    def host_names(self):
        """h1, h2, ... in order."""
        return sorted((n for n in self.nodes() if n[0] == "h"
                       and n[1:].isdigit()), key=lambda n: int(n[1:]))

    def host(self, name):
        """The handle of host NAME (h1...), with its addresses (IPv6
        first, as `mrc-fabric addr` prints them)."""
        addrs = self.call("addr", name).stdout.split()
        return Host(name, NS_PREFIX + name, "mrc" + name, HOST_NETDEV, addrs)

    def hosts(self):
        return [self.host(n) for n in self.host_names()]

    def ns(self, node):
        """The namespace of a node (host or switch)."""
        return NS_PREFIX + node

    def exec(self, node, argv, **kwargs):
        """cmd.run() in NODE's namespace."""
        return run(argv, ns=self.ns(node), **kwargs)

    def paths(self, src, dst):
        return parse_paths(self.call("paths", src, dst).stdout)

    def links(self):
        return self.call("links").stdout.split()

    def link(self, name, state, seconds=None):
        """Link NAME down or up (down for SECONDS, then up)."""
        args = ["link", name, state]
        if seconds is not None:
            args += ["--for", seconds]
        return self.call(*args)

    def port(self, host, plane, state):
        """HOST's plane port p<PLANE> down or up."""
        return self.call("port", host, plane, state)

    def switch(self, name, state):
        return self.call("switch", name, state)

    def trimstats(self):
        """{(switch, port): {counter: value}} of the trimming (or
        marking) ports."""
        return parse_keyed(self.call("trimstats").stdout)
