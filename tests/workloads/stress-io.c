// SPDX-License-Identifier: GPL-2.0
/*
 * stress-io - many tasks blocked in block IO at once, optionally forking
 * and exiting while they wait.
 *
 * usage: stress-io [-t tasks] [-s seconds] [-f] [-g grace-s] <device>...
 *
 * Forks <tasks> (default 1000) workers, released together once all exist;
 * the <seconds> count from the release.
 * Worker i reads device i % ndevices with 4 KiB O_DIRECT preads at
 * pseudo-random aligned offsets within the first 64 MiB, one outstanding,
 * until <seconds> (default 10) have passed. With -f each worker instead
 * forks a child per round that does one to three reads and exits, and
 * reaps it: a fork/exit storm of tasks that were in IO wait.
 *
 * Prints one line: tasks=N finished=N ios=N forks=N errors=N seconds=S.
 * Exits 0 when every worker finished in time without an error and at least
 * one read completed; 1 otherwise; 3 when workers were still running
 * <grace-s> (default 60) seconds after the deadline (they are killed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BLOCK_SIZE	4096
#define SPAN_BLOCKS	(64 * 1024 * 1024 / BLOCK_SIZE)
#define MAX_TASKS	20000

struct slot {
	uint64_t ios;
	uint64_t forks;
	int errors;
	int done;
};

static struct slot *slots;
/* Set by the parent once every worker exists, read by them after release. */
static volatile double *deadline_p;
static pid_t *pids;
static int ntasks;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_some(int fd, void *buf, unsigned int *seed, int n,
		     uint64_t *ios)
{
	off_t off;
	int i;

	for (i = 0; i < n; i++) {
		off = (off_t)(rand_r(seed) % SPAN_BLOCKS) * BLOCK_SIZE;
		if (pread(fd, buf, BLOCK_SIZE, off) != BLOCK_SIZE)
			return -1;
		(*ios)++;
	}
	return 0;
}

static void worker(int idx, const char *dev, int fork_mode, int start_fd)
{
	double deadline;
	struct slot *s = &slots[idx];
	unsigned int seed = idx * 2654435761u + 1;
	void *buf;
	char c;
	int fd;

	if (read(start_fd, &c, 1) < 0)
		_exit(1);
	deadline = *deadline_p;
	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BLOCK_SIZE, BLOCK_SIZE)) {
		fprintf(stderr, "stress-io: %s: %s\n", dev, strerror(errno));
		s->errors++;
		_exit(1);
	}
	while (now_s() < deadline) {
		if (!fork_mode) {
			if (read_some(fd, buf, &seed, 1, &s->ios)) {
				s->errors++;
				break;
			}
			continue;
		}
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			/* Out of tasks for a moment is load, not a failure. */
			usleep(1000);
			continue;
		}
		if (pid == 0) {
			uint64_t n = 0;
			int r = read_some(fd, buf, &seed, 1 + rand_r(&seed) % 3, &n);

			__atomic_add_fetch(&s->ios, n, __ATOMIC_RELAXED);
			_exit(r ? 1 : 0);
		}
		seed = seed * 1103515245u + 12345;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			s->errors++;
			break;
		}
		s->forks++;
	}
	s->done = 1;
	_exit(s->errors ? 1 : 0);
}

static void on_alarm(int sig)
{
	int i, left = 0;

	(void)sig;
	for (i = 0; i < ntasks; i++)
		if (pids[i] > 0 && !slots[i].done)
			left++;
	fprintf(stdout, "stress-io: hang: %d of %d workers still running\n",
		left, ntasks);
	fflush(stdout);
	for (i = 0; i < ntasks; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	_exit(3);
}

int main(int argc, char **argv)
{
	int opt, fork_mode = 0, grace = 60, seconds = 10, ndev, i, start[2];
	int finished = 0, errors = 0;
	uint64_t ios = 0, forks = 0;
	double t0;

	ntasks = 1000;
	while ((opt = getopt(argc, argv, "t:s:fg:")) != -1) {
		switch (opt) {
		case 't': ntasks = atoi(optarg); break;
		case 's': seconds = atoi(optarg); break;
		case 'f': fork_mode = 1; break;
		case 'g': grace = atoi(optarg); break;
		default: goto usage;
		}
	}
	ndev = argc - optind;
	if (ndev < 1 || ntasks < 1 || ntasks > MAX_TASKS || seconds < 1 ||
	    grace < 1)
		goto usage;

	slots = mmap(NULL, sizeof(*slots) * ntasks + 64, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	deadline_p = (double *)(slots + ntasks);
	pids = calloc(ntasks, sizeof(*pids));
	if (slots == MAP_FAILED || !pids || pipe(start)) {
		perror("stress-io");
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < ntasks; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			fprintf(stderr, "stress-io: fork %d: %s\n", i, strerror(errno));
			errors++;
			break;
		}
		if (pids[i] == 0) {
			close(start[1]);
			worker(i, argv[optind + i % ndev], fork_mode, start[0]);
		}
	}
	/*
	 * Release every worker at once: they all block in read() until EOF.
	 * The run lasts <seconds> from here: forking 1000 tasks takes tens of
	 * seconds on the debug kernel under TCG.
	 */
	*deadline_p = now_s() + seconds;
	close(start[1]);
	close(start[0]);

	signal(SIGALRM, on_alarm);
	alarm(seconds + grace);
	for (i = 0; i < ntasks; i++) {
		int st;

		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], &st, 0) != pids[i])
			continue;
		pids[i] = 0;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && slots[i].done)
			finished++;
		else
			errors++;
	}
	alarm(0);
	for (i = 0; i < ntasks; i++) {
		ios += slots[i].ios;
		forks += slots[i].forks;
		errors += slots[i].errors;
	}
	printf("stress-io: tasks=%d finished=%d ios=%llu forks=%llu errors=%d seconds=%.1f\n",
	       ntasks, finished, (unsigned long long)ios,
	       (unsigned long long)forks, errors, now_s() - t0);
	return finished == ntasks && !errors && ios ? 0 : 1;
usage:
	fprintf(stderr, "usage: stress-io [-t tasks] [-s seconds] [-f] [-g grace-s] <device>...\n");
	return 2;
}
