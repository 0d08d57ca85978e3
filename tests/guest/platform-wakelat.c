// SPDX-License-Identifier: GPL-2.0
/*
 * platform-wakelat - timer wake-up latency probe
 *
 * usage: platform-wakelat <sleep_us> <count> [cpu]
 *
 * Sleeps <count> times until an absolute CLOCK_MONOTONIC deadline <sleep_us>
 * in the future and records by how much each wake-up overshot the deadline:
 * the hrtimer's interrupt latency, plus the idle state's exit latency, plus
 * the scheduling of the woken task. The timer slack is set to 1 ns so the
 * kernel does not defer the expiry on purpose. With [cpu] the probe is
 * pinned to that CPU.
 *
 * Prints one line: n=<count> min_ns= p10_ns= median_ns= p90_ns= max_ns=
 * mean_ns=. Exit status 2 on bad arguments, 1 on a failed system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

static long long ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long parse(const char *s, const char *what, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "platform-wakelat: %s \"%s\" not in [%ld, %ld]\n",
			what, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long sleep_us, count, i;
	long long *lat, sum = 0;
	struct timespec now, dl;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: platform-wakelat <sleep_us> <count> [cpu]\n");
		return 2;
	}
	sleep_us = parse(argv[1], "sleep_us", 1, 10000000);
	count = parse(argv[2], "count", 1, 1000000);
	if (argc == 4) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(parse(argv[3], "cpu", 0, CPU_SETSIZE - 1), &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("platform-wakelat: sched_setaffinity");
			return 1;
		}
	}
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0))
		perror("platform-wakelat: PR_SET_TIMERSLACK");

	lat = calloc(count, sizeof(*lat));
	if (!lat) {
		perror("platform-wakelat: calloc");
		return 1;
	}
	for (i = 0; i < count; i++) {
		int err;

		clock_gettime(CLOCK_MONOTONIC, &dl);
		dl.tv_nsec += sleep_us * 1000;
		dl.tv_sec += dl.tv_nsec / 1000000000;
		dl.tv_nsec %= 1000000000;
		do {
			err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					      &dl, NULL);
		} while (err == EINTR);
		if (err) {
			fprintf(stderr, "platform-wakelat: clock_nanosleep: %s\n",
				strerror(err));
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		lat[i] = ts_ns(&now) - ts_ns(&dl);
		sum += lat[i];
	}
	qsort(lat, count, sizeof(*lat), cmp_ll);
	printf("n=%ld min_ns=%lld p10_ns=%lld median_ns=%lld p90_ns=%lld max_ns=%lld mean_ns=%lld\n",
	       count, lat[0], lat[count / 10], lat[count / 2],
	       lat[count * 9 / 10], lat[count - 1], sum / count);
	free(lat);
	return 0;
}
