// SPDX-License-Identifier: GPL-2.0
/*
 * sched-fifo: give tasks SCHED_FIFO at a priority (busybox has no chrt).
 *
 * usage: sched-fifo <priority 1..99> <pid>...
 *
 * The stress suite gives the softirq threads FIFO 1 before it starts 1000
 * tasks on 4 vCPUs, as PREEMPT_RT does with its timer threads
 * (design/reliability.md). Exit status 1 and one line per pid that could
 * not be changed; 2 on bad usage.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long parse(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	struct sched_param sp;
	int i, rc = 0;
	long prio, pid;

	if (argc < 3 || (prio = parse(argv[1], 1, 99)) < 0) {
		fprintf(stderr, "usage: sched-fifo <priority 1..99> <pid>...\n");
		return 2;
	}
	sp.sched_priority = (int)prio;
	for (i = 2; i < argc; i++) {
		pid = parse(argv[i], 1, 1L << 30);
		if (pid < 0) {
			fprintf(stderr, "sched-fifo: bad pid '%s'\n", argv[i]);
			rc = 1;
		} else if (sched_setscheduler((pid_t)pid, SCHED_FIFO, &sp)) {
			fprintf(stderr, "sched-fifo: pid %ld: %s\n", pid, strerror(errno));
			rc = 1;
		}
	}
	return rc;
}
