#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Seeded mutations of live MRC packets, for hostile_flood.sh.

  hostile_flood.py IFACE PEER PORT COUNT SEED SENDER

Captures the MRC packets this host sends to PEER on IFACE (the live
traffic), and sends COUNT mutated copies of them to PEER over UDP, so
they come from the address the peer's QPs are connected to. This makes
the packets; SENDER (flood-send, built from flood_send.c) sends them, in
sendmmsg() batches, from a socket this binds and hands over, while this
makes the next ones. The templates are refreshed from the capture every
REFRESH packets, so QPNs and PSNs stay near the live ones (the pipe to
the sender holds at most a few batches). Mutations, one to three per
packet: header bits, opcode, base flags, declared payload length, message
header fields, SACK word count and bitmap, QPNs, version byte, truncation,
trailing junk.

MRC, like RoCE, does not authenticate packets: a forgery that is
well-formed, from the peer, for the right QP and within the receive window
is indistinguishable from the real packet and is executed. So, that the
traffic's bytes may still be checked, whatever the mutations left a
request (data opcode) always carries a PSN the responder has already
received (more than a send window behind the template's: a duplicate,
answered and never executed; not for a READ or atomic, which a duplicate
repeats) or one far beyond its window (or, made from
an ACK, comes from another QP); an ACK or NAK
always carries a cumulative PSN the requester has passed (stale) or one
far ahead (invalid). The NAK(trimmed) PSN, probes and plane states are
left as mutated: each may cost a retransmission, never a byte.

Prints "sent COUNT BYTES SECONDS" (as counted by the sender; then the rate
and the time spent waiting for the sender) and exits 0, or 1 when no live
packet was seen to start from or the sender failed.
"""
import random
import socket
import struct
import subprocess
import sys
import time

DATA_OPS = range(0x01, 0x09)        # WRITE .. ATOMIC_FETCH_ADD
RD_ATOMIC_OPS = (0x05, 0x07, 0x08)  # READ_REQ, CMP_SWAP, FETCH_ADD
RESP_OPS = (0x06, 0x09)             # READ_RESP, ATOMIC_RESP
ACK_OPS = (0x10, 0x11)
OPCODES = list(range(0x01, 0x0b)) + [0x10, 0x11, 0x20, 0x21, 0x22, 0x23,
                                     0x30, 0x31, 0x00, 0x0b, 0x12, 0x7f, 0xff]
PSN_MASK = 0xffffff
SEND_WINDOW = 1024                  # MRC_RX_WINDOW: a requester's most
FAR = 0x600000                      # beyond the window and the dup range
TEMPLATES = 64
REFRESH = 256


def be32(b, off):
    return struct.unpack_from(">I", b, off)[0]


def put32(b, off, v):
    struct.pack_into(">I", b, off, v & 0xffffffff)


class Capture:
    """The MRC payloads of IPv4 UDP frames to PEER:PORT leaving IFACE."""

    def __init__(self, iface, peer, port, own_sport):
        # ETH_P_ALL: a tap of one protocol never sees outgoing frames.
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                               socket.htons(0x0003))
        self.s.bind((iface, 0))
        self.s.setblocking(False)
        self.peer = socket.inet_aton(peer)
        self.port = port
        # Our own flood leaves by the same port: never a template.
        self.own_sport = own_sport
        self.templates = []

    def drain(self):
        while True:
            try:
                frame = self.s.recv(65535)
            except BlockingIOError:
                return
            ip = frame[14:]
            if frame[12:14] != b"\x08\x00" or len(ip) < 28 or \
                    ip[9] != socket.IPPROTO_UDP or \
                    ip[16:20] != self.peer:
                continue
            ihl = (ip[0] & 0x0f) * 4
            udp = ip[ihl:]
            if len(udp) < 8 + 32:
                continue
            sport, dport = struct.unpack_from(">HH", udp, 0)
            if dport != self.port or sport == self.own_sport:
                continue
            ulen = struct.unpack_from(">H", udp, 4)[0]
            self.templates.append(bytes(udp[8:ulen]))
            del self.templates[:-TEMPLATES]


def mutate(rng, tmpl):
    p = bytearray(tmpl)
    for _ in range(rng.randint(1, 3)):
        what = rng.randrange(11)
        if what == 0:                           # header bits
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(min(len(p), 96)) if p else 0
                if p:
                    p[i] ^= 1 << rng.getrandbits(3)
        elif what == 1 and len(p) > 1:          # opcode
            p[1] = rng.choice(OPCODES)
        elif what == 2 and len(p) > 2:          # base flags
            p[2] = rng.getrandbits(8)
        elif what == 3 and len(p) >= 26:        # declared payload length
            struct.pack_into(">H", p, 24, rng.choice(
                (0, 1, len(p), 4096, 4097, 0xffff, rng.getrandbits(16))))
        elif what == 4 and len(p) >= 44:        # MSN, offset, length
            put32(p, 32 + 4 * rng.randrange(3), rng.choice(
                (0, 0xffffffff, 0x80000000, 0x80000001,
                 rng.getrandbits(32))))
        elif what == 5 and len(p) >= 56 and p[1] in ACK_OPS:  # SACK
            words = rng.choice((0, 1, 2, 3, 4, 5, 255))
            p[32 + 19] = words
            del p[56:]
            p += rng.randbytes(8 * min(words, rng.choice((words, 4, 5))))
        elif what == 6 and len(p) >= 12:        # destination or source QPN
            put32(p, rng.choice((4, 8)), rng.choice(
                (be32(p, 4) ^ 1, be32(p, 8) ^ 1, rng.getrandbits(24),
                 rng.getrandbits(32))))
        elif what == 7 and p:                   # version and reserved bits
            p[0] = rng.getrandbits(8)
        elif what == 8:                         # truncation
            del p[rng.randrange(len(p) + 1):]
        elif what == 9:                         # trailing junk
            p += rng.randbytes(rng.randrange(65))
        elif what == 10 and len(p) >= 20:       # PSN near the live one
            put32(p, 12, (be32(p, 12) + rng.randint(-2048, 2048)) & PSN_MASK)
    guard(rng, p, tmpl)
    return bytes(p)


def guard(rng, p, tmpl):
    """Keeps what could be executed out of the receive window (see above)."""
    if len(p) < 16 or len(tmpl) < 16:
        return
    psn = be32(tmpl, 12) & PSN_MASK
    if (p[1] in DATA_OPS or p[1] in (0x30, 0x31)) and \
            tmpl[1] not in DATA_OPS:
        # The template's PSN is of the other direction's sequence: no
        # guide to this responder's window. From another QP instead.
        put32(p, 8, be32(p, 8) ^ 0x800000)
    elif p[1] in DATA_OPS or p[1] in (0x30, 0x31):
        # A duplicate READ or atomic is answered again, with what it
        # carries: those go beyond the window only.
        if rng.getrandbits(1) and p[1] not in RD_ATOMIC_OPS:
            psn = psn - SEND_WINDOW - 1 - rng.getrandbits(20)
        else:
            psn = psn + FAR + rng.getrandbits(20)
        put32(p, 12, (be32(p, 12) & ~PSN_MASK) | (psn & PSN_MASK))
    if p[1] in RESP_OPS and len(p) >= 36:
        put32(p, 32, be32(p, 32) ^ 0x40000000)  # an MSN nobody waits for
    if p[1] in ACK_OPS and len(p) >= 36 and len(tmpl) >= 36:
        cum = be32(tmpl, 32) & PSN_MASK if tmpl[1] in ACK_OPS else psn
        if rng.getrandbits(1):
            cum = cum - SEND_WINDOW - 1 - rng.getrandbits(20)
        else:
            cum = cum + FAR + rng.getrandbits(20)
        put32(p, 32, (be32(p, 32) & ~PSN_MASK) | (cum & PSN_MASK))


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__)
    iface, peer, port, count, seed, sender = argv[1], argv[2], \
        int(argv[3]), int(argv[4]), int(argv[5]), argv[6]
    rng = random.Random(seed)
    out = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    out.bind(("0.0.0.0", 0))
    cap = Capture(iface, peer, port, out.getsockname()[1])
    deadline = time.monotonic() + 60
    while not cap.templates and time.monotonic() < deadline:
        time.sleep(0.05)
        cap.drain()
    if not cap.templates:
        print("no live MRC packet to %s seen on %s" % (peer, iface))
        return 1
    fd = out.fileno()
    send = subprocess.Popen([sender, str(fd), peer, str(port)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            pass_fds=(fd,))
    start = time.monotonic()
    made = 0
    waited = 0.0        # blocked on a full pipe: the sender is the limit
    try:
        while made < count:
            cap.drain()
            batch = []
            for _ in range(min(REFRESH, count - made)):
                pkt = mutate(rng, rng.choice(cap.templates))
                if len(pkt) > 0xffff:   # the record's length is 16 bits
                    raise ValueError("a %d-byte packet" % len(pkt))
                batch.append(struct.pack(">H", len(pkt)) + pkt)
            before = time.monotonic()
            send.stdin.write(b"".join(batch))
            waited += time.monotonic() - before
            made += len(batch)
        send.stdin.close()
    except BrokenPipeError:
        pass
    result = send.stdout.read().split()
    if send.wait() != 0 or len(result) != 2:
        print("the sender failed (exit %d) after %d packets made" %
              (send.returncode, made))
        return 1
    took = time.monotonic() - start
    print("sent %d %d %.1f (%.0f/s, %.1f s of it waiting for the sender)"
          % (int(result[0]), int(result[1]), took, int(result[0]) / took,
             waited))
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
