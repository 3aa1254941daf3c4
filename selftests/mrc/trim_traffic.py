#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Traffic for the trimming switch selftest (trim.sh).

  trim_traffic.py phases WORKDIR MRC_TRIM SWITCH_NS DEV SENDER_NS RECEIVER_NS
                  PORT COUNT SIZE PHASE...
        Runs every PHASE (NAME,FAMILY,DST,DSCP,ECN[,FINAL][,SIZE]) in this
        one process: a receiving socket in RECEIVER_NS, a sending one in
        SENDER_NS (setns), COUNT packets of SIZE bytes (the phase's own
        SIZE if given) sent, everything received until
        idle, and the counters of the switch port DEV (read with MRC_TRIM)
        before and after. Leaves WORKDIR/NAME.rx (summarise()), NAME.sent
        and NAME.stats (the counters' increase), "key value" lines. One
        process for all: under a loaded emulator each python start costs
        seconds. FINAL (IPv6): DST is an SRv6 uSID container whose final
        destination is FINAL; the packets go out over a raw socket with
        their UDP checksum computed against FINAL, as the mrc device
        sends them (Documentation/fabric.rst).
  trim_traffic.py recv FAMILY PORT IDLE OUT
        UDP receiver on PORT (FAMILY 4 or 6); writes "ready" to OUT.ready.
        Once OUT.done exists (the sender finished) and nothing arrived for
        IDLE seconds, writes a summary to OUT as "key value" lines (see
        summarise()). No fixed wait for the first datagram: under a loaded
        emulator the sender may take long to start.
  trim_traffic.py send FAMILY DST PORT COUNT SIZE DSCP ECN
        COUNT MRC-looking WRITE packets of SIZE UDP payload bytes, as fast as
        a loop can, with the given DSCP and ECN bits; prints "sent N".
  trim_traffic.py badsum DST PORT
        one IPv4 UDP datagram with a wrong checksum, over a raw socket.

Packets start with an MRC base header (Documentation/wire-format.rst):
version 1, opcode WRITE, PSN = sequence number, payload_len = SIZE - 60
(what follows WRITE's 60 header bytes; 0 when SIZE is at most 60).
"""
import ctypes
import importlib.machinery
import importlib.util
import os
import socket
import struct
import sys
import time

MRC_VERSION = 1
OP_WRITE = 0x01
TRIMMED = 0x08
KEEP = 68                       # MRC_MAX_DATA_HDR_LEN, what a trim keeps
WRITE_HDR = 60                  # WRITE's header bytes: then its payload
ETH_HLEN = 14
UDP_HLEN = 8
SO_RCVBUFFORCE = 33
SO_TIMESTAMPNS = 35             # cmsg SCM_TIMESTAMPNS: struct timespec
MAX_WAIT = 600                  # s, in case the test dies


def mrc_packet(seq, size):
    hdr = struct.pack(">BBBBIIIIIHHI", MRC_VERSION << 4, OP_WRITE, 0, 0,
                      1, 2, seq & 0xffffff, 0, 0, max(size - WRITE_HDR, 0),
                      0, 0)
    return hdr + bytes(size - len(hdr))


def sender_socket(family, dscp, ecn):
    fam = socket.AF_INET if family == 4 else socket.AF_INET6
    s = socket.socket(fam, socket.SOCK_DGRAM)
    tos = (dscp << 2) | ecn
    if family == 4:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    else:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, tos)
    return s


def blast(s, dst, port, count, size):
    """Sends as fast as the loop goes; returns how many left."""
    packets = [mrc_packet(i, size) for i in range(count)]
    sent = 0
    for pkt in packets:
        try:
            s.sendto(pkt, (dst, port))
            sent += 1
        except OSError:
            pass
    return sent


def inet_checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return ~total & 0xffff


class UsidSender:
    """UDP to an SRv6 uSID container over a raw IPv6 socket, the checksum
    against the final destination (a UDP socket would use the
    container's, and the receiver would drop every packet)."""

    def __init__(self, container, final, dscp, ecn):
        probe = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        probe.connect((container, 9))
        self.src = socket.inet_pton(socket.AF_INET6, probe.getsockname()[0])
        probe.close()
        self.final = socket.inet_pton(socket.AF_INET6, final)
        self.raw = socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                                 socket.IPPROTO_UDP)
        self.raw.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS,
                            (dscp << 2) | ecn)

    def sendto(self, payload, address):
        dst, port = address
        length = UDP_HLEN + len(payload)
        udp = struct.pack(">HHHH", 40000, port, length, 0) + payload
        pseudo = self.src + self.final + struct.pack(">I3xB", length,
                                                     socket.IPPROTO_UDP)
        csum = inet_checksum(pseudo + udp) or 0xffff
        self.raw.sendto(udp[:6] + struct.pack(">H", csum) + udp[8:],
                        (dst, 0))

    def close(self):
        self.raw.close()


def send(family, dst, port, count, size, dscp, ecn):
    print("sent", blast(sender_socket(family, dscp, ecn), dst, port, count,
                        size))


def badsum(dst, port):
    payload = mrc_packet(0, 200)
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
    # Any checksum but the right one: 0x1234 is almost surely wrong, and
    # the receiver's counter says whether it was rejected.
    udp = struct.pack(">HHHH", 40000, port, UDP_HLEN + len(payload), 0x1234)
    s.sendto(udp + payload, (dst, 0))


def receiver_socket(family, port):
    fam = socket.AF_INET if family == 4 else socket.AF_INET6
    r = socket.socket(fam, socket.SOCK_DGRAM)
    # Room for a whole burst: the phases send first and read afterwards.
    r.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)
    if family == 4:
        r.setsockopt(socket.IPPROTO_IP, socket.IP_RECVTOS, 1)
    else:
        r.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVTCLASS, 1)
    # Arrival times from the kernel, not from when this loop gets to them.
    r.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    r.bind(("0.0.0.0" if family == 4 else "::", port))
    return r


def receive(r, idle, done):
    """Datagrams until done() and nothing came for IDLE seconds."""
    r.settimeout(0.25)
    records = []
    last = start = time.monotonic()
    while True:
        try:
            data, anc, _, _ = r.recvmsg(65536, 256)
        except socket.timeout:
            now = time.monotonic()
            if now - start > MAX_WAIT or (done() and now - last >= idle):
                break
            continue
        last = time.monotonic()
        tclass = None
        when = time.time()
        for level, kind, value in anc:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack("qq", value[:16])
                when = sec + nsec / 1e9
            if level == socket.IPPROTO_IP and kind == socket.IP_TOS:
                tclass = value[0]
            elif level == socket.IPPROTO_IPV6 and kind == socket.IPV6_TCLASS:
                tclass = struct.unpack("i", value[:4])[0]
        records.append((when, data, tclass))
    return records


def write_keys(path, values):
    with open(path, "w") as f:
        for key, value in values.items():
            f.write("%s %s\n" % (key, value))


def recv(family, port, idle, out):
    r = receiver_socket(family, port)
    with open(out + ".ready", "w") as f:
        f.write("ready\n")
    records = receive(r, idle, lambda: os.path.exists(out + ".done"))
    write_keys(out, summarise(family, records))


CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def enter_netns(name):
    fd = os.open("/var/run/netns/" + name, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), "setns " + name)
    finally:
        os.close(fd)


def load_mrc_trim(path):
    sys.dont_write_bytecode = True      # no __pycache__ in the tree
    loader = importlib.machinery.SourceFileLoader("mrc_trim", path)
    spec = importlib.util.spec_from_loader("mrc_trim", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def phases(workdir, trim_tool, switch_ns, dev, sender_ns, receiver_ns, port,
           count, size, specs):
    trim = load_mrc_trim(trim_tool)
    for spec in specs:
        name, family, dst, dscp, ecn, *rest = spec.split(",")
        family, dscp, ecn = int(family), int(dscp), int(ecn)
        final = rest[0] if rest else ""
        psize = int(rest[1]) if len(rest) > 1 else size
        before = trim.port_stats(dev, switch_ns)
        enter_netns(receiver_ns)
        r = receiver_socket(family, port)
        enter_netns(sender_ns)
        if final:
            s = UsidSender(dst, final, dscp, ecn)
        else:
            s = sender_socket(family, dscp, ecn)
        sent = blast(s, dst, port, count, psize)
        records = receive(r, 1.5, lambda: True)
        r.close()
        s.close()
        after = trim.port_stats(dev, switch_ns)
        write_keys(os.path.join(workdir, name + ".rx"),
                   summarise(family, records))
        write_keys(os.path.join(workdir, name + ".stats"),
                   {k: after[k] - before[k] for k in after})
        with open(os.path.join(workdir, name + ".sent"), "w") as f:
            f.write("%d\n" % sent)


def summarise(family, records):
    """Counts by kind; the rate is that of full-size arrivals on the wire."""
    ip_hlen = 20 if family == 4 else 40
    sizes = {}
    for _, data, _ in records:
        sizes[len(data)] = sizes.get(len(data), 0) + 1
    full_size = max(sizes) if sizes else 0
    s = dict(arrived=len(records), full=0, trimmed=0, bad_len=0,
             full_dscp=-1, full_dscp_mixed=0, trimmed_dscp=-1,
             trimmed_dscp_mixed=0, trimmed_flag_missing=0,
             full_flag_set=0, ce=0, duplicates=0, full_size=full_size,
             rate_bytes_per_s=0, trimmed_after_last_full=0)
    seen = set()
    full_times = []
    for t, data, tclass in records:
        seq = struct.unpack(">I", data[12:16])[0] if len(data) >= 16 else -1
        if seq in seen:
            s["duplicates"] += 1
        seen.add(seq)
        dscp = tclass >> 2 if tclass is not None else -2
        if tclass is not None and tclass & 3 == 3:
            s["ce"] += 1
        flag = len(data) > 2 and data[2] & TRIMMED
        # Packets no longer than a trimmed one keep their bytes when
        # trimmed: the flag tells them apart.
        if full_size <= KEEP and len(data) == full_size:
            kind = "trimmed" if flag else "full"
            if kind == "full":
                full_times.append(t)
        elif len(data) == KEEP and full_size > KEEP:
            kind = "trimmed"
            if not flag:
                s["trimmed_flag_missing"] += 1
        elif len(data) == full_size:
            kind = "full"
            full_times.append(t)
            if flag:
                s["full_flag_set"] += 1
        else:
            s["bad_len"] += 1
            continue
        s[kind] += 1
        if s[kind + "_dscp"] == -1:
            s[kind + "_dscp"] = dscp
        elif s[kind + "_dscp"] != dscp:
            s[kind + "_dscp_mixed"] += 1
    # Trimmed packets skip the paced queue: none should arrive after the
    # queue of full packets ahead of them has drained.
    if full_times:
        s["trimmed_after_last_full"] = sum(
            1 for t, data, _ in records
            if len(data) == KEEP and full_size > KEEP and t > full_times[-1])
    if len(full_times) > 10:
        wire = ETH_HLEN + ip_hlen + UDP_HLEN + full_size
        span = full_times[-1] - full_times[0]
        if span > 0:
            s["rate_bytes_per_s"] = int((len(full_times) - 1) * wire / span)
    return s


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "phases":
        phases(args[0], args[1], args[2], args[3], args[4], args[5],
               int(args[6]), int(args[7]), int(args[8]), args[9:])
    elif cmd == "recv":
        recv(int(args[0]), int(args[1]), float(args[2]), args[3])
    elif cmd == "send":
        send(int(args[0]), args[1], int(args[2]), int(args[3]), int(args[4]),
             int(args[5]), int(args[6]))
    elif cmd == "badsum":
        badsum(args[0], int(args[1]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
