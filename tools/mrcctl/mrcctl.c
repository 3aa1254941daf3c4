// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrcctl: the path controller's command line. It programs an mrc device's
 * EV profiles, denies or allows single EVs, sets the device's spraying,
 * DSCPs and CC profile, and lists every connection's EV states and the
 * device's planes, over the "mrc" generic netlink family
 * (include/uapi/rdma/mrc-ctl.h, Documentation/controller.rst).
 *
 * It parses arguments and prints answers; every request and answer goes
 * through lib_mrc's netlink layer (rdma-core-provider/lib_mrc/
 * mrc_ctl_nl.h, linked from libmrc_nl.a), the one the controller API
 * mrc_ctl.h speaks through too.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrc_ctl_nl.h"

#define MAX_EVS		MRC_NL_MAX_EVS
#define MAX_FIELDS	MRC_NL_MAX_FIELDS

static const char *usage_text =
"usage:\n"
"  mrcctl dev [show [DEV]]\n"
"  mrcctl dev DEV show\n"
"  mrcctl dev DEV ports\n"
"  mrcctl dev DEV set [preset nic|lab] [spray on|off] [data-dscp N]\n"
"                     [ctrl-dscp N] [txq N] [cc-rtt departure|build]\n"
"  mrcctl profile add DEV ID format udp|srv6 [peer ADDR] [default]\n"
"                 [min-active N] [replace] EVS\n"
"      EVS: ev PLANE:VALUE...       explicit EVs (VALUE: a UDP source\n"
"                                   port, or an SRv6 uSID container)\n"
"           evs-from FILE|-         explicit EVs, one 'PLANE VALUE' a line\n"
"           gen [planes P,P...] field WIDTH:INIT:MIN:MAX:MASK...\n"
"  mrcctl profile del DEV ID\n"
"  mrcctl profile show DEV\n"
"  mrcctl ev show DEV ID\n"
"  mrcctl ev deny|allow DEV ID INDEX|PLANE:VALUE\n"
"  mrcctl paths DEV [peer ADDR]\n"
"  mrcctl planes DEV\n"
"  mrcctl probe DEV SRC DST [timeout T] [dscp N] PLANE:VALUE...\n"
"      connectionless EV probes from SRC (an address of DEV) to DST, one\n"
"      per EV (VALUE: a UDP source port, or an SRv6 uSID container), all\n"
"      waited for up to T (ns, or with a unit; default 1s); prints each\n"
"      answer in arrival order (request ids count from 1)\n"
"  mrcctl cc DEV show|enable|disable|reset\n"
"  mrcctl cc DEV set PARAM VALUE|PARAM=VALUE...\n"
"      PARAM: base_rtt target_delay qa_threshold (ns, or with a unit:\n"
"             ns us ms s), mtu max_cwnd eta fi pi (bytes), fi_scale\n"
"             gamma max_md_jump (thousandths), qa_gate, disable_qa 0|1\n"
"             ('-' for '_' also accepted)\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	exit(2);
}

static void die(const char *what)
{
	fprintf(stderr, "mrcctl: %s\n", what);
	exit(1);
}

/* A refused or failed request: its errno, and the kernel's reason. */
static void check(const struct mrc_nl *nl, int err)
{
	if (!err)
		return;
	fprintf(stderr, "mrcctl: %s%s%s\n", strerror(err),
		nl->why[0] ? ": " : "", nl->why);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* Parsing the command line                                            */
/* ------------------------------------------------------------------ */

static unsigned long parse_ulong(const char *s, unsigned long max,
				 const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > max || *s == '-') {
		fprintf(stderr, "mrcctl: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* "PLANE:VALUE" or PLANE and VALUE apart; VALUE per the format. */
static void parse_ev_value(const char *plane, const char *value, int format,
			   struct mrc_nl_ev *ev)
{
	ev->plane = parse_ulong(plane, MRC_NL_MAX_PLANES - 1, "plane");
	ev->format = format;
	if (format == MRC_NL_FMT_UDP) {
		ev->udp_sport = parse_ulong(value, 65535, "UDP source port");
	} else if (inet_pton(AF_INET6, value, ev->srv6) != 1) {
		fprintf(stderr, "mrcctl: bad SRv6 address '%s'\n", value);
		exit(2);
	}
}

static void parse_ev(const char *arg, int format, struct mrc_nl_ev *ev)
{
	char plane[16];
	const char *colon = strchr(arg, ':');

	if (!colon || colon - arg >= (long)sizeof(plane)) {
		fprintf(stderr, "mrcctl: '%s' is not PLANE:VALUE\n", arg);
		exit(2);
	}
	memcpy(plane, arg, colon - arg);
	plane[colon - arg] = 0;
	parse_ev_value(plane, colon + 1, format, ev);
}

/* Lines of "PLANE VALUE [anything]"; '#' starts a comment. */
static int read_evs(const char *path, int format, struct mrc_nl_ev *evs)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[512], plane[64], value[128];
	int n = 0;

	if (!f) {
		fprintf(stderr, "mrcctl: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = 0;
		if (sscanf(line, "%63s %127s", plane, value) != 2)
			continue;
		if (n == MAX_EVS)
			die("more than 1024 EVs");
		parse_ev_value(plane, value, format, &evs[n++]);
	}
	if (f != stdin)
		fclose(f);
	return n;
}

static void parse_field(const char *arg, struct mrc_nl_field *f)
{
	unsigned long v[5];
	char copy[128], *tok, *save = NULL;
	int i = 0;

	snprintf(copy, sizeof(copy), "%s", arg);
	for (tok = strtok_r(copy, ":", &save); tok && i < 5;
	     tok = strtok_r(NULL, ":", &save))
		v[i++] = parse_ulong(tok, UINT32_MAX, "field value");
	if (i != 5 || tok) {
		fprintf(stderr, "mrcctl: field '%s' is not WIDTH:INIT:MIN:MAX:MASK\n",
			arg);
		exit(2);
	}
	*f = (struct mrc_nl_field){ v[0], v[1], v[2], v[3], v[4] };
}

static uint32_t parse_planes(const char *arg)
{
	char copy[128], *tok, *save = NULL;
	uint32_t mask = 0;

	snprintf(copy, sizeof(copy), "%s", arg);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		mask |= 1u << parse_ulong(tok, MRC_NL_MAX_PLANES - 1, "plane");
	return mask;
}

static int parse_format(const char *s)
{
	if (!strcmp(s, "udp"))
		return MRC_NL_FMT_UDP;
	if (!strcmp(s, "srv6"))
		return MRC_NL_FMT_SRV6;
	fprintf(stderr, "mrcctl: format is udp or srv6, not '%s'\n", s);
	exit(2);
}

/* IPv4 peers are IPv4-mapped IPv6, as GIDs hold them. */
static void parse_peer(const char *s, uint8_t peer[16])
{
	struct in_addr a4;

	if (inet_pton(AF_INET, s, &a4) == 1) {
		memset(peer, 0, 16);
		peer[10] = 0xff;
		peer[11] = 0xff;
		memcpy(&peer[12], &a4, 4);
	} else if (inet_pton(AF_INET6, s, peer) != 1) {
		fprintf(stderr, "mrcctl: bad peer address '%s'\n", s);
		exit(2);
	}
}

static bool parse_on_off(const char *s, const char *what)
{
	if (!strcmp(s, "on"))
		return true;
	if (!strcmp(s, "off"))
		return false;
	fprintf(stderr, "mrcctl: %s is on or off, not '%s'\n", what, s);
	exit(2);
}

/* cc-rtt: where NSCC's RTT samples start; true for "build". */
static bool parse_rtt_start(const char *s)
{
	if (!strcmp(s, "build"))
		return true;
	if (!strcmp(s, "departure"))
		return false;
	fprintf(stderr, "mrcctl: cc-rtt is departure or build, not '%s'\n",
		s);
	exit(2);
}

/* Nanoseconds, from a number with an optional unit: ns, us, ms, s. */
static uint64_t parse_time_ns(const char *s, const char *what)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!errno && end != s && *s != '-') {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].unit) &&
			    v <= UINT64_MAX / units[i].ns)
				return v * units[i].ns;
	}
	fprintf(stderr, "mrcctl: bad %s '%s' (a time: N[ns|us|ms|s])\n", what,
		s);
	exit(2);
}

/* ------------------------------------------------------------------ */
/* Printing answers                                                    */
/* ------------------------------------------------------------------ */

static const char *format_name(int format)
{
	return format == MRC_NL_FMT_UDP ? "udp" :
	       format == MRC_NL_FMT_SRV6 ? "srv6" : "?";
}

static const char *state_name(int state)
{
	switch (state) {
	case MRC_NL_EV_GOOD:
		return "GOOD";
	case MRC_NL_EV_ASSUMED_BAD:
		return "ASSUMED_BAD";
	case MRC_NL_EV_DENIED:
		return "DENIED";
	default:
		return "UNKNOWN";
	}
}

static void print_addr(const uint8_t a[16])
{
	char text[INET6_ADDRSTRLEN];
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

	if (!memcmp(a, v4mapped, sizeof(v4mapped)))
		inet_ntop(AF_INET, a + 12, text, sizeof(text));
	else
		inet_ntop(AF_INET6, a, text, sizeof(text));
	fputs(text, stdout);
}

static int print_dev(const struct mrc_nl_dev *d, void *arg)
{
	(void)arg;
	if (!d->name[0])
		return 0;
	printf("%s netdev %s planes %u", d->name, d->netdev, d->num_planes);
	if (d->has & MRC_NL_DEV_DEFAULT_PROFILE)
		printf(" default-profile %u", d->default_profile);
	if (d->has & MRC_NL_DEV_PRESET)
		printf(" preset %s", d->preset);
	if (d->has & MRC_NL_DEV_SINGLE_PATH)
		printf(" spray %s", d->single_path ? "off" : "on");
	if (d->has & MRC_NL_DEV_DATA_DSCP)
		printf(" data-dscp %u", d->data_dscp);
	if (d->has & MRC_NL_DEV_CTRL_DSCP)
		printf(" ctrl-dscp %u", d->ctrl_dscp);
	if (d->has & MRC_NL_DEV_TXQ_PACKETS)
		printf(" txq %u", d->txq_packets);
	if (d->has & MRC_NL_DEV_CC_RTT_FROM_BUILD)
		printf(" cc-rtt %s",
		       d->cc_rtt_from_build ? "build" : "departure");
	if (d->has & MRC_NL_DEV_CC_ENABLED)
		printf(" cc %s", d->cc_enabled ? "on" : "off");
	putchar('\n');
	return 0;
}

/*
 * "dev DEV ports": a line per port of the controller API (port N is plane
 * N - 1), from DEV_GET's PLANES nest; "-" is an empty slot's netdev. Kept
 * out of the device line, whose whole text scripts compare.
 */
static int print_ports(const struct mrc_nl_dev *d, void *arg)
{
	uint32_t i;

	(void)arg;
	if (!d->has_planes)
		return EOPNOTSUPP;	/* a kernel that does not name them */
	for (i = 0; i < d->num_plane_info; i++) {
		const struct mrc_nl_dev_plane *pl = &d->planes[i];

		if (!pl->netdev[0]) {
			printf("port %u plane %u netdev - state down\n", i + 1,
			       i);
			continue;
		}
		printf("port %u plane %u netdev %s ifindex %u admin %s state %s\n",
		       i + 1, i, pl->netdev, pl->ifindex,
		       pl->admin_up ? "up" : "down", pl->up ? "up" : "down");
	}
	return 0;
}

static int print_profile(const struct mrc_nl_profile *p, void *arg)
{
	uint32_t i;

	(void)arg;
	printf("profile %u format %s mode %s evs %u min-active %u", p->id,
	       format_name(p->format),
	       p->mode == MRC_NL_MODE_GENERATED ? "generated" : "explicit",
	       p->num_evs, p->min_active);
	if (p->has_peer) {
		fputs(" peer ", stdout);
		print_addr(p->peer);
	}
	if (p->is_default)
		fputs(" default", stdout);
	if (!p->plane_mask_unset)
		printf(" plane-mask 0x%x", p->plane_mask);
	for (i = 0; i < p->num_fields; i++)
		printf(" field %u:0x%x:%u:%u:0x%x", p->fields[i].width,
		       p->fields[i].init, p->fields[i].min, p->fields[i].max,
		       p->fields[i].mask);
	putchar('\n');
	return 0;
}

static int print_ev(const struct mrc_nl_ev *ev, void *arg)
{
	(void)arg;
	printf("%u plane %u ", ev->index, ev->plane);
	if (ev->format == MRC_NL_FMT_UDP)
		printf("%u", ev->udp_sport);
	else
		print_addr(ev->srv6);
	printf(" %s\n", state_name(ev->state));
	return 0;
}

struct paths_print {
	uint32_t last_qpn;
	bool any;
};

/* A QP line when the QP changes, then one line per EV. */
static int print_path(const struct mrc_nl_path *path, void *arg)
{
	struct paths_print *pp = arg;
	uint32_t k;

	if (!pp->any || path->qpn != pp->last_qpn) {
		printf("qp %u dest-qp %u", path->qpn, path->dest_qpn);
		if (path->has_peer) {
			fputs(" peer ", stdout);
			print_addr(path->peer);
		}
		printf(" profile %u\n", path->profile_id);
		pp->last_qpn = path->qpn;
		pp->any = true;
	}
	printf("  ev %u plane %u", path->ev.index, path->ev.plane);
	if (path->ev.format == MRC_NL_FMT_UDP)
		printf(" udp %u", path->ev.udp_sport);
	else
		for (k = 0; k < path->num_usids; k++)
			printf("%s%x", k ? "," : " usids ", path->usids[k]);
	if (path->has_profile_index)
		printf(" profile-ev %u", path->profile_index);
	printf(" state %s sent %" PRIu64 " acked %" PRIu64 " lost %" PRIu64
	       " probes %" PRIu64 "\n", state_name(path->ev.state),
	       path->sent, path->acked, path->lost, path->probes);
	return 0;
}

/* One line per plane; "-" for the netdev of an empty slot. */
static int print_plane(const struct mrc_nl_plane *plane, void *arg)
{
	(void)arg;
	printf("plane %u netdev %s state %s tx %" PRIu64 " via-master %" PRIu64
	       "\n", plane->index, plane->lower[0] ? plane->lower : "-",
	       plane->up ? "up" : "down", plane->tx_packets,
	       plane->tx_via_master);
	return 0;
}

/* The CC parameters by name, in the order they are shown. */
enum cc_kind { CC_TIME, CC_U32, CC_BOOL };

static const struct cc_param {
	const char *name;
	int attr;
	enum cc_kind kind;
} cc_params[] = {
	{ "base_rtt", MRC_NL_CC_BASE_RTT, CC_TIME },
	{ "target_delay", MRC_NL_CC_TARGET_DELAY, CC_TIME },
	{ "qa_threshold", MRC_NL_CC_QA_THRESHOLD, CC_TIME },
	{ "mtu", MRC_NL_CC_MTU, CC_U32 },
	{ "max_cwnd", MRC_NL_CC_MAX_CWND, CC_U32 },
	{ "eta", MRC_NL_CC_ETA, CC_U32 },
	{ "fi", MRC_NL_CC_FI, CC_U32 },
	{ "fi_scale", MRC_NL_CC_FI_SCALE, CC_U32 },
	{ "pi", MRC_NL_CC_PI, CC_U32 },
	{ "gamma", MRC_NL_CC_GAMMA, CC_U32 },
	{ "max_md_jump", MRC_NL_CC_MAX_MD_JUMP, CC_U32 },
	{ "qa_gate", MRC_NL_CC_QA_GATE, CC_U32 },
	{ "disable_qa", MRC_NL_CC_DISABLE_QA, CC_BOOL },
};

#define N_CC_PARAMS (sizeof(cc_params) / sizeof(cc_params[0]))

/* "DEV cc on|off algorithm A name=value...": set's own syntax. */
static void print_cc(const struct mrc_nl_cc_state *st)
{
	uint64_t v;
	size_t i;

	printf("%s cc %s algorithm %s", st->dev[0] ? st->dev : "?",
	       st->enabled ? "on" : "off",
	       st->algorithm[0] ? st->algorithm : "?");
	for (i = 0; i < N_CC_PARAMS; i++)
		if (mrc_nl_cc_param_get(&st->cc, cc_params[i].attr, &v))
			printf(" %s=%" PRIu64, cc_params[i].name, v);
	putchar('\n');
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */
/* ------------------------------------------------------------------ */

static void dev_show(struct mrc_nl *nl, const char *dev)
{
	check(nl, mrc_nl_dev_list(nl, dev, print_dev, NULL));
}

/*
 * "set" followed by settings: preset NAME, spray on|off, data-dscp N,
 * ctrl-dscp N, txq N, cc-rtt departure|build. The kernel checks the preset
 * name and the DSCP and txq ranges, so that its error is the one reported.
 */
static void dev_set(struct mrc_nl *nl, const char *dev, int argc, char **argv)
{
	struct mrc_nl_dev_set set = { 0 };
	int i;

	if (!argc)
		usage();
	for (i = 0; i < argc; i += 2) {
		const char *key = argv[i], *value = argv[i + 1];

		if (i + 1 == argc) {
			fprintf(stderr, "mrcctl: '%s' needs a value\n", key);
			usage();
		}
		if (!strcmp(key, "preset")) {
			set.has |= MRC_NL_DEV_PRESET;
			set.preset = value;
		} else if (!strcmp(key, "spray")) {
			set.has |= MRC_NL_DEV_SINGLE_PATH;
			set.single_path = !parse_on_off(value, "spray");
		} else if (!strcmp(key, "data-dscp")) {
			set.has |= MRC_NL_DEV_DATA_DSCP;
			set.data_dscp = parse_ulong(value, 255, "DSCP");
		} else if (!strcmp(key, "ctrl-dscp")) {
			set.has |= MRC_NL_DEV_CTRL_DSCP;
			set.ctrl_dscp = parse_ulong(value, 255, "DSCP");
		} else if (!strcmp(key, "txq")) {
			set.has |= MRC_NL_DEV_TXQ_PACKETS;
			set.txq_packets = parse_ulong(value, UINT32_MAX,
						      "packets");
		} else if (!strcmp(key, "cc-rtt")) {
			set.has |= MRC_NL_DEV_CC_RTT_FROM_BUILD;
			set.cc_rtt_from_build = parse_rtt_start(value);
		} else {
			fprintf(stderr, "mrcctl: no device setting '%s'\n",
				key);
			usage();
		}
	}
	check(nl, mrc_nl_dev_set(nl, dev, &set));
}

/*
 * dev [show [DEV]] | dev DEV show | dev DEV ports | dev DEV set ... |
 * dev set DEV ...
 * (a device named "show", "ports" or "set" is only reachable the first
 * way).
 */
static int cmd_dev(struct mrc_nl *nl, int argc, char **argv)
{
	if (!argc) {
		dev_show(nl, NULL);
	} else if (!strcmp(argv[0], "show")) {
		if (argc > 2)
			usage();
		dev_show(nl, argc == 2 ? argv[1] : NULL);
	} else if (!strcmp(argv[0], "set")) {
		if (argc < 2)
			usage();
		dev_set(nl, argv[1], argc - 2, argv + 2);
	} else if (argc == 2 && !strcmp(argv[1], "show")) {
		dev_show(nl, argv[0]);
	} else if (argc == 2 && !strcmp(argv[1], "ports")) {
		check(nl, mrc_nl_dev_list(nl, argv[0], print_ports, NULL));
	} else if (argc >= 2 && !strcmp(argv[1], "set")) {
		dev_set(nl, argv[0], argc - 2, argv + 2);
	} else {
		usage();
	}
	return 0;
}

static int profile_add(struct mrc_nl *nl, int argc, char **argv)
{
	static struct mrc_nl_ev evs[MAX_EVS];
	const char *peer = NULL, *planes = NULL;
	const char *fields[MAX_FIELDS];
	struct mrc_nl_profile p = { 0 };
	int format = 0, nevs = 0, nfields = 0, i;
	bool gen = false;
	long min_active = -1;

	if (argc < 2)
		usage();
	p.id = parse_ulong(argv[1], MRC_NL_PROFILE_ID_MAX, "profile id");
	for (i = 2; i < argc; i++) {
		const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] :
									NULL;

		if (!strcmp(arg, "format") && next) {
			format = parse_format(next);
			i++;
		} else if (!strcmp(arg, "peer") && next) {
			peer = next;
			i++;
		} else if (!strcmp(arg, "min-active") && next) {
			min_active = parse_ulong(next, MAX_EVS, "min-active");
			i++;
		} else if (!strcmp(arg, "default")) {
			p.is_default = true;
		} else if (!strcmp(arg, "replace")) {
			p.replace = true;
		} else if (!strcmp(arg, "ev") && next && format) {
			for (i++; i < argc && strchr(argv[i], ':') &&
			     strcmp(argv[i], "gen"); i++) {
				if (nevs == MAX_EVS)
					die("more than 1024 EVs");
				parse_ev(argv[i], format, &evs[nevs++]);
			}
			i--;
		} else if (!strcmp(arg, "evs-from") && next && format) {
			nevs = read_evs(next, format, evs);
			i++;
		} else if (!strcmp(arg, "gen")) {
			gen = true;
		} else if (!strcmp(arg, "planes") && next && gen) {
			planes = next;
			i++;
		} else if (!strcmp(arg, "field") && next && gen) {
			if (nfields == MAX_FIELDS)
				die("at most 8 fields");
			fields[nfields++] = next;
			i++;
		} else {
			fprintf(stderr, "mrcctl: unexpected '%s' (format comes before EVs)\n",
				arg);
			usage();
		}
	}
	if (!format || (gen ? !nfields : !nevs))
		usage();

	p.format = format;
	p.mode = gen ? MRC_NL_MODE_GENERATED : MRC_NL_MODE_EXPLICIT;
	p.min_active_unset = min_active < 0;
	if (!p.min_active_unset)
		p.min_active = min_active;
	if (peer) {
		parse_peer(peer, p.peer);
		p.has_peer = true;
	}
	if (gen) {
		p.plane_mask_unset = !planes;
		if (planes)
			p.plane_mask = parse_planes(planes);
		p.num_fields = nfields;
		for (i = 0; i < nfields; i++)
			parse_field(fields[i], &p.fields[i]);
	} else {
		p.num_evs = nevs;
		p.evs = evs;
	}
	check(nl, mrc_nl_profile_new(nl, argv[0], &p));
	return 0;
}

static int cmd_profile(struct mrc_nl *nl, int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[0], "add"))
		return profile_add(nl, argc - 1, argv + 1);
	if (!strcmp(argv[0], "del") && argc == 3) {
		check(nl, mrc_nl_profile_del(nl, argv[1],
					     parse_ulong(argv[2],
							 MRC_NL_PROFILE_ID_MAX,
							 "profile id")));
		return 0;
	}
	if (!strcmp(argv[0], "show") && argc == 2) {
		check(nl, mrc_nl_profile_list(nl, argv[1], print_profile,
					      NULL));
		return 0;
	}
	usage();
	return 2;
}

static int cmd_ev(struct mrc_nl *nl, int argc, char **argv)
{
	struct mrc_nl_ev ev = { 0 };
	uint32_t id;
	bool deny;

	if (argc < 3)
		usage();
	id = parse_ulong(argv[2], MRC_NL_PROFILE_ID_MAX, "profile id");
	if (!strcmp(argv[0], "show") && argc == 3) {
		check(nl, mrc_nl_ev_list(nl, argv[1], id, print_ev, NULL));
		return 0;
	}
	deny = !strcmp(argv[0], "deny");
	if ((!deny && strcmp(argv[0], "allow")) || argc != 4)
		usage();

	if (strchr(argv[3], ':')) {
		/* By value: the kernel reads it in the profile's format. */
		struct in6_addr probe;
		const char *value = strchr(argv[3], ':') + 1;
		int format = inet_pton(AF_INET6, value, &probe) == 1 ?
			     MRC_NL_FMT_SRV6 : MRC_NL_FMT_UDP;

		parse_ev(argv[3], format, &ev);
	} else {
		ev.index = parse_ulong(argv[3], MAX_EVS - 1, "EV index");
	}
	check(nl, mrc_nl_ev_set(nl, argv[1], id, &ev,
				deny ? MRC_NL_EV_DENIED : MRC_NL_EV_GOOD));
	return 0;
}

static int cmd_paths(struct mrc_nl *nl, int argc, char **argv)
{
	struct paths_print pp = { 0 };
	uint8_t peer[16];

	if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "peer")))
		usage();
	if (argc == 3)
		parse_peer(argv[2], peer);
	check(nl, mrc_nl_path_list(nl, argv[0], argc == 3 ? peer : NULL,
				   print_path, &pp));
	return 0;
}

static int cmd_planes(struct mrc_nl *nl, int argc, char **argv)
{
	if (argc != 1)
		usage();
	check(nl, mrc_nl_plane_list(nl, argv[0], print_plane, NULL));
	return 0;
}

static const struct cc_param *find_cc_param(const char *name, size_t len)
{
	char canon[32];
	size_t i;

	if (len >= sizeof(canon))
		return NULL;
	for (i = 0; i < len; i++)
		canon[i] = name[i] == '-' ? '_' : name[i];
	canon[len] = 0;
	for (i = 0; i < N_CC_PARAMS; i++)
		if (!strcmp(canon, cc_params[i].name))
			return &cc_params[i];
	return NULL;
}

/* PARAM VALUE or PARAM=VALUE pairs into @cc. */
static void parse_cc_params(int argc, char **argv, struct mrc_nl_cc *cc)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		const struct cc_param *param = find_cc_param(argv[i], len);
		const char *value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
		uint64_t v;

		if (!param) {
			fprintf(stderr, "mrcctl: no CC parameter '%.*s'\n",
				(int)len, argv[i]);
			usage();
		}
		if (!value) {
			fprintf(stderr, "mrcctl: %s needs a value\n", param->name);
			usage();
		}
		if (param->kind == CC_TIME)
			v = parse_time_ns(value, param->name);
		else if (param->kind == CC_U32)
			v = parse_ulong(value, UINT32_MAX, param->name);
		else
			v = parse_ulong(value, 255, param->name);
		/* Each kind's range is its attribute's width. */
		if (mrc_nl_cc_param_set(cc, param->attr, v))
			abort();
	}
}

/* cc DEV show|enable|disable|reset|set ...; also cc show|... DEV. */
static int cmd_cc(struct mrc_nl *nl, int argc, char **argv)
{
	static const char *const verbs[] = {
		"show", "enable", "disable", "reset", "set",
	};
	struct mrc_nl_cc_state st;
	struct mrc_nl_cc cc = { 0 };
	const char *dev, *verb;
	size_t i;

	if (argc < 2)
		usage();
	dev = argv[0];
	verb = argv[1];
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(argv[0], verbs[i])) {
			dev = argv[1];
			verb = argv[0];
		}
	argc -= 2;
	argv += 2;

	if (!strcmp(verb, "show") && !argc) {
		check(nl, mrc_nl_cc_get(nl, dev, &st));
		print_cc(&st);
	} else if ((!strcmp(verb, "enable") || !strcmp(verb, "disable")) &&
		   !argc) {
		check(nl, mrc_nl_cc_set(nl, dev, NULL, verb[0] == 'e', false));
	} else if (!strcmp(verb, "reset") && !argc) {
		check(nl, mrc_nl_cc_set(nl, dev, NULL, -1, true));
	} else if (!strcmp(verb, "set") && argc) {
		parse_cc_params(argc, argv, &cc);
		check(nl, mrc_nl_cc_set(nl, dev, &cc, -1, false));
	} else {
		usage();
	}
	return 0;
}

/* An IPv6 or IPv4 address as a GID: IPv4 is IPv4-mapped. */
static void parse_gid(const char *s, uint8_t gid[16])
{
	struct in_addr v4;

	memset(gid, 0, 16);
	if (inet_pton(AF_INET6, s, gid) == 1)
		return;
	if (inet_pton(AF_INET, s, &v4) != 1) {
		fprintf(stderr, "mrcctl: bad address '%s'\n", s);
		exit(2);
	}
	gid[10] = 0xff;
	gid[11] = 0xff;
	memcpy(gid + 12, &v4, 4);
}

static int cmd_probe(struct mrc_nl *nl, int argc, char **argv)
{
	static struct mrc_nl_ep_req reqs[MRC_NL_EP_MAX_REQS];
	static struct mrc_nl_ep_rsp rsp[MRC_NL_EP_MAX_REQS];
	uint64_t timeout = 1000000000ULL;
	uint8_t src[16], dst[16];
	bool has_dscp = false;
	uint32_t n = 0, got, i;
	uint8_t dscp = 0;
	int a = 3;

	if (argc < 4)
		usage();
	parse_gid(argv[1], src);
	parse_gid(argv[2], dst);
	for (; a + 1 < argc && !strchr(argv[a], ':'); a += 2) {
		if (!strcmp(argv[a], "timeout")) {
			timeout = parse_time_ns(argv[a + 1], "timeout");
		} else if (!strcmp(argv[a], "dscp")) {
			dscp = parse_ulong(argv[a + 1], 63, "DSCP");
			has_dscp = true;
		} else {
			usage();
		}
	}
	for (; a < argc; a++) {
		struct in6_addr probe;
		const char *colon = strchr(argv[a], ':');

		if (n == MRC_NL_EP_MAX_REQS || !colon)
			usage();
		reqs[n].req_id = n + 1;
		memcpy(reqs[n].sgid, src, 16);
		memcpy(reqs[n].dgid, dst, 16);
		parse_ev(argv[a], inet_pton(AF_INET6, colon + 1, &probe) == 1 ?
			 MRC_NL_FMT_SRV6 : MRC_NL_FMT_UDP, &reqs[n].ev);
		reqs[n].has_dscp = has_dscp;
		reqs[n].dscp = dscp;
		reqs[n].timeout_ns = timeout;
		n++;
	}
	if (!n)
		usage();
	check(nl, mrc_nl_ep_probe(nl, argv[0], reqs, n, rsp, &got));
	for (i = 0; i < got; i++)
		printf("probe %u plane %u rtt %llu%s\n", rsp[i].req_id,
		       rsp[i].plane, (unsigned long long)rsp[i].rtt_ns,
		       rsp[i].svc_time_removed ? " svc-removed" : "");
	printf("answered %u of %u\n", got, n);
	return 0;
}

int main(int argc, char **argv)
{
	struct mrc_nl *nl;
	int err;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage();
	err = mrc_nl_open(&nl);
	if (err == ENOENT)
		die("the mrc module is not loaded (no \"mrc\" generic netlink family)");
	if (err)
		die(strerror(err));
	if (!strcmp(argv[1], "dev"))
		err = cmd_dev(nl, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "profile"))
		err = cmd_profile(nl, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "ev"))
		err = cmd_ev(nl, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "paths"))
		err = cmd_paths(nl, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "planes"))
		err = cmd_planes(nl, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "cc"))
		err = cmd_cc(nl, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "probe"))
		err = cmd_probe(nl, argc - 2, argv + 2);
	else
		usage();
	mrc_nl_close(nl);
	return err;
}
