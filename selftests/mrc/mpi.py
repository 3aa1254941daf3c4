#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Open MPI with the UCX PML over mrc: mpi-check (mpi_check.c) runs one
rank per host, point to point exchanges of 1 KiB up to MAX bytes,
alltoall and allreduce, every byte checked by the ranks themselves.
mpirun starts the remote ranks through mpi_ns_agent (a namespace instead
of ssh); mpi_ns_wrap gives each rank its namespace's device
(UCX_NET_DEVICES); UCX_TLS=rc_verbs,ud_verbs and no other PML or BTL, so
the data can only go over mrc, and the devices' counters must show it
did.

Hosts: two namespaces (the default, CI's form), or with MRC_MPI_FABRIC=1
every host of the multi-plane fabric (scripts/mrc-fabric up: 8 hosts, 2
planes), whose devices must also show that both planes carried the data.
MRC_MPI_MAX_BYTES: default 16 MiB; the issue's long form is 64 MiB (give
the VM memory: each rank holds four buffers of MAX bytes).
MRC_MPI_FAMILY=4 or 6: the QPs' GIDs of that address family
(UCX_IB_GID_INDEX; every host must have it at the same index), where
UCX otherwise picks its own (RoCE v2, IPv4 first); UCX 1.13 aborts on
the fabric's IPv6 GIDs (Documentation/clients.rst). mpi.sh is its entry
point.
"""

import os

from mrclab import Fabric, Fail, Ktap, TwoHosts, lab, mrcctl, skip_all

MAX_BYTES = int(os.environ.get("MRC_MPI_MAX_BYTES") or 16 << 20)
FABRIC = os.environ.get("MRC_MPI_FABRIC") == "1"
LIMIT = int(os.environ.get("MRC_MPI_SECONDS") or 600)
FAMILY = os.environ.get("MRC_MPI_FAMILY") or ""


def gid_index_of_family(hosts):
    """The GID index of every host's address of FAMILY, which UCX takes
    as one number for all ranks; Fail if the hosts disagree."""
    addrs = {h: h.addr4 if FAMILY == "4" else h.addr6 for h in hosts}
    if not all(addrs.values()):
        raise Fail(f"not every host has an IPv{FAMILY} address")
    idx = {h.dev: h.gid_index(a, timeout=20) for h, a in addrs.items()}
    if len(set(idx.values())) != 1:
        raise Fail(f"IPv{FAMILY} GIDs at different indices: {idx}")
    return idx[hosts[0].dev]


def mpi_checked(ktap, hosts, oob_net):
    """mpi-check with one rank on each of HOSTS; OOB_NET is the IPv4
    network (a.b.c.d/len) mpirun's own TCP runs over."""
    before = {h.dev: h.counters() for h in hosts}
    env = {
        "OMPI_ALLOW_RUN_AS_ROOT": 1, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": 1,
        "MRC_MPI_HOSTS": " ".join(f"{h.addr4}={h.ns}" for h in hosts),
        "MRC_MPI_DEVICES": " ".join(f"{h.ns}={h.dev}" for h in hosts),
    }
    ucx_env = ["-x", "UCX_TLS=rc_verbs,ud_verbs"]
    if FAMILY:
        gid = gid_index_of_family(hosts)
        ktap.info(f"IPv{FAMILY} GIDs: index {gid} on every host")
        ucx_env += ["-x", f"UCX_IB_GID_INDEX={gid}"]
    argv = ["mpirun", "-np", str(len(hosts)),
            "--host", ",".join(h.addr4 for h in hosts),
            "--mca", "plm_rsh_agent", lab.selftest_file("mpi_ns_agent"),
            "--mca", "pml", "ucx", "--mca", "btl", "self",
            "--mca", "oob_tcp_if_include", oob_net,
            *ucx_env, "-x", "MRC_MPI_DEVICES",
            "-x", "PATH",
            lab.selftest_file("mpi_ns_wrap"), lab.selftest_file("mpi-check"),
            "-m", str(MAX_BYTES), "-i", "2"]
    res = hosts[0].run(argv, env=env, timeout=LIMIT, check=False)
    ktap.info("\n".join(l[2:] if l.startswith("# ") else l
                        for l in res.output.strip().splitlines()))
    if not res.ok or "every byte checked" not in res.stdout:
        raise Fail(f"mpirun mpi-check {res.status_text()}")
    # Every rank received at least the largest exchange over its device.
    for h in hosts:
        rx = h.counters()["rx_bytes"] - before[h.dev]["rx_bytes"]
        ktap.info(f"{h.dev}: {rx} bytes received")
        if rx < MAX_BYTES:
            raise Fail(f"{h.dev} received {rx} bytes, less than one "
                       f"{MAX_BYTES}-byte exchange: MPI did not use mrc")


def planes_carried(ktap, hosts, before):
    """Each device sent on every one of its planes (its bond's slaves)."""
    idle = []
    for h in hosts:
        sent = {p.index: p.tx - before[h.dev].get(p.index, 0)
                for p in mrcctl.planes(h.dev, ns=h.ns)}
        ktap.info(f"{h.dev}: packets sent per plane {sent}")
        idle += [f"{h.dev} plane {i}" for i, n in sent.items() if n == 0]
    if idle:
        raise Fail("no packet on " + ", ".join(idle))


def run_on_fabric(ktap):
    fab = Fabric()
    try:
        try:
            fab.up()
            hosts = fab.hosts()
            for h in hosts:
                h.gid = h.gid_index(h.addr4, timeout=20)
        except Exception as e:  # pylint: disable=broad-except
            print("\n".join("# " + l for l in
                            getattr(e, "details", str(e)).splitlines()))
            skip_all(f"cannot build the fabric: {e}")
        ktap.begin(2)
        lab.select_preset(*(h.dev for h in hosts))
        before = {h.dev: {p.index: p.tx
                          for p in mrcctl.planes(h.dev, ns=h.ns)}
                  for h in hosts}
        first = hosts[0].addr4.split(".")
        ktap.case(f"mpi_ucx_{len(hosts)}_hosts_checked", mpi_checked, ktap,
                  hosts, ".".join(first[:2]) + ".0.0/16")
        ktap.case("mpi_data_on_every_plane", planes_carried, ktap, hosts,
                  before)
        ktap.finish()
    finally:
        fab.down()


def main():
    if FAMILY not in ("", "4", "6"):
        skip_all(f"MRC_MPI_FAMILY is 4 or 6, not {FAMILY!r}")
    lab.exit_on_sigterm()
    lab.require_root_tools()
    lab.require_loaded()
    if not lab.have("mpirun"):
        skip_all("needs mpirun (openmpi-bin)")
    if not os.path.exists(lab.selftest_file("mpi-check")):
        skip_all("no mpi-check: built only where mpicc is (libopenmpi-dev)")
    if FABRIC:
        run_on_fabric(Ktap())
        return
    with TwoHosts() as two:
        two.up_or_skip()
        ktap = Ktap()
        ktap.begin(1)
        ktap.case("mpi_ucx_p2p_alltoall_allreduce_checked", mpi_checked,
                  ktap, list(two.hosts), f"{two.a.addr4}/24")
        ktap.finish()


if __name__ == "__main__":
    main()
