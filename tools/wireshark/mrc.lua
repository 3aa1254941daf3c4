-- SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
--
-- Wireshark/tshark dissector for soft-MRC, the Multipath Reliable
-- Connection transport over UDP. Written from Documentation/wire-format.rst;
-- Documentation/wireshark.rst says how to install and use it.
--
-- MRC's default UDP port is RoCEv2's, 4791, which Wireshark gives to its
-- InfiniBand dissector. This dissector takes the port over and hands every
-- datagram that is not an MRC version-1 header back to the InfiniBand
-- dissector, so that rxe and mrc traffic decode side by side in one
-- capture. On other ports it is a heuristic dissector of UDP.

-- Loaded twice (installed and given with -X lua_script), the first copy
-- wins: a second Proto("mrc") would be an error. A second copy that is not
-- the same file says so, since it is not the one decoding.
local function file_text(path)
	local f = path and io.open(path, "rb")
	if not f then
		return nil
	end
	local text = f:read("*a")
	f:close()
	return text
end

local this_file = debug.getinfo(1, "S").source:match("^@(.*)")
if _G.mrc_dissector_loaded then
	if file_text(this_file) ~= file_text(_G.mrc_dissector_loaded) then
		io.stderr:write("mrc.lua: " .. tostring(this_file) ..
			" not loaded: a different " .. _G.mrc_dissector_loaded ..
			" was loaded first\n")
	end
	return
end
_G.mrc_dissector_loaded = this_file or "?"

local mrc = Proto("mrc", "Multipath Reliable Connection (soft-MRC)")

local WIRE_VERSION = 1
local BASE_LEN = 32
local UD_MAX_PAYLOAD = 4096
local MAX_MSG_LEN = 0x80000000
local MAX_PLANES = 8
local SACK_MAX_WORDS = 4
local PSN_MASK = 0xffffff

-- Extension header parts, in wire order.
local MSGH, RADDR, IMM, IETH, ATOM, ORIG, ACK, PROBE, PLANES, DETH,
	EPROBE = "MSGH", "RADDR", "IMM", "IETH", "ATOM", "ORIG", "ACK",
	"PROBE", "PLANES", "DETH", "EPROBE"
local part_len = { MSGH = 12, RADDR = 16, IMM = 8, IETH = 8, ATOM = 16,
	ORIG = 8, ACK = 24, PROBE = 16, PLANES = 8, DETH = 8, EPROBE = 16 }

local F_ACK_REQ, F_SOLICITED, F_RETRANSMIT, F_TRIMMED = 0x01, 0x02, 0x04, 0x08
local F_DATA = F_ACK_REQ + F_RETRANSMIT + F_TRIMMED
local F_REQ = F_ACK_REQ + F_RETRANSMIT
local F_UD = F_SOLICITED + F_TRIMMED

-- The opcode table of wire-format.rst: name, extension parts, payload,
-- allowed flags, kind (what MSGH's rules apply).
local opcodes = {
	[0x01] = { "WRITE", { MSGH, RADDR }, true, F_DATA, "data" },
	[0x02] = { "WRITE_IMM", { MSGH, RADDR, IMM }, true,
		F_DATA + F_SOLICITED, "data" },
	[0x03] = { "SEND", { MSGH }, true, F_DATA + F_SOLICITED, "data" },
	[0x04] = { "SEND_IMM", { MSGH, IMM }, true, F_DATA + F_SOLICITED,
		"data" },
	[0x05] = { "READ_REQ", { MSGH, RADDR }, false, F_REQ, "read" },
	[0x06] = { "READ_RESP", { MSGH }, true, F_DATA, "data" },
	[0x07] = { "ATOMIC_CMP_SWAP", { MSGH, RADDR, ATOM }, false, F_REQ,
		"atomic" },
	[0x08] = { "ATOMIC_FETCH_ADD", { MSGH, RADDR, ATOM }, false, F_REQ,
		"atomic" },
	[0x09] = { "ATOMIC_RESP", { MSGH, ORIG }, false, F_REQ, "atomic" },
	[0x0a] = { "SEND_INV", { MSGH, IETH }, true, F_DATA + F_SOLICITED,
		"data" },
	[0x10] = { "ACK", { ACK }, false, 0, "ack" },
	[0x11] = { "NAK", { ACK }, false, 0, "nak" },
	[0x20] = { "PROBE", { PROBE }, false, 0, "path" },
	[0x21] = { "PROBE_REPLY", { PROBE }, false, 0, "path" },
	[0x22] = { "PLANE_STATE", { PLANES }, false, 0, "planes" },
	[0x23] = { "PLANE_STATE_ACK", { PLANES }, false, 0, "planes" },
	[0x24] = { "EP_PROBE", { EPROBE }, false, 0, "device" },
	[0x25] = { "EP_PROBE_REPLY", { EPROBE }, false, 0, "device" },
	[0x26] = { "EP_PORT_STATUS", { EPROBE }, false, 0, "device" },
	[0x27] = { "EP_PORT_STATUS_REPLY", { EPROBE }, false, 0, "device" },
	[0x30] = { "UD_SEND", { DETH }, true, F_UD, "datagram" },
	[0x31] = { "UD_SEND_IMM", { DETH, IMM }, true, F_UD, "datagram" },
}

local opcode_names = {}
for code, op in pairs(opcodes) do
	opcode_names[code] = op[1]
end

local syndromes = {
	[0] = "ACK",
	[1] = "TRIMMED",
	[2] = "RNR",
	[3] = "REMOTE_ACCESS_ERROR",
	[4] = "INVALID_REQUEST",
	[5] = "REMOTE_OPERATIONAL_ERROR",
	[6] = "PSN_SEQUENCE_ERROR",
}

local f = mrc.fields

f.version = ProtoField.uint8("mrc.version", "Version", base.DEC, nil, 0xf0)
f.hdr_rsvd = ProtoField.uint8("mrc.hdr_rsvd", "Reserved header flags",
	base.HEX, nil, 0x0f)
f.opcode = ProtoField.uint8("mrc.opcode", "Opcode", base.HEX, opcode_names)
f.flags = ProtoField.uint8("mrc.flags", "Flags", base.HEX)
f.flag_ack_req = ProtoField.bool("mrc.flags.ack_req", "ACK_REQ", 8, nil,
	F_ACK_REQ)
f.flag_solicited = ProtoField.bool("mrc.flags.solicited", "SOLICITED", 8,
	nil, F_SOLICITED)
f.flag_retransmit = ProtoField.bool("mrc.flags.retransmit", "RETRANSMIT", 8,
	nil, F_RETRANSMIT)
f.flag_trimmed = ProtoField.bool("mrc.flags.trimmed", "TRIMMED", 8, nil,
	F_TRIMMED)
f.flag_rsvd = ProtoField.uint8("mrc.flags.reserved", "Reserved flags",
	base.HEX, nil, 0xf0)
f.rsvd = ProtoField.bytes("mrc.reserved", "Reserved")
f.dqpn = ProtoField.uint32("mrc.dqpn", "Destination QPN", base.HEX)
f.sqpn = ProtoField.uint32("mrc.sqpn", "Source QPN", base.HEX)
f.psn = ProtoField.uint32("mrc.psn", "PSN", base.DEC)
f.ev = ProtoField.uint32("mrc.ev", "Entropy value (EV)", base.HEX)
f.ts = ProtoField.uint32("mrc.ts", "Timestamp (us)", base.DEC)
f.payload_len = ProtoField.uint16("mrc.payload_len", "Payload length",
	base.DEC)

f.msn = ProtoField.uint32("mrc.msn", "MSN", base.DEC)
f.offset = ProtoField.uint32("mrc.offset", "Offset", base.DEC)
f.length = ProtoField.uint32("mrc.length", "Message length", base.DEC)
f.va = ProtoField.uint64("mrc.va", "Remote address", base.HEX)
f.rkey = ProtoField.uint32("mrc.rkey", "Remote key", base.HEX)
f.imm = ProtoField.uint32("mrc.imm", "Immediate data", base.HEX)
f.inv_rkey = ProtoField.uint32("mrc.inv_rkey", "Rkey to invalidate",
	base.HEX)
f.swap_or_add = ProtoField.uint64("mrc.swap_or_add", "Swap or add value",
	base.HEX)
f.compare = ProtoField.uint64("mrc.compare", "Compare value", base.HEX)
f.orig = ProtoField.uint64("mrc.orig", "Original value", base.HEX)
f.qkey = ProtoField.uint32("mrc.qkey", "Q_Key", base.HEX)

f.cum_psn = ProtoField.uint32("mrc.ack.cum_psn", "Cumulative PSN", base.DEC)
f.ev_echo = ProtoField.uint32("mrc.ack.ev_echo", "EV echo", base.HEX)
f.ts_echo = ProtoField.uint32("mrc.ack.ts_echo", "Timestamp echo", base.DEC)
f.ack_msn = ProtoField.uint32("mrc.ack.msn", "Completed MSN", base.DEC)
f.syndrome = ProtoField.uint8("mrc.ack.syndrome", "Syndrome", base.DEC,
	syndromes)
f.rnr_timer = ProtoField.uint8("mrc.ack.rnr_timer", "RNR timer", base.DEC)
f.ack_flags = ProtoField.uint8("mrc.ack.flags", "ACK flags", base.HEX)
f.ack_ecn_ce = ProtoField.bool("mrc.ack.flags.ecn_ce", "ECN_CE", 8, nil,
	0x01)
f.sack_words = ProtoField.uint8("mrc.ack.sack_words", "SACK words",
	base.DEC)
f.nak_psn = ProtoField.uint32("mrc.ack.nak_psn", "NAK PSN", base.DEC)
f.sack_word = ProtoField.uint64("mrc.sack.word", "SACK word", base.HEX)
f.sack_psn = ProtoField.uint32("mrc.sack.psn", "Received PSN", base.DEC)
f.sack_missing = ProtoField.uint32("mrc.sack.missing", "Missing PSN",
	base.DEC)
f.sack_count = ProtoField.uint32("mrc.sack.count", "PSNs selectively acked",
	base.DEC)

f.probe_id = ProtoField.uint32("mrc.probe.id", "Probe id", base.HEX)
f.probe_ts = ProtoField.uint32("mrc.probe.ts", "Probe timestamp", base.DEC)
f.probe_ev = ProtoField.uint32("mrc.probe.ev", "Probed EV", base.HEX)

f.ep_cookie = ProtoField.uint32("mrc.ep_probe.cookie", "Probe cookie",
	base.HEX)
f.ep_ts = ProtoField.uint32("mrc.ep_probe.ts", "Prober's timestamp",
	base.DEC)
f.ep_plane = ProtoField.uint8("mrc.ep_probe.plane", "Plane", base.DEC)
f.ep_n_ports = ProtoField.uint8("mrc.ep_probe.n_ports", "Sender's ports",
	base.DEC)
f.ep_up_mask = ProtoField.uint8("mrc.ep_probe.up_mask", "Ports up mask",
	base.HEX)
f.ep_svc_ns = ProtoField.uint32("mrc.ep_probe.svc_ns",
	"Responder's service time (ns)", base.DEC)

f.plane_seq = ProtoField.uint32("mrc.planes.seq", "State sequence",
	base.HEX)
f.n_planes = ProtoField.uint8("mrc.planes.n_planes", "Planes", base.DEC)
f.down_mask = ProtoField.uint8("mrc.planes.down_mask", "Down mask",
	base.HEX)
f.plane_down = ProtoField.uint8("mrc.planes.down", "Plane down", base.DEC)

f.hdr_len = ProtoField.uint32("mrc.hdr_len", "Header length", base.DEC)
f.payload = ProtoField.bytes("mrc.payload", "Payload")
f.payload_present = ProtoField.uint32("mrc.payload_present",
	"Payload present", base.DEC)
f.trimmed = ProtoField.bool("mrc.trimmed", "Trimmed")
f.drop_reason = ProtoField.string("mrc.drop_reason",
	"Receiver would drop it")

f.srv6_block = ProtoField.bytes("mrc.srv6.block", "uSID block (/32)")
f.srv6_usid = ProtoField.uint16("mrc.srv6.usid", "uSID", base.HEX)
f.srv6_final = ProtoField.string("mrc.srv6.final_dst", "Final destination")

local e_invalid = ProtoExpert.new("mrc.invalid", "Invalid MRC packet",
	expert.group.MALFORMED, expert.severity.ERROR)
local e_trimmed = ProtoExpert.new("mrc.trimmed.expert",
	"Trimmed by a switch", expert.group.SEQUENCE, expert.severity.NOTE)
local e_retransmit = ProtoExpert.new("mrc.retransmit.expert",
	"Retransmission", expert.group.SEQUENCE, expert.severity.NOTE)
local e_nak = ProtoExpert.new("mrc.nak.expert", "NAK",
	expert.group.SEQUENCE, expert.severity.NOTE)
local e_plane_down = ProtoExpert.new("mrc.planes.expert",
	"Planes reported down", expert.group.SEQUENCE, expert.severity.NOTE)
mrc.experts = { e_invalid, e_trimmed, e_retransmit, e_nak, e_plane_down }

mrc.prefs.port = Pref.uint("UDP port", 4791,
	"The mrc devices' UDP port (4791 by default, RoCEv2's)")
mrc.prefs.usid_block = Pref.string("SRv6 uSID block", "fc00:0::/32",
	"The fabric's F3216 uSID block: an IPv6 destination in it is shown " ..
	"as a uSID container. Empty: never.")

local ipv6_dst = Field.new("ipv6.dst")

local function hex(v, width)
	return string.format("0x%0" .. (width or 6) .. "x", v)
end

-- The first rule of wire-format.rst's Validation that a header breaks
-- (rules 7 to 14; 1 to 6 are checked while the headers are read). Takes
-- the fields as read.
local function check(p)
	local op = opcodes[p.opcode]
	if p.rsvd_nonzero then
		return "reserved_set"
	end
	if bit.band(p.flags, 0xf0) ~= 0 then
		return "reserved_set"
	end
	if bit.band(p.flags, bit.bnot(op[4])) ~= 0 then
		return "bad_flags"
	end
	if p.dqpn > PSN_MASK or p.sqpn > PSN_MASK or p.psn > PSN_MASK then
		return "reserved_set"
	end
	if not op[3] and p.payload_len ~= 0 then
		return "bad_length"
	end
	if op[5] == "datagram" and p.payload_len > UD_MAX_PAYLOAD then
		return "bad_length"
	end
	if p.msn ~= nil then
		if p.length > MAX_MSG_LEN then
			return "bad_length"
		end
		if op[5] == "atomic" then
			if p.length ~= 8 then
				return "bad_length"
			end
			if p.offset ~= 0 then
				return "bad_offset"
			end
		elseif op[5] == "read" then
			if p.offset + p.length > MAX_MSG_LEN then
				return "bad_offset"
			end
		elseif op[5] == "data" then
			if p.offset + p.payload_len > p.length then
				return "bad_offset"
			end
			if p.payload_len == 0 and p.length ~= 0 then
				return "bad_length"
			end
		end
	end
	if p.cum_psn ~= nil then
		if p.cum_psn > PSN_MASK or p.nak_psn > PSN_MASK or
		    bit.band(p.ack_flags, 0xfe) ~= 0 then
			return "reserved_set"
		end
		if op[5] == "ack" then
			if p.syndrome ~= 0 then
				return "bad_syndrome"
			end
			if p.nak_psn ~= 0 or p.rnr_timer ~= 0 then
				return "reserved_set"
			end
		else
			if p.syndrome == 0 or p.syndrome > 6 then
				return "bad_syndrome"
			end
			if p.syndrome == 2 then
				if p.rnr_timer > 31 then
					return "bad_syndrome"
				end
			elseif p.rnr_timer ~= 0 then
				return "reserved_set"
			end
		end
	end
	if p.n_planes ~= nil then
		if p.psn ~= 0 then
			return "reserved_set"
		end
		local all = bit.lshift(1, math.min(p.n_planes, MAX_PLANES)) - 1
		if p.n_planes == 0 or p.n_planes > MAX_PLANES or
		    bit.band(p.down_mask, bit.bnot(all)) ~= 0 or
		    p.down_mask == all then
			return "bad_planes"
		end
	end
	if p.ep_plane ~= nil then
		-- For the device: no QP, PSN or EV.
		if p.dqpn ~= 0 or p.sqpn ~= 0 or p.psn ~= 0 or p.ev ~= 0 then
			return "reserved_set"
		end
		if p.ep_plane >= MAX_PLANES then
			return "bad_planes"
		end
		if (p.opcode == 0x24 or p.opcode == 0x26) and p.ep_svc_ns ~= 0 then
			return "reserved_set"
		end
		if p.opcode == 0x24 or p.opcode == 0x25 then
			-- A probe has no port fields.
			if p.ep_n_ports ~= 0 or p.ep_up_mask ~= 0 then
				return "reserved_set"
			end
		else
			local all = bit.lshift(1, math.min(p.ep_n_ports,
				MAX_PLANES)) - 1
			if p.ep_n_ports == 0 or p.ep_n_ports > MAX_PLANES or
			    p.ep_up_mask == 0 or
			    bit.band(p.ep_up_mask, bit.bnot(all)) ~= 0 then
				return "bad_planes"
			end
		end
	end
	if p.payload_present > p.payload_len then
		return "bad_length"
	end
	return nil
end

-- A reserved field: shown only when it is not zero (it then makes the
-- packet invalid).
local function reserved(tree, tvb, off, len, p)
	local r = tvb(off, len)
	for i = 0, len - 1 do
		if r:range(i, 1):uint() ~= 0 then
			tree:add(f.rsvd, r)
			p.rsvd_nonzero = true
			return
		end
	end
end

-- The SACK bitmap: bit i (MSB of the first byte first) is PSN
-- cum_psn + 1 + i.
local function sack_bitmap(tree, tvb, off, words, cum_psn)
	local received, last = {}, -1
	for w = 0, words - 1 do
		local wr = tvb(off + 8 * w, 8)
		local wt = tree:add(f.sack_word, wr)
		for k = 0, 7 do
			local byte = wr:range(k, 1):uint()
			for b = 0, 7 do
				if bit.band(byte, bit.rshift(0x80, b)) ~= 0 then
					local i = 64 * w + 8 * k + b
					received[i] = true
					last = i
					wt:add(f.sack_psn, wr:range(k, 1),
						bit.band(cum_psn + 1 + i, PSN_MASK))
						:set_generated()
				end
			end
		end
	end
	local count = 0
	for i = 0, last do
		if received[i] then
			count = count + 1
		else
			tree:add(f.sack_missing, bit.band(cum_psn + 1 + i,
				PSN_MASK)):set_generated()
		end
	end
	tree:add(f.sack_count, count):set_generated()
	return count
end

-- "fc00:0::/32" -> the block's first 4 bytes as a string of bytes, or nil.
local function parse_block(pref)
	local addr = pref:match("^%s*([%x:]+)/32%s*$")
	if not addr then
		return nil
	end
	local head = addr:match("^(.-)::") or addr
	local groups = {}
	for g in head:gmatch("[^:]+") do
		groups[#groups + 1] = tonumber(g, 16)
	end
	while #groups < 2 do
		groups[#groups + 1] = 0
	end
	return string.char(bit.rshift(groups[1], 8), bit.band(groups[1], 0xff),
		bit.rshift(groups[2], 8), bit.band(groups[2], 0xff))
end

-- An SRv6 container (F3216) as the outer IPv6 destination: the block,
-- then 16-bit uSIDs until the end-of-container 0. Wireshark shows the
-- address; what it means for MRC (the path the EV names, and the final
-- destination that the UDP checksum covers) is shown here.
local function srv6_container(tree)
	local block = parse_block(mrc.prefs.usid_block)
	local dst = ipv6_dst()
	if not block or not dst then
		return
	end
	local bytes = dst.range:bytes()
	if bytes:len() ~= 16 or bytes:raw(0, 4) ~= block then
		return
	end
	local r = dst.range
	local st = tree:add(r, "SRv6 uSID container (EV)")
	st:add(f.srv6_block, r:range(0, 4))
	local last
	for i = 4, 14, 2 do
		if r:range(i, 2):uint() == 0 then
			break
		end
		st:add(f.srv6_usid, r:range(i, 2))
		last = i
	end
	if last then
		-- block:uSIDn::, what the UDP checksum covers
		st:add(f.srv6_final, string.format("%x:%x:%x::",
			r:range(0, 2):uint(), r:range(2, 2):uint(),
			r:range(last, 2):uint())):set_generated()
	end
end

local function add_u32(tree, fld, tvb, off)
	local r = tvb(off, 4)
	tree:add(fld, r)
	return r:uint()
end

local function add_u8(tree, fld, tvb, off)
	local r = tvb(off, 1)
	tree:add(fld, r)
	return r:uint()
end

-- Whether the buffer starts with an MRC version-1 base header: version,
-- a defined opcode and the zero bytes of a valid header (a RoCEv2 BTH
-- holds its P_Key where MRC's byte 3 is reserved).
local function looks_like_mrc(tvb)
	if tvb:reported_len() < BASE_LEN or tvb:len() < BASE_LEN then
		return false
	end
	return tvb(0, 1):uint() == bit.lshift(WIRE_VERSION, 4) and
		opcodes[tvb(1, 1):uint()] ~= nil and
		bit.band(tvb(2, 1):uint(), 0xf0) == 0 and
		tvb(3, 1):uint() == 0 and tvb(4, 1):uint() == 0 and
		tvb(8, 1):uint() == 0 and tvb(12, 1):uint() == 0
end

local function invalid(tree, pinfo, reason)
	tree:add(f.drop_reason, reason):set_generated()
	tree:add_proto_expert_info(e_invalid, "Invalid MRC packet: " .. reason)
	pinfo.cols.info:append(" [" .. reason .. "]")
end

local function flag_names(flags)
	local names = {}
	if bit.band(flags, F_ACK_REQ) ~= 0 then names[#names + 1] = "ACK_REQ" end
	if bit.band(flags, F_SOLICITED) ~= 0 then
		names[#names + 1] = "SOLICITED"
	end
	if bit.band(flags, F_RETRANSMIT) ~= 0 then
		names[#names + 1] = "RETRANSMIT"
	end
	if bit.band(flags, F_TRIMMED) ~= 0 then names[#names + 1] = "TRIMMED" end
	return table.concat(names, ",")
end

local function dissect(tvb, pinfo, root)
	local len = tvb:reported_len()
	pinfo.cols.protocol = "MRC"
	local tree = root:add(mrc, tvb())
	local p = { payload_present = 0 }

	if len < BASE_LEN then
		invalid(tree, pinfo, "too_short")
		return len
	end
	local version = bit.rshift(tvb(0, 1):uint(), 4)
	tree:add(f.version, tvb(0, 1))
	local hdr_rsvd = bit.band(tvb(0, 1):uint(), 0x0f)
	if hdr_rsvd ~= 0 then
		tree:add(f.hdr_rsvd, tvb(0, 1))
	end
	p.opcode = add_u8(tree, f.opcode, tvb, 1)
	local op = opcodes[p.opcode]
	local opname = op and op[1] or string.format("opcode 0x%02x", p.opcode)
	pinfo.cols.info = opname
	if version ~= WIRE_VERSION then
		invalid(tree, pinfo, "bad_version")
		return len
	end
	if hdr_rsvd ~= 0 then
		invalid(tree, pinfo, "reserved_set")
		return len
	end
	if not op then
		invalid(tree, pinfo, "bad_opcode")
		return len
	end
	tree:append_text(", " .. opname)

	local fr = tvb(2, 1)
	p.flags = fr:uint()
	local ft = tree:add(f.flags, fr)
	ft:add(f.flag_ack_req, fr)
	ft:add(f.flag_solicited, fr)
	ft:add(f.flag_retransmit, fr)
	ft:add(f.flag_trimmed, fr)
	if bit.band(p.flags, 0xf0) ~= 0 then
		ft:add(f.flag_rsvd, fr)
	end
	if p.flags ~= 0 then
		ft:append_text(" (" .. flag_names(p.flags) .. ")")
	end
	reserved(tree, tvb, 3, 1, p)
	p.dqpn = add_u32(tree, f.dqpn, tvb, 4)
	p.sqpn = add_u32(tree, f.sqpn, tvb, 8)
	p.psn = add_u32(tree, f.psn, tvb, 12)
	p.ev = add_u32(tree, f.ev, tvb, 16)
	add_u32(tree, f.ts, tvb, 20)
	p.payload_len = tvb(24, 2):uint()
	tree:add(f.payload_len, tvb(24, 2))
	reserved(tree, tvb, 26, 6, p)

	-- The header length: ACK and NAK have a variable SACK part.
	local hdr_len = BASE_LEN
	for _, part in ipairs(op[2]) do
		hdr_len = hdr_len + part_len[part]
	end
	if len < hdr_len then
		invalid(tree, pinfo, "too_short")
		return len
	end
	if op[2][1] == ACK then
		local words = tvb(51, 1):uint()
		if words > SACK_MAX_WORDS then
			invalid(tree, pinfo, "bad_sack")
			return len
		end
		hdr_len = hdr_len + 8 * words
		if len < hdr_len then
			invalid(tree, pinfo, "too_short")
			return len
		end
	end

	local info = { string.format("QP %s -> %s", hex(p.sqpn), hex(p.dqpn)) }
	local off = BASE_LEN
	for _, part in ipairs(op[2]) do
		local sub = tree:add(tvb(off, part_len[part]), part)
		if part == MSGH then
			p.msn = add_u32(sub, f.msn, tvb, off)
			p.offset = add_u32(sub, f.offset, tvb, off + 4)
			p.length = add_u32(sub, f.length, tvb, off + 8)
			info[#info + 1] = string.format("PSN %d MSN %d off %d len %d",
				p.psn, p.msn, p.offset, p.length)
		elseif part == RADDR then
			sub:add(f.va, tvb(off, 8))
			p.rkey = add_u32(sub, f.rkey, tvb, off + 8)
			reserved(sub, tvb, off + 12, 4, p)
			info[#info + 1] = "rkey " .. hex(p.rkey, 8)
		elseif part == IMM then
			local imm = add_u32(sub, f.imm, tvb, off)
			reserved(sub, tvb, off + 4, 4, p)
			info[#info + 1] = "imm " .. hex(imm, 8)
		elseif part == IETH then
			local rkey = add_u32(sub, f.inv_rkey, tvb, off)
			reserved(sub, tvb, off + 4, 4, p)
			info[#info + 1] = "invalidate " .. hex(rkey, 8)
		elseif part == ATOM then
			sub:add(f.swap_or_add, tvb(off, 8))
			sub:add(f.compare, tvb(off + 8, 8))
		elseif part == ORIG then
			sub:add(f.orig, tvb(off, 8))
		elseif part == DETH then
			local qkey = add_u32(sub, f.qkey, tvb, off)
			reserved(sub, tvb, off + 4, 4, p)
			info[#info + 1] = string.format("PSN %d qkey %s", p.psn,
				hex(qkey, 8))
		elseif part == PROBE then
			local id = add_u32(sub, f.probe_id, tvb, off)
			add_u32(sub, f.probe_ts, tvb, off + 4)
			local ev = add_u32(sub, f.probe_ev, tvb, off + 8)
			reserved(sub, tvb, off + 12, 4, p)
			info[#info + 1] = string.format("id %s EV %s", hex(id, 8),
				hex(ev, 8))
		elseif part == EPROBE then
			local cookie = add_u32(sub, f.ep_cookie, tvb, off)
			add_u32(sub, f.ep_ts, tvb, off + 4)
			p.ep_plane = add_u8(sub, f.ep_plane, tvb, off + 8)
			if p.opcode == 0x26 or p.opcode == 0x27 then
				p.ep_n_ports = add_u8(sub, f.ep_n_ports, tvb, off + 9)
				p.ep_up_mask = add_u8(sub, f.ep_up_mask, tvb,
					off + 10)
			else
				p.ep_n_ports = tvb(off + 9, 1):uint()
				p.ep_up_mask = tvb(off + 10, 1):uint()
				reserved(sub, tvb, off + 9, 2, p)
			end
			reserved(sub, tvb, off + 11, 1, p)
			p.ep_svc_ns = add_u32(sub, f.ep_svc_ns, tvb, off + 12)
			info[#info + 1] = string.format("cookie %s plane %d",
				hex(cookie, 8), p.ep_plane)
			if p.opcode == 0x26 or p.opcode == 0x27 then
				info[#info + 1] = string.format(
					"ports %d up %s", p.ep_n_ports,
					hex(p.ep_up_mask, 2))
			end
		elseif part == PLANES then
			local seq = add_u32(sub, f.plane_seq, tvb, off)
			p.n_planes = add_u8(sub, f.n_planes, tvb, off + 4)
			local mr = tvb(off + 5, 1)
			p.down_mask = mr:uint()
			local mt = sub:add(f.down_mask, mr)
			local down = {}
			for plane = 0, 7 do
				if bit.band(p.down_mask, bit.lshift(1, plane)) ~= 0 then
					mt:add(f.plane_down, mr, plane)
					down[#down + 1] = tostring(plane)
				end
			end
			reserved(sub, tvb, off + 6, 2, p)
			info[#info + 1] = string.format("seq %s planes %d down {%s}",
				hex(seq, 8), p.n_planes, table.concat(down, ","))
			if #down > 0 then
				sub:add_proto_expert_info(e_plane_down,
					"Planes reported down: " ..
					table.concat(down, ","))
			end
		elseif part == ACK then
			p.cum_psn = add_u32(sub, f.cum_psn, tvb, off)
			add_u32(sub, f.ev_echo, tvb, off + 4)
			add_u32(sub, f.ts_echo, tvb, off + 8)
			local msn = add_u32(sub, f.ack_msn, tvb, off + 12)
			p.syndrome = add_u8(sub, f.syndrome, tvb, off + 16)
			p.rnr_timer = add_u8(sub, f.rnr_timer, tvb, off + 17)
			local ar = tvb(off + 18, 1)
			p.ack_flags = ar:uint()
			sub:add(f.ack_flags, ar):add(f.ack_ecn_ce, ar)
			local words = add_u8(sub, f.sack_words, tvb, off + 19)
			p.nak_psn = add_u32(sub, f.nak_psn, tvb, off + 20)
			sub:set_len(part_len[ACK] + 8 * words)
			local acked = 0
			if words > 0 then
				acked = sack_bitmap(sub, tvb, off + 24, words,
					p.cum_psn)
			end
			if op[5] == "nak" then
				local syn = syndromes[p.syndrome] or
					tostring(p.syndrome)
				info[#info + 1] = string.format("%s nak_psn %d",
					syn, p.nak_psn)
				sub:add_proto_expert_info(e_nak, "NAK " .. syn ..
					" for PSN " .. p.nak_psn)
			end
			info[#info + 1] = string.format("cum_psn %d msn %d", p.cum_psn,
				msn)
			if words > 0 then
				info[#info + 1] = string.format("sack %d", acked)
			end
			if bit.band(p.ack_flags, 1) ~= 0 then
				info[#info + 1] = "ECN_CE"
			end
			off = off + 8 * words
		end
		off = off + part_len[part]
	end
	tree:add(f.hdr_len, hdr_len):set_generated()

	p.payload_present = len - hdr_len
	if op[3] then
		tree:add(f.payload_present, p.payload_present):set_generated()
		if p.payload_present > 0 and tvb:len() > hdr_len then
			tree:add(f.payload, tvb(hdr_len))
		end
	end
	local trimmed = op[3] and (p.payload_present < p.payload_len or
		bit.band(p.flags, F_TRIMMED) ~= 0)
	if op[3] then
		tree:add(f.trimmed, trimmed):set_generated()
	end
	if trimmed then
		tree:add_proto_expert_info(e_trimmed, string.format(
			"Trimmed: %d of %d payload bytes present",
			math.min(p.payload_present, p.payload_len), p.payload_len))
		info[#info + 1] = string.format("TRIMMED %d/%d",
			p.payload_present, p.payload_len)
	elseif op[3] then
		info[#info + 1] = "payload " .. p.payload_len
	end
	if bit.band(p.flags, F_RETRANSMIT) ~= 0 then
		tree:add_proto_expert_info(e_retransmit)
		info[#info + 1] = "RETRANSMIT"
	end
	pinfo.cols.info:append(" " .. table.concat(info, " "))

	local reason = check(p)
	if reason then
		invalid(tree, pinfo, reason)
	end

	srv6_container(tree)
	return len
end

-- The dissector the port had before (Wireshark's RoCEv2), for non-MRC
-- datagrams on it.
local udp_port_table = DissectorTable.get("udp.port")
local previous = {}
local registered_port

local function register_port()
	local port = mrc.prefs.port
	if registered_port == port then
		return
	end
	if registered_port then
		udp_port_table:remove(registered_port, mrc)
		if previous[registered_port] then
			udp_port_table:add(registered_port,
				previous[registered_port])
		end
	end
	previous[port] = udp_port_table:get_dissector(port)
	udp_port_table:add(port, mrc)
	registered_port = port
end

function mrc.dissector(tvb, pinfo, root)
	if not looks_like_mrc(tvb) then
		local other = previous[registered_port]
		if other then
			return other:call(tvb, pinfo, root)
		end
		return 0
	end
	return dissect(tvb, pinfo, root)
end

function mrc.prefs_changed()
	register_port()
end

register_port()

mrc:register_heuristic("udp", function(tvb, pinfo, root)
	if not looks_like_mrc(tvb) then
		return false
	end
	dissect(tvb, pinfo, root)
	return true
end)
