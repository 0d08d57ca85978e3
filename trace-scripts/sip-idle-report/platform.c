// SPDX-License-Identifier: GPL-2.0
/*
 * The platform description written beside a trace by record.sh. Format
 * (design/analysis.md has the full text):
 *
 *	sip-platform 1
 *	platform x86-client
 *	latency_limit_us none
 *	tick_us 4000
 *	state 0 POLL 0 0 1200 0 enabled
 *	state 1 C1 2 2 600 0.5 enabled
 *
 * "state" fields: index name exit_latency_us target_residency_us power_mw
 * transition_uj enabled|disabled. Indices are 0, 1, ... in order. '#'
 * starts a comment. Anything else is an error naming the line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || *s == '-' || *s == '\0')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

static int parse_dbl(const char *s, double *v)
{
	char *end;

	if (!s || *s == '\0')
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || *end || !isfinite(*v) || *v < 0)
		return -1;
	return 0;
}

/* Names end up in CSV and JSON: keep them plain. */
#define NAME_CHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-"

/*
 * A token echoed in an error message, control and non-ASCII bytes shown as
 * '?' so that the message stays one printable line.
 */
static const char *shown(const char *tok, char *buf, size_t len)
{
	size_t i;

	for (i = 0; tok[i] && i + 1 < len; i++)
		buf[i] = tok[i] >= 0x20 && tok[i] < 0x7f ? tok[i] : '?';
	buf[i] = '\0';
	return buf;
}

/* microseconds to nanoseconds, refusing what does not fit */
static int us_to_ns(uint64_t us, uint64_t *ns)
{
	if (us > UINT64_MAX / 1000)
		return -1;
	*ns = us * 1000;
	return 0;
}

/**
 * sip_platform_load() - read a platform description
 * @path: the file
 * @plat: filled on success; left untouched on failure
 * @err: a one-line message on failure
 * @errlen: size of @err
 *
 * Return: 0, or -1 with errno set (the open error, or EINVAL for a malformed
 * file) and @err filled.
 */
int sip_platform_load(const char *path, struct sip_platform *plat,
		      char *err, size_t errlen)
{
	struct sip_platform p = { .present = true, .latency_limit_ns = SIP_NO_LIMIT };
	bool header = false, have_limit = false;
	char line[512], show[64];
	int lineno = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tok[10], *save = NULL, *c;
		int n = 0;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long", path, lineno);
			goto bad;
		}
		c = strchr(line, '#');
		if (c)
			*c = '\0';
		for (c = strtok_r(line, " \t\r\n", &save); c && n < 10;
		     c = strtok_r(NULL, " \t\r\n", &save))
			tok[n++] = c;
		if (!n)
			continue;
		if (!header) {
			if (n != 2 || strcmp(tok[0], "sip-platform") || strcmp(tok[1], "1")) {
				snprintf(err, errlen, "%s:%d: not a platform description (expected \"sip-platform 1\")",
					 path, lineno);
				goto bad;
			}
			header = true;
			continue;
		}
		if (!strcmp(tok[0], "platform") && n == 2) {
			if (strlen(tok[1]) >= sizeof(p.name) || tok[1][strspn(tok[1], NAME_CHARS)]) {
				snprintf(err, errlen, "%s:%d: platform name \"%s\": at most %zu letters, digits and _.+-",
					 path, lineno, shown(tok[1], show, sizeof(show)),
					 sizeof(p.name) - 1);
				goto bad;
			}
			strcpy(p.name, tok[1]);
		} else if (!strcmp(tok[0], "latency_limit_us") && n == 2) {
			uint64_t us;

			have_limit = true;
			if (!strcmp(tok[1], "none")) {
				p.latency_limit_ns = SIP_NO_LIMIT;
			} else if (parse_u64(tok[1], &us) || us_to_ns(us, &p.latency_limit_ns)) {
				snprintf(err, errlen, "%s:%d: latency_limit_us: not a number of microseconds or \"none\"",
					 path, lineno);
				goto bad;
			}
		} else if (!strcmp(tok[0], "tick_us") && n == 2) {
			uint64_t us;

			if (parse_u64(tok[1], &us) || us_to_ns(us, &p.tick_ns)) {
				snprintf(err, errlen, "%s:%d: tick_us: not a number", path, lineno);
				goto bad;
			}
		} else if (!strcmp(tok[0], "state") && n == 8) {
			struct sip_state_desc *s;
			uint64_t idx, lat, res;

			if (parse_u64(tok[1], &idx) || idx != (uint64_t)p.nr_states) {
				snprintf(err, errlen, "%s:%d: state index %s out of order (expected %d)",
					 path, lineno, shown(tok[1], show, sizeof(show)), p.nr_states);
				goto bad;
			}
			if (p.nr_states >= SIP_MAX_STATES) {
				snprintf(err, errlen, "%s:%d: more than %d states", path, lineno,
					 SIP_MAX_STATES);
				goto bad;
			}
			s = &p.states[p.nr_states];
			if (strlen(tok[2]) >= sizeof(s->name)) {
				snprintf(err, errlen, "%s:%d: state name too long", path, lineno);
				goto bad;
			}
			if (tok[2][strspn(tok[2], NAME_CHARS)]) {
				snprintf(err, errlen, "%s:%d: state name \"%s\": only letters, digits and _.+-",
					 path, lineno, shown(tok[2], show, sizeof(show)));
				goto bad;
			}
			strcpy(s->name, tok[2]);
			if (parse_u64(tok[3], &lat) || us_to_ns(lat, &s->exit_latency_ns) ||
			    parse_u64(tok[4], &res) || us_to_ns(res, &s->target_residency_ns) ||
			    parse_dbl(tok[5], &s->power_mw) || parse_dbl(tok[6], &s->transition_uj)) {
				snprintf(err, errlen, "%s:%d: state: expected index name exit_latency_us target_residency_us power_mw transition_uj enabled|disabled",
					 path, lineno);
				goto bad;
			}
			if (!strcmp(tok[7], "disabled")) {
				s->disabled = true;
			} else if (strcmp(tok[7], "enabled")) {
				snprintf(err, errlen, "%s:%d: state: last field must be enabled or disabled",
					 path, lineno);
				goto bad;
			}
			p.nr_states++;
		} else {
			snprintf(err, errlen, "%s:%d: unknown or malformed line \"%s\"", path, lineno,
				 shown(tok[0], show, sizeof(show)));
			goto bad;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto bad;
	}
	if (!header) {
		snprintf(err, errlen, "%s: empty, not a platform description", path);
		goto bad;
	}
	if (!p.nr_states) {
		snprintf(err, errlen, "%s: no state lines", path);
		goto bad;
	}
	if (!have_limit) {
		snprintf(err, errlen, "%s: no latency_limit_us line", path);
		goto bad;
	}
	fclose(f);
	*plat = p;
	return 0;
bad:
	fclose(f);
	errno = EINVAL;
	return -1;
}
