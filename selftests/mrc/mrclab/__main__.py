# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The lab library's lookups for shell scripts, so a shell entry point
uses the one implementation the Python tests use:

    python3 -m mrclab gid-index IBDEV ADDR [--timeout S] [--any-type]
        the GID index of ADDR (IPv4, IPv6 or a GID) on IBDEV (RoCE v2
        unless --any-type), waiting up to S seconds for ib_core to add it;
        exit 1 with a reason on stderr when there is none
    python3 -m mrclab counters IBDEV [NAME...]
        IBDEV's counters as "name value" lines (NAMEs only, in that order,
        when given), through the RDMA netlink interface
    python3 -m mrclab planes [--plane N] IBDEV [FIELD...]
        IBDEV's planes through mrcctl (the controller's PLANE_GET), one
        line per plane (plane N only, when given; nothing if it has no
        plane N) of the FIELDs named, in that order: index, netdev ("-"
        for an empty slot), state (up or down), tx, via_master; all five
        when none is named

lib.sh wraps them as mrc_gid_index, mrc_counters and mrc_planes; scripts/
outside
the selftests set PYTHONPATH to selftests/mrc.
"""

import argparse
import sys

from . import mrcctl, rdma
from .cmd import CmdError


def _gid_index(args):
    gid_type = None if args.any_type else rdma.ROCE_V2
    try:
        print(rdma.gid_index(args.dev, args.addr, gid_type=gid_type,
                             timeout=args.timeout, port=args.port))
    except (rdma.GidNotFound, ValueError) as e:
        print(f"mrclab gid-index: {e}", file=sys.stderr)
        return 1
    return 0


def _counters(args):
    try:
        have = rdma.counters(args.dev, port=args.port)
    except Exception as e:  # the command's failure, or output not parsed
        print(f"mrclab counters: {args.dev}: {e}", file=sys.stderr)
        return 1
    names = args.names or sorted(have)
    missing = [n for n in names if n not in have]
    for name in names:
        if name in have:
            print(name, have[name])
    if missing:
        print(f"mrclab counters: {args.dev} has no {' '.join(missing)}",
              file=sys.stderr)
        return 1
    return 0


PLANE_FIELDS = {
    "index": lambda p: p.index,
    "netdev": lambda p: p.netdev or "-",
    "state": lambda p: p.state,
    "tx": lambda p: p.tx,
    "via_master": lambda p: p.via_master,
}


def _planes(args):
    bad = [f for f in args.fields if f not in PLANE_FIELDS]
    if bad:
        print(f"mrclab planes: no field {' '.join(bad)} (fields: "
              f"{' '.join(PLANE_FIELDS)})", file=sys.stderr)
        return 2
    try:
        planes = mrcctl.planes(args.dev)
    except CmdError as e:
        why = e.result.stderr.strip()
        print(f"mrclab planes: {args.dev}: {e}{': ' + why if why else ''}",
              file=sys.stderr)
        return 1
    except (FileNotFoundError, ValueError) as e:
        print(f"mrclab planes: {args.dev}: {e}", file=sys.stderr)
        return 1
    fields = args.fields or list(PLANE_FIELDS)
    for plane in planes:
        if args.plane is None or plane.index == args.plane:
            print(" ".join(str(PLANE_FIELDS[f](plane)) for f in fields))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m mrclab")
    sub = p.add_subparsers(dest="what", required=True)
    g = sub.add_parser("gid-index", help="a GID's index in the table")
    g.add_argument("dev")
    g.add_argument("addr")
    g.add_argument("--timeout", type=float, default=0)
    g.add_argument("--any-type", action="store_true")
    g.add_argument("--port", type=int, default=1)
    g.set_defaults(func=_gid_index)
    c = sub.add_parser("counters", help="a device's counters by name")
    c.add_argument("dev")
    c.add_argument("names", nargs="*")
    c.add_argument("--port", type=int, default=1)
    c.set_defaults(func=_counters)
    pl = sub.add_parser("planes", help="a device's planes by field")
    pl.add_argument("dev")
    pl.add_argument("fields", nargs="*")
    pl.add_argument("--plane", type=int)
    pl.set_defaults(func=_planes)
    args = p.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
