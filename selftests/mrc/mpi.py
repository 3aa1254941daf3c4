#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Open MPI with the UCX PML over mrc, between two hosts (network
namespaces): mpi-check (mpi_check.c) runs one rank in each, point to
point exchanges of 1 KiB up to MAX bytes, alltoall and allreduce, every
byte checked by the ranks themselves. mpirun starts the remote rank
through mpi_ns_agent (a namespace instead of ssh); mpi_ns_wrap gives
each rank its namespace's device (UCX_NET_DEVICES); UCX_TLS=rc_verbs,
ud_verbs and no other PML or BTL, so the data can only go over mrc, and
the devices' counters must show it did. MRC_MPI_MAX_BYTES (default 16
MiB; the issue's long form: 64 MiB). mpi.sh is its entry point.
"""

import os

from mrclab import Fail, Ktap, TwoHosts, lab, skip_all

MAX_BYTES = int(os.environ.get("MRC_MPI_MAX_BYTES") or 16 << 20)
LIMIT = 600


def mpi_checked(ktap, two):
    a, b = two.a, two.b
    before = {h.dev: h.counters() for h in two.hosts}
    env = {
        "OMPI_ALLOW_RUN_AS_ROOT": 1, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": 1,
        "MRC_MPI_HOSTS": f"{a.addr}={a.ns} {b.addr}={b.ns}",
        "MRC_MPI_DEVICES": f"{a.ns}={a.dev} {b.ns}={b.dev}",
    }
    argv = ["mpirun", "-np", "2", "--host", f"{a.addr},{b.addr}",
            "--mca", "plm_rsh_agent", lab.selftest_file("mpi_ns_agent"),
            "--mca", "pml", "ucx", "--mca", "btl", "self",
            "--mca", "oob_tcp_if_include", f"{a.addr}/24",
            "-x", "UCX_TLS=rc_verbs,ud_verbs", "-x", "MRC_MPI_DEVICES",
            "-x", "PATH",
            lab.selftest_file("mpi_ns_wrap"), lab.selftest_file("mpi-check"),
            "-m", str(MAX_BYTES), "-i", "2"]
    res = a.run(argv, env=env, timeout=LIMIT, check=False)
    ktap.info("\n".join(l[2:] if l.startswith("# ") else l
                        for l in res.output.strip().splitlines()))
    if not res.ok or "every byte checked" not in res.stdout:
        raise Fail(f"mpirun mpi-check {res.status_text()}")
    # Both ways at least the largest exchange went over the devices.
    for h in two.hosts:
        rx = h.counters()["rx_bytes"] - before[h.dev]["rx_bytes"]
        ktap.info(f"{h.dev}: {rx} bytes received")
        if rx < MAX_BYTES:
            raise Fail(f"{h.dev} received {rx} bytes, less than one "
                       f"{MAX_BYTES}-byte exchange: MPI did not use mrc")


def main():
    lab.exit_on_sigterm()
    lab.require_root_tools()
    lab.require_loaded()
    if not lab.have("mpirun"):
        skip_all("needs mpirun (openmpi-bin)")
    if not os.path.exists(lab.selftest_file("mpi-check")):
        skip_all("no mpi-check: built only where mpicc is (libopenmpi-dev)")
    with TwoHosts() as two:
        two.up_or_skip()
        ktap = Ktap()
        ktap.begin(1)
        ktap.case("mpi_ucx_p2p_alltoall_allreduce_checked", mpi_checked,
                  ktap, two)
        ktap.finish()


if __name__ == "__main__":
    main()
