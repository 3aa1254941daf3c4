/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * Controller interface of the mrc RDMA device: a generic netlink family
 * through which one privileged controller per host (mrcctl, or an
 * orchestrator speaking the same messages) programs the paths (EVs) that
 * queue pairs spray over. Documentation/paths.rst describes the model;
 * Documentation/abi.rst lists every message.
 *
 * Requests that change state need CAP_NET_ADMIN in the caller's network
 * namespace. Devices are named by their RDMA device name (MRC_CTL_A_DEV).
 * Documentation/controller.rst has the commands, their attributes and
 * errors. New commands and attributes are only ever appended.
 */
#ifndef MRC_CTL_USER_H
#define MRC_CTL_USER_H

#define MRC_CTL_FAMILY_NAME	"mrc"
#define MRC_CTL_FAMILY_VERSION	1

/* Profile ids are small and chosen by the controller. */
#define MRC_CTL_PROFILE_ID_MIN	1
#define MRC_CTL_PROFILE_ID_MAX	64

/* Bounds that keep a profile, and a connection's state per EV, small. */
#define MRC_CTL_MAX_EVS		1024	/* per profile */
#define MRC_CTL_MAX_FIELDS	8	/* per generated profile */
#define MRC_CTL_MAX_PLANES	8	/* plane indices 0..7 */

/* How an EV is carried in a packet. */
enum mrc_ctl_ev_format {
	/* The EV is the outer UDP source port: ECMP fabrics hash on it. */
	MRC_CTL_EV_FMT_UDP = 1,
	/*
	 * The EV is an SRv6 micro-SID container (F3216: a 32-bit locator
	 * block then 16-bit uSIDs) written as the outer IPv6 destination.
	 */
	MRC_CTL_EV_FMT_SRV6 = 2,
};

/* How a profile's EV list is given. */
enum mrc_ctl_ev_mode {
	MRC_CTL_EV_MODE_EXPLICIT = 1,	/* a list of (plane, value) */
	MRC_CTL_EV_MODE_GENERATED = 2,	/* fields whose ranges are expanded */
};

/* Path states, as a connection sees each EV. */
enum mrc_ctl_ev_state {
	MRC_CTL_EV_UNKNOWN = 0,		/* not used yet, or being probed */
	MRC_CTL_EV_GOOD = 1,
	MRC_CTL_EV_ASSUMED_BAD = 2,	/* retired after a loss; probed */
	MRC_CTL_EV_DENIED = 3,		/* the controller forbids it */
};

/*
 * The multicast group of EV_EVENT notifications. Joining it needs
 * CAP_NET_ADMIN over the network namespace; events go to the namespace of
 * the device's netdev.
 */
#define MRC_CTL_MCGRP_EVENTS	"events"

/* Why an EV_EVENT's EV changed state. */
enum mrc_ctl_ev_reason {
	MRC_CTL_EV_REASON_LOSS = 1,	/* a connection lost a packet on it */
	MRC_CTL_EV_REASON_TIMEOUT,	/* a connection timed out on it */
	/* its plane cannot carry traffic: no carrier here, or at the peer */
	MRC_CTL_EV_REASON_PLANE_DOWN,
	MRC_CTL_EV_REASON_PROBES,	/* probes restored it */
	MRC_CTL_EV_REASON_DENIED,	/* the controller denied it */
	MRC_CTL_EV_REASON_ALLOWED,	/* the controller allowed it */
	/* the last connection that found it bad is gone */
	MRC_CTL_EV_REASON_RELEASED,
};

enum mrc_ctl_cmd {
	MRC_CTL_CMD_UNSPEC,
	MRC_CTL_CMD_DEV_GET,		/* doit (DEV) or dump: devices */
	MRC_CTL_CMD_PROFILE_NEW,	/* admin; MRC_CTL_A_REPLACE replaces */
	MRC_CTL_CMD_PROFILE_DEL,	/* admin: DEV, PROFILE_ID */
	MRC_CTL_CMD_PROFILE_GET,	/* dump: DEV; one message a profile */
	MRC_CTL_CMD_EV_GET,		/* dump: DEV, PROFILE_ID; one an EV */
	MRC_CTL_CMD_EV_SET,		/* admin: deny or allow one EV */
	/*
	 * admin: DEV, [PRESET], [SINGLE_PATH], [DATA_DSCP], [CTRL_DSCP],
	 * [TXQ_PACKETS], [CC_RTT_FROM_BUILD] (PRESET applies first)
	 */
	MRC_CTL_CMD_DEV_SET,
	/* doit: DEV; answer CC_ENABLED, CC_ALGORITHM, CC nest */
	MRC_CTL_CMD_CC_GET,
	/* admin: DEV, [CC_RESET], [CC nest], [CC_ENABLED] */
	MRC_CTL_CMD_CC_SET,
	/*
	 * dump: DEV, [PEER]; one message per EV of every connected QP:
	 * QPN, DEST_QPN, PEER, PROFILE_ID, EV nest with counters.
	 */
	MRC_CTL_CMD_PATH_GET,
	/*
	 * dump: DEV; one message per plane (the device's ports): DEV,
	 * NETDEV, PLANE nest with the plane's state and counters
	 */
	MRC_CTL_CMD_PLANE_GET,
	/*
	 * notification, multicast to MRC_CTL_MCGRP_EVENTS: a profile's EV
	 * changed state as the profile sees it. DEV, PROFILE_ID, [PEER],
	 * [QPN], EV nest with INDEX, PROFILE_INDEX, PLANE, UDP_SPORT or
	 * SRV6, STATE, REASON and DROP_COUNT.
	 */
	MRC_CTL_CMD_EV_EVENT,
	/*
	 * admin: DEV, EP_REQS (nests of EP_REQ: REQ_ID, SGID, DGID, EV with
	 * PLANE and UDP_SPORT or SRV6, [DSCP], TIMEOUT). Sends a
	 * connectionless probe per request, which the peer's device answers,
	 * and waits for the answers; answers DEV, EP_REQS (EP_REQ: REQ_ID,
	 * PLANE, RTT, [SVC_TIME_REMOVED]) in arrival order, the unanswered
	 * requests left out.
	 */
	MRC_CTL_CMD_EP_PROBE,
	/*
	 * admin: DEV, EP_REQS as EP_PROBE's, each with PORT_STATUS too: the
	 * device tells the peer at DGID which of its ports are up, over the
	 * request's EV; the peer's connections to SGID stop sending on the
	 * planes said down, and its device answers. Answers as EP_PROBE.
	 */
	MRC_CTL_CMD_EP_PORT_STATUS,
	__MRC_CTL_CMD_MAX,
};

#define MRC_CTL_CMD_MAX (__MRC_CTL_CMD_MAX - 1)

enum mrc_ctl_attr {
	MRC_CTL_A_UNSPEC,
	MRC_CTL_A_DEV,			/* string: RDMA device name */
	MRC_CTL_A_NETDEV,		/* string: the netdev it is bound to */
	MRC_CTL_A_NUM_PLANES,		/* u32 */
	MRC_CTL_A_DEFAULT_PROFILE,	/* u32: 0 = built-in UDP spraying */
	MRC_CTL_A_PROFILE_ID,		/* u32 */
	MRC_CTL_A_FORMAT,		/* u8: enum mrc_ctl_ev_format */
	MRC_CTL_A_MODE,			/* u8: enum mrc_ctl_ev_mode */
	MRC_CTL_A_MIN_ACTIVE,		/* u32: floor of usable EVs */
	/*
	 * binary, 16 bytes: the peer address the profile serves, IPv6 or
	 * IPv4-mapped IPv6. A QP to that peer uses this profile.
	 */
	MRC_CTL_A_PEER,
	MRC_CTL_A_DEFAULT,		/* flag: the device's default profile */
	MRC_CTL_A_PLANE_MASK,		/* u32: planes a generated EV runs on */
	MRC_CTL_A_EVS,			/* nest of MRC_CTL_A_EV */
	MRC_CTL_A_EV,			/* nest of enum mrc_ctl_ev_attr */
	MRC_CTL_A_FIELDS,		/* nest of MRC_CTL_A_FIELD */
	MRC_CTL_A_FIELD,		/* nest of enum mrc_ctl_field_attr */
	MRC_CTL_A_NUM_EVS,		/* u32: EVs the profile expands to */
	/*
	 * flag: PROFILE_NEW may replace a profile with the same id. (Generic
	 * netlink refuses NLM_F_REPLACE as ambiguous with dump flags.)
	 */
	MRC_CTL_A_REPLACE,
	MRC_CTL_A_PAD,
	/*
	 * u8, 0 or 1: spraying off. Each QP keeps to one EV chosen by a hash
	 * of its QPN and its peer's QPN, like ECMP hashes a flow; it moves
	 * to another usable EV only while that one is not usable.
	 */
	MRC_CTL_A_SINGLE_PATH,
	MRC_CTL_A_DATA_DSCP,		/* u8, 0..63: data (trimmable) */
	MRC_CTL_A_CTRL_DSCP,		/* u8, 0..63: ACK, NAK, probe */
	/* u8, 0 or 1: NSCC for QPs that reach RTR from now on */
	MRC_CTL_A_CC_ENABLED,
	MRC_CTL_A_CC_ALGORITHM,		/* string: "uet-1.0-nscc" */
	MRC_CTL_A_CC,			/* nest of enum mrc_ctl_cc_attr */
	/*
	 * flag: CC_SET starts from the CC profile of the device's preset
	 * (PRESET), not the current profile
	 */
	MRC_CTL_A_CC_RESET,
	MRC_CTL_A_QPN,			/* u32: a local QP number */
	MRC_CTL_A_DEST_QPN,		/* u32: the peer's QP number */
	/* u32: a QP's packets in local transmit queues at most; 0: no limit */
	MRC_CTL_A_TXQ_PACKETS,
	/*
	 * u8, 0 or 1: NSCC's RTT samples of QPs that reach RTR from now on
	 * run from the packet's build (1), the wait in this host's queues
	 * included, or from its departure (0, the default)
	 */
	MRC_CTL_A_CC_RTT_FROM_BUILD,
	/*
	 * string, MRC_CTL_PRESET_*: the named set of values tuned to a
	 * fabric's time scale (today the CC profile) that DEV_SET applies as
	 * a whole and DEV_GET reports as the one last applied. CC_SET with
	 * CC_RESET returns to its CC profile.
	 */
	MRC_CTL_A_PRESET,
	MRC_CTL_A_PLANE,		/* nest of enum mrc_ctl_plane_attr */
	/*
	 * u32: the states (bit 1 << enum mrc_ctl_ev_state) whose changes the
	 * profile reports as EV_EVENTs; 0 (the default) reports none
	 */
	MRC_CTL_A_EVENT_MASK,
	MRC_CTL_A_EP_REQS,		/* nest of MRC_CTL_A_EP_REQ */
	MRC_CTL_A_EP_REQ,		/* nest of enum mrc_ctl_ep_attr */
	/*
	 * DEV_GET answers: the device's planes (its ports, port N being
	 * plane N - 1), one MRC_CTL_A_PLANE nest each in index order, with
	 * INDEX, UP and, unless the slot is empty, NETDEV, IFINDEX, ADMIN_UP
	 */
	MRC_CTL_A_PLANES,
	__MRC_CTL_A_MAX,
};

#define MRC_CTL_A_MAX (__MRC_CTL_A_MAX - 1)

enum mrc_ctl_ev_attr {
	MRC_CTL_EV_A_UNSPEC,
	MRC_CTL_EV_A_INDEX,		/* u32: position in the profile */
	MRC_CTL_EV_A_PLANE,		/* u32: plane (bond slave) index */
	MRC_CTL_EV_A_UDP_SPORT,		/* u16: UDP format */
	MRC_CTL_EV_A_SRV6,		/* binary, 16 bytes: SRv6 format */
	MRC_CTL_EV_A_STATE,		/* u8: enum mrc_ctl_ev_state */
	/*
	 * PATH_GET answers. USIDS: binary, the switch uSIDs of an SRv6 path
	 * as big-endian 16-bit words in the order the packet meets the
	 * switches (the locator block and the peer's own uSID come from its
	 * address). PROFILE_INDEX: the EV's index in the QP's profile.
	 */
	MRC_CTL_EV_A_USIDS,
	MRC_CTL_EV_A_PROFILE_INDEX,	/* u32 */
	MRC_CTL_EV_A_SENT,		/* u64: packets sprayed on it */
	MRC_CTL_EV_A_ACKED,		/* u64: of those, acknowledged */
	MRC_CTL_EV_A_LOST,		/* u64: losses and timeouts */
	MRC_CTL_EV_A_PROBES,		/* u64: probes sent on it */
	MRC_CTL_EV_A_PAD,
	MRC_CTL_EV_A_REASON,		/* u8: enum mrc_ctl_ev_reason */
	/*
	 * u32: EV_EVENTs of the device dropped (queue full) since the
	 * previous one sent
	 */
	MRC_CTL_EV_A_DROP_COUNT,
	__MRC_CTL_EV_A_MAX,
};

#define MRC_CTL_EV_A_MAX (__MRC_CTL_EV_A_MAX - 1)

/*
 * A generated profile is the cartesian product of its fields' ranges. Field
 * i is WIDTH bits wide; the fields are packed from the most significant bit
 * of the EV value (the IPv6 address, or the low bits of the UDP port). MASK
 * is one run of bits: the generated value v runs from MIN to MAX and is
 * placed at the mask's lowest bit, so the field holds
 * (INIT & ~MASK) | (v << ctz(MASK)). A field with MASK 0 is fixed at INIT.
 */
enum mrc_ctl_field_attr {
	MRC_CTL_FIELD_A_UNSPEC,
	MRC_CTL_FIELD_A_WIDTH,		/* u32: 1..32 bits */
	MRC_CTL_FIELD_A_INIT,		/* u32 */
	MRC_CTL_FIELD_A_MIN_VAL,	/* u32 */
	MRC_CTL_FIELD_A_MAX_VAL,	/* u32 */
	MRC_CTL_FIELD_A_MASK,		/* u32 */
	__MRC_CTL_FIELD_A_MAX,
};

#define MRC_CTL_FIELD_A_MAX (__MRC_CTL_FIELD_A_MAX - 1)

/*
 * A plane in PLANE_GET and DEV_GET answers. A plane is a slave of the
 * device's bond, or the device's own netdev; an index keeps its slot while
 * its slave is away, as an empty slot (no NETDEV, no IFINDEX, down). The
 * counters (PLANE_GET only) count from the device's creation, across the
 * slot's slaves.
 */
enum mrc_ctl_plane_attr {
	MRC_CTL_PLANE_A_UNSPEC,
	MRC_CTL_PLANE_A_INDEX,		/* u32: the plane index EVs name */
	MRC_CTL_PLANE_A_NETDEV,		/* string: its netdev; none if empty */
	MRC_CTL_PLANE_A_UP,		/* u8, 0 or 1: running, with carrier */
	MRC_CTL_PLANE_A_TX_PACKETS,	/* u64: packets sent on its netdev */
	/*
	 * u64: packets of the plane handed to the master's IP output
	 * instead, while the next hop was not resolved
	 */
	MRC_CTL_PLANE_A_TX_VIA_MASTER,
	MRC_CTL_PLANE_A_PAD,
	MRC_CTL_PLANE_A_IFINDEX,	/* u32: its netdev's ifindex */
	/* u8, 0 or 1: its netdev is administratively up (IFF_UP) */
	MRC_CTL_PLANE_A_ADMIN_UP,
	__MRC_CTL_PLANE_A_MAX,
};

#define MRC_CTL_PLANE_A_MAX (__MRC_CTL_PLANE_A_MAX - 1)

/*
 * Requests of one EP_PROBE at most (their nest's length is 16 bits); a
 * request's TIMEOUT at most.
 */
#define MRC_CTL_EP_MAX_REQS		512
#define MRC_CTL_EP_TIMEOUT_MAX_NS	10000000000ULL

/*
 * A connectionless probe (EP_PROBE): the request's attributes, then the
 * answer's. GIDs are 16 bytes, IPv6 or IPv4-mapped IPv6: SGID one of the
 * device's, DGID the peer's unicast address of the same family. The EV
 * nest names the plane the probe leaves on and its path: a UDP source
 * port, or an SRv6 container that ends with DGID's uSID.
 */
enum mrc_ctl_ep_attr {
	MRC_CTL_EP_A_UNSPEC,
	MRC_CTL_EP_A_REQ_ID,		/* u16: unique within the request */
	MRC_CTL_EP_A_SGID,		/* binary, 16 bytes */
	MRC_CTL_EP_A_DGID,		/* binary, 16 bytes */
	MRC_CTL_EP_A_EV,		/* nest of enum mrc_ctl_ev_attr */
	MRC_CTL_EP_A_DSCP,		/* u8, 0..63; default CTRL_DSCP */
	MRC_CTL_EP_A_TIMEOUT,		/* u64 ns, 1..EP_TIMEOUT_MAX_NS */
	/*
	 * answer: the plane the reply came back on (the responder sends it
	 * on the probe's plane when that one is up there)
	 */
	MRC_CTL_EP_A_PLANE,		/* u32 */
	MRC_CTL_EP_A_RTT,		/* u64 ns */
	/* flag: RTT has the responder's service time removed */
	MRC_CTL_EP_A_SVC_TIME_REMOVED,
	MRC_CTL_EP_A_PAD,
	/*
	 * EP_PORT_STATUS only (EP_PROBE refuses it): bit p set when the
	 * device's plane p (port p + 1) is up; bits below the device's plane
	 * count only, and one at least
	 */
	MRC_CTL_EP_A_PORT_STATUS,	/* u32 */
	__MRC_CTL_EP_A_MAX,
};

#define MRC_CTL_EP_A_MAX (__MRC_CTL_EP_A_MAX - 1)

/* The congestion control algorithm of CC profiles (OCP's name for it). */
#define MRC_CTL_CC_ALGORITHM	"uet-1.0-nscc"

/*
 * A CC profile (UET NSCC parameters; Documentation/congestion.rst). Times
 * are u64 nanoseconds, sizes u32 bytes, fractions u32 thousandths. CC_SET
 * changes the attributes it carries and keeps the others; the result must
 * pass the kernel's consistency check as a whole.
 */
enum mrc_ctl_cc_attr {
	MRC_CTL_CC_A_UNSPEC,
	MRC_CTL_CC_A_BASE_RTT,		/* u64 ns; 0: learn it */
	MRC_CTL_CC_A_TARGET_DELAY,	/* u64 ns */
	MRC_CTL_CC_A_QA_THRESHOLD,	/* u64 ns, >= TARGET_DELAY */
	MRC_CTL_CC_A_MTU,		/* u32 bytes: the window's unit */
	MRC_CTL_CC_A_MAX_CWND,		/* u32 bytes */
	MRC_CTL_CC_A_ETA,		/* u32 bytes */
	MRC_CTL_CC_A_FI,		/* u32 bytes */
	MRC_CTL_CC_A_FI_SCALE,		/* u32 thousandths */
	MRC_CTL_CC_A_PI,		/* u32 bytes; 0: derived from FI */
	MRC_CTL_CC_A_GAMMA,		/* u32 thousandths */
	MRC_CTL_CC_A_MAX_MD_JUMP,	/* u32 thousandths, 1..999 */
	MRC_CTL_CC_A_QA_GATE,		/* u32 shift, 0..31 */
	MRC_CTL_CC_A_DISABLE_QA,	/* u8, 0 or 1 */
	MRC_CTL_CC_A_PAD,
	__MRC_CTL_CC_A_MAX,
};

#define MRC_CTL_CC_A_MAX (__MRC_CTL_CC_A_MAX - 1)

/* Presets: real NICs (a new device's), and the emulated lab. */
#define MRC_CTL_PRESET_NIC	"nic"
#define MRC_CTL_PRESET_LAB	"lab"
#define MRC_CTL_PRESET_NAME_MAX	16	/* with the NUL */

/* DSCP codepoints are 6 bits. */
#define MRC_CTL_DSCP_MAX	63

#endif /* MRC_CTL_USER_H */
