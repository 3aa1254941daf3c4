# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host handles: a network namespace with a netdev, an mrc device and
addresses, which runs commands and answers for its device (counters,
GIDs). TwoHosts builds the two-namespace lab most tests use; fabric.py
gives the multi-plane fabric's hosts as the same handles.

    with TwoHosts() as lab2:
        lab2.up()                     # CmdError or GidNotFound: no lab
        a, b = lab2.a, lab2.b
        a.run(["ping", "-c1", b.addr])
        b.counters()["rx_packets"]
"""

import ipaddress

from . import lab, rdma
from .cmd import Background, run, wait_for
from .ktap import skip_all


class Host:
    """NAME, namespace NS (None: the initial one), DEV its mrc device on
    NETDEV, ADDRS its addresses (the first of a family is the one tests
    use); .gid: DEV's GID index of .addr once looked up."""

    def __init__(self, name, ns, dev, netdev=None, addrs=()):
        self.name, self.ns, self.dev, self.netdev = name, ns, dev, netdev
        self.addrs = list(addrs)
        self.gid = None

    def __repr__(self):
        return f"Host({self.name}, ns={self.ns}, dev={self.dev})"

    def _addr(self, family):
        for a in self.addrs:
            if ipaddress.ip_address(a).version == family:
                return a
        return None

    @property
    def addr4(self):
        return self._addr(4)

    @property
    def addr6(self):
        return self._addr(6)

    @property
    def addr(self):
        """The address tests use by default: the IPv4 one if any."""
        return self.addr4 or self.addr6

    def run(self, argv, **kwargs):
        """cmd.run() inside the host's namespace."""
        return run(argv, ns=self.ns, **kwargs)

    def background(self, argv, **kwargs):
        """cmd.Background inside the host's namespace."""
        return Background(argv, ns=self.ns, **kwargs)

    def counters(self):
        return rdma.counters(self.dev, ns=self.ns)

    def gid_index(self, addr=None, timeout=0, gid_type=rdma.ROCE_V2):
        """The GID index of ADDR (default: .addr) on the host's device."""
        return rdma.gid_index(self.dev, addr or self.addr,
                              gid_type=gid_type, timeout=timeout)

    def tcp_listening(self, port):
        """Whether something listens on TCP PORT in the host."""
        res = self.run(["ss", "-Hltn", f"sport = :{port}"], check=False)
        return res.ok and bool(res.stdout.strip())


class TwoHosts:
    """Two hosts, namespaces mrcna and mrcnb joined by a veth pair
    (mrcva 192.0.2.1/24, mrcvb 192.0.2.2/24), with mrc0 in mrcna and
    mrc1 in mrcnb, each with the tests' preset: lib.sh's make_two_hosts,
    the same names, so shell and Python tests share one lab."""

    GID_TIMEOUT = 5

    def __init__(self):
        self.a = Host("a", "mrcna", "mrc0", "mrcva", ["192.0.2.1"])
        self.b = Host("b", "mrcnb", "mrc1", "mrcvb", ["192.0.2.2"])

    @property
    def hosts(self):
        return (self.a, self.b)

    def __enter__(self):
        self.down()
        return self

    def __exit__(self, *exc):
        self.down()
        lab.cleanup()
        return False

    def up(self):
        """Builds them; CmdError (or rdma.GidNotFound) when a step fails.
        Each host's .gid is its device's IPv4 GID index."""
        a, b = self.a, self.b
        for h in self.hosts:
            run(["ip", "netns", "add", h.ns])
        run(["ip", "link", "add", a.netdev, "type", "veth", "peer", "name",
             b.netdev])
        for h in self.hosts:
            run(["ip", "link", "set", h.netdev, "netns", h.ns])
            run(["ip", "-n", h.ns, "addr", "add", f"{h.addr}/24", "dev",
                 h.netdev])
            run(["ip", "-n", h.ns, "link", "set", h.netdev, "up"])
            run(["ip", "-n", h.ns, "link", "set", "lo", "up"])
        for h in self.hosts:
            h.run(["rdma", "link", "add", h.dev, "type", "mrc", "netdev",
                   h.netdev])
        lab.select_preset(a.dev, b.dev)
        for h in self.hosts:
            h.gid = h.gid_index(timeout=self.GID_TIMEOUT)

    def up_or_skip(self):
        """up(), or the whole program skipped with what failed: a lab
        that cannot build the two hosts tests nothing."""
        try:
            self.up()
        except Exception as e:  # pylint: disable=broad-except
            print("\n".join("# " + l for l in
                            getattr(e, "details", str(e)).splitlines()))
            skip_all(f"cannot build the two hosts: {e}")

    def down(self):
        """Removes them (the devices go with their namespaces); safe at
        any time."""
        for h in self.hosts:
            run(["ip", "netns", "del", h.ns], check=False)
        # A pair that never reached its namespaces.
        run(["ip", "link", "del", self.a.netdev], check=False)
        for h in self.hosts:
            wait_for(10, lambda dev=h.dev: not rdma.exists(dev))
