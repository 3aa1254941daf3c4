#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""MRC packets for the transport selftest, written from
Documentation/wire-format.rst (not from the kernel's encoder).

  mrc_packet.py send KIND DST PORT      send the packets of KIND over UDP;
                                        prints "COUNT BYTES" (UDP payload bytes)
  mrc_packet.py send all DST PORT       every KIND; prints "KIND COUNT BYTES"
  mrc_packet.py aim KIND DST PORT QPN_A QPN_B RKEY VA EPSN
                                        send the hostile packets of KIND at
                                        live QP QPN_B (peer QPN_A, MR RKEY at
                                        VA, next PSN EPSN); prints "COUNT
                                        BYTES"
  mrc_packet.py hex KIND                the first packet of KIND, in hex
  mrc_packet.py rawsend CSUM DST PORT COUNT
                                        COUNT valid packets over a raw socket
                                        with UDP checksum CSUM: "zero" or "bad"
  mrc_packet.py sniff IFACE PORT COUNT TIMEOUT
                                        capture COUNT UDP datagrams to PORT on
                                        IFACE; "# ready" once capturing, then
                                        one JSON line each, with the UDP
                                        checksum verified here
"""
import json
import socket
import struct
import sys

VERSION = 1
OP = dict(WRITE=0x01, WRITE_IMM=0x02, SEND=0x03, SEND_IMM=0x04, READ_REQ=0x05,
          READ_RESP=0x06, CMP_SWAP=0x07, FETCH_ADD=0x08, ATOMIC_RESP=0x09,
          SEND_INV=0x0a,
          ACK=0x10, NAK=0x11, PROBE=0x20, PROBE_REPLY=0x21,
          EP_PROBE=0x24, EP_PROBE_REPLY=0x25, EP_PORT_STATUS=0x26,
          EP_PORT_STATUS_REPLY=0x27)
ACK_REQ, SOLICITED, RETRANSMIT, TRIMMED = 0x01, 0x02, 0x04, 0x08
NO_QPN = 0x00abcdef     # no QP has this number in the test


def base(opcode, flags=0, dqpn=NO_QPN, sqpn=0x000011, psn=0x000100,
         ev=0x01020304, ts=0xa1b2c3d4, payload_len=0, byte0=VERSION << 4,
         byte3=0):
    """The 32-byte base header."""
    return struct.pack(">BBBBIIIIIHHI", byte0, opcode, flags, byte3, dqpn,
                       sqpn, psn, ev, ts, payload_len, 0, 0)


def ep_probe(cookie=0x0007002a, ts=0x81828384, plane=0, rsvd=0, svc_ns=0):
    """The EP_PROBE header (16 bytes): for a device, not a QP."""
    return struct.pack(">IIBBHI", cookie, ts, plane, rsvd >> 16,
                       rsvd & 0xffff, svc_ns)


def ep_port_status(cookie=0x0007002b, ts=0x81828385, plane=0, n_ports=2,
                   up_mask=0x1, rsvd=0, svc_ns=0):
    """The EP_PORT_STATUS header: EP_PROBE's, with the sender's port count
    and up mask in bytes 9 and 10."""
    return struct.pack(">IIBBBBI", cookie, ts, plane, n_ports, up_mask, rsvd,
                       svc_ns)


def device(opcode, **kw):
    """A base header for the device: no QPNs, PSN or EV."""
    return base(opcode, dqpn=0, sqpn=0, psn=0, ev=0, **kw)


def msgh(msn=7, offset=0, length=0):
    return struct.pack(">III", msn, offset, length)


def raddr(va=0xffee000012345678, rkey=0x0badf00d, rsvd=0):
    return struct.pack(">QII", va, rkey, rsvd)


def ack(cum_psn=0x100, syndrome=0, rnr_timer=0, flags=0, sacks=(),
        sack_words=None, nak_psn=0):
    words = len(sacks) if sack_words is None else sack_words
    return struct.pack(">IIIIBBBBI", cum_psn, 0x01020304, 0xa1b2c3d4, 3,
                       syndrome, rnr_timer, flags, words, nak_psn) + \
        b"".join(struct.pack(">Q", s) for s in sacks)


def send(payload=b"mrc!" * 4, declared=None, dqpn=NO_QPN, offset=0,
         length=None, flags=ACK_REQ):
    declared = len(payload) if declared is None else declared
    length = declared if length is None else length
    return base(OP["SEND"], flags, dqpn=dqpn, payload_len=declared) + \
        msgh(offset=offset, length=length) + payload


def write(payload=b"w" * 8, offset=0, length=None, declared=None):
    declared = len(payload) if declared is None else declared
    length = declared if length is None else length
    return base(OP["WRITE"], payload_len=declared) + \
        msgh(offset=offset, length=length) + raddr() + payload


def read_req(offset=0, length=4096, payload_len=0):
    return base(OP["READ_REQ"], payload_len=payload_len) + \
        msgh(offset=offset, length=length) + raddr()


def valid_ack(**kw):
    return base(OP["ACK"], **kw) + ack()


def truncated():
    """Every length from 0 to 31 (inside the base header), then a SEND,
    WRITE and ACK cut inside their extension headers."""
    full = send()
    pkts = [full[:n] for n in range(32)]
    pkts.append(full[:43])                  # SEND: 44 header bytes
    pkts.append(write()[:59])               # WRITE: 60
    pkts.append((base(OP["ACK"]) + ack(sacks=(1, 2)))[:71])  # ACK, 2 words: 72
    return pkts


KINDS = {
    "too_short": truncated,
    "bad_version": lambda: [base(OP["ACK"], byte0=b) + ack()
                            for b in (0x00, 0x20, 0xf0)],
    "bad_opcode": lambda: [base(op) + bytes(56) for op in
                           (0x00, 0x0b, 0x12, 0x28, 0xff)],
    "reserved_set": lambda: [
        base(OP["ACK"], byte0=0x11) + ack(),            # byte 0 bits 3..0
        base(OP["ACK"], byte3=1) + ack(),               # byte 3
        base(OP["ACK"], dqpn=0x01000001) + ack(),       # QPN bits 31..24
        base(OP["SEND"], flags=0x10, payload_len=4) +   # flags bits 7..4
        msgh(length=4) + b"abcd",
        base(OP["READ_REQ"]) + msgh(length=8) + raddr(rsvd=1),  # RADDR word
        base(OP["EP_PROBE"], dqpn=1, sqpn=0, psn=0, ev=0) +     # a QPN
        ep_probe(),
        device(OP["EP_PROBE"]) + ep_probe(svc_ns=1),    # a probe's service
        device(OP["EP_PROBE_REPLY"]) + ep_probe(rsvd=1),        # reserved
        device(OP["EP_PROBE"]) + ep_probe(rsvd=0x020100),       # ports
        device(OP["EP_PORT_STATUS"]) + ep_port_status(rsvd=1),
        device(OP["EP_PORT_STATUS"]) + ep_port_status(svc_ns=1),
    ],
    "bad_planes": lambda: [
        device(OP["EP_PORT_STATUS"]) + ep_port_status(n_ports=0),
        device(OP["EP_PORT_STATUS"]) + ep_port_status(n_ports=9,
                                                      up_mask=0xff),
        device(OP["EP_PORT_STATUS"]) + ep_port_status(up_mask=0),
        device(OP["EP_PORT_STATUS_REPLY"]) + ep_port_status(up_mask=0x4),
        device(OP["EP_PROBE"]) + ep_probe(plane=8),
    ],
    "bad_flags": lambda: [
        base(OP["ACK"], flags=ACK_REQ) + ack(),
        base(OP["READ_REQ"], flags=SOLICITED) + msgh(length=8) + raddr(),
    ],
    "bad_length": lambda: [
        read_req(payload_len=4),                        # no-payload opcode
        send(payload=b"x" * 8, declared=4, length=8),   # more than declared
        send(payload=b"", declared=0, length=16),       # empty, message not
        base(OP["FETCH_ADD"]) + msgh(length=4) + raddr() + bytes(16),
    ],
    "bad_offset": lambda: [
        write(payload=b"z", offset=0xffffffff, length=0x1000),  # overflow
        read_req(offset=0x7fffffff, length=2),          # READ beyond 2 GiB
    ],
    "bad_sack": lambda: [
        base(OP["ACK"]) + ack(sacks=(1, 2, 3, 4, 5)),
        base(OP["NAK"]) + ack(syndrome=1, sack_words=255) + bytes(64),
    ],
    "bad_syndrome": lambda: [
        base(OP["ACK"]) + ack(syndrome=1),
        base(OP["NAK"]) + ack(syndrome=0),
        base(OP["NAK"]) + ack(syndrome=7),
        base(OP["NAK"]) + ack(syndrome=2, rnr_timer=32),
    ],
    # Well-formed, for a QP that does not exist; the last one is trimmed.
    "no_qp": lambda: [
        send(),
        valid_ack(),
        base(OP["ACK"]) + ack(sacks=(0x8000000000000000,)),
        write(payload=b"t" * 10, declared=100, length=100),
    ],
}


def aimed_write(dqpn, sqpn, psn, va, rkey, payload=b"H" * 64):
    """A well-formed single-packet RDMA WRITE."""
    return base(OP["WRITE"], ACK_REQ, dqpn=dqpn, sqpn=sqpn, psn=psn,
                payload_len=len(payload)) + \
        msgh(offset=0, length=len(payload)) + raddr(va=va, rkey=rkey) + payload


def aimed(qpn_a, qpn_b, rkey, va, epsn):
    """Packets at a live QP B whose peer is QP A (the sender's address is
    A's): each dropped for the reason its name says, none may touch B's
    memory or disturb the connection."""
    psn_mask = 0xffffff
    window = 1024
    full = send(dqpn=qpn_b)
    return {
        # Cut inside the base header (at least the QPN there), or inside
        # the extension headers.
        "too_short": [full[:n] for n in range(8, 32)] +
                     [full[:43], aimed_write(qpn_b, qpn_a, epsn, va,
                                             rkey)[:59]],
        "bad_length": [
            send(payload=b"x" * 8, declared=4, length=8, dqpn=qpn_b),
            send(payload=b"", declared=0, length=16, dqpn=qpn_b),
        ],
        # Right peer and key, PSNs beyond the window and far ahead.
        "out_of_window": [aimed_write(qpn_b, qpn_a, (epsn + d) & psn_mask,
                                      va, rkey)
                          for d in (window, window + 1, 0x10000, 0x3fffff)],
        # Right key and PSN, to a QPN nobody has.
        "no_qp": [aimed_write(NO_QPN, qpn_a, epsn, va, rkey)],
        # Right QPN, PSN and key, but not from the connected QP.
        "bad_source_qp": [aimed_write(qpn_b, (qpn_a + 1) & psn_mask, epsn,
                                      va, rkey),
                          aimed_write(qpn_b, NO_QPN, epsn, va, rkey)],
        # Wrong rkeys: from another QP, beyond the window, or replaying a
        # PSN already received (a duplicate is answered, never executed).
        "wrong_rkey_bad_source_qp": [
            aimed_write(qpn_b, NO_QPN, epsn, va, rkey ^ 0x80)],
        "wrong_rkey_out_of_window": [
            aimed_write(qpn_b, qpn_a, (epsn + window + 7) & psn_mask, va,
                        rkey ^ 0x80)],
        "wrong_rkey_duplicate": [
            aimed_write(qpn_b, qpn_a, (epsn - 1) & psn_mask, va,
                        rkey ^ 0x80)],
    }


def cmd_aim(kind, dst, port, qpn_a, qpn_b, rkey, va, epsn):
    pkts = aimed(int(qpn_a), int(qpn_b), int(rkey), int(va), int(epsn))[kind]
    s = socket.socket(family_of(dst), socket.SOCK_DGRAM)
    for p in pkts:
        s.sendto(p, (dst, int(port)))
    print(len(pkts), sum(len(p) for p in pkts))


def family_of(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def cmd_send(kind, dst, port):
    s = socket.socket(family_of(dst), socket.SOCK_DGRAM)
    for k in (KINDS if kind == "all" else [kind]):
        pkts = KINDS[k]()
        for p in pkts:
            s.sendto(p, (dst, int(port)))
        line = "%d %d" % (len(pkts), sum(len(p) for p in pkts))
        print(k + " " + line if kind == "all" else line)


def csum16(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xffff) + (total >> 16)
    return total


def udp_checksum(src, dst, udp, family):
    """The UDP checksum field value for UDP datagram udp (check field 0)."""
    if family == socket.AF_INET:
        pseudo = socket.inet_pton(family, src) + socket.inet_pton(family, dst) \
            + struct.pack("!BBH", 0, socket.IPPROTO_UDP, len(udp))
    else:
        pseudo = socket.inet_pton(family, src) + socket.inet_pton(family, dst) \
            + struct.pack("!IxxxB", len(udp), socket.IPPROTO_UDP)
    c = 0xffff - csum16(pseudo + udp)
    return c or 0xffff


def cmd_rawsend(csum, dst, port, count):
    fam = family_of(dst)
    probe = socket.socket(fam, socket.SOCK_DGRAM)
    probe.connect((dst, int(port)))
    src = probe.getsockname()[0]
    payload = send()
    udp = struct.pack("!HHHH", 40000, int(port), 8 + len(payload), 0) + payload
    good = udp_checksum(src, dst, udp, fam)
    value = 0 if csum == "zero" else (good % 0xffff) + 1   # never the good one
    udp = udp[:6] + struct.pack("!H", value) + udp[8:]
    s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_UDP)
    for _ in range(int(count)):
        s.sendto(udp, (dst, 0))
    print(int(count), len(payload))


def cmd_sniff(iface, port, count, timeout):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
    s.bind((iface, 0))
    s.settimeout(float(timeout))
    print("# ready", flush=True)
    got = 0
    while got < int(count):
        try:
            frame = s.recv(65535)
        except socket.timeout:
            break
        ethertype = struct.unpack("!H", frame[12:14])[0]
        if ethertype == 0x0800:
            fam, ip = socket.AF_INET, frame[14:]
            ihl = (ip[0] & 0x0f) * 4
            tos, frag, ttl, proto = ip[1], struct.unpack("!H", ip[6:8])[0], \
                ip[8], ip[9]
            src, dst = socket.inet_ntop(fam, ip[12:16]), \
                socket.inet_ntop(fam, ip[16:20])
            tot = struct.unpack("!H", ip[2:4])[0]
            udp = ip[ihl:tot]
            df = bool(frag & 0x4000)
        elif ethertype == 0x86dd:
            fam, ip = socket.AF_INET6, frame[14:]
            vtf = struct.unpack("!I", ip[0:4])[0]
            tos, proto, ttl = (vtf >> 20) & 0xff, ip[6], ip[7]
            src, dst = socket.inet_ntop(fam, ip[8:24]), \
                socket.inet_ntop(fam, ip[24:40])
            udp = ip[40:40 + struct.unpack("!H", ip[4:6])[0]]
            df = None
        else:
            continue
        if proto != socket.IPPROTO_UDP or len(udp) < 8:
            continue
        sport, dport, ulen, check = struct.unpack("!HHHH", udp[:8])
        if dport != int(port):
            continue
        zeroed = udp[:6] + b"\0\0" + udp[8:ulen]
        print(json.dumps(dict(
            family=4 if fam == socket.AF_INET else 6, src=src, dst=dst,
            tos=tos, df=df, ttl=ttl, sport=sport, dport=dport, ulen=ulen,
            check=check,
            check_ok=check != 0 and check == udp_checksum(src, dst, zeroed, fam),
            payload=udp[8:ulen].hex())), flush=True)
        got += 1


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "send" and len(argv) == 5:
        cmd_send(*argv[2:])
    elif cmd == "aim" and len(argv) == 10:
        cmd_aim(*argv[2:])
    elif cmd == "hex" and len(argv) == 3:
        print(KINDS[argv[2]]()[0].hex())
    elif cmd == "rawsend" and len(argv) == 6:
        cmd_rawsend(*argv[2:])
    elif cmd == "sniff" and len(argv) == 6:
        cmd_sniff(*argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
