// SPDX-License-Identifier: GPL-2.0
/*
 * sipwl - seedable, fixed-duration idle workloads for `make bench`.
 *
 * usage: sipwl [-s SEED] [-t SECONDS] WORKLOAD [ARGS...]
 *
 *   timer PERIOD_US            one task sleeping to absolute deadlines
 *                              PERIOD_US apart (clock_nanosleep TIMER_ABSTIME)
 *   timer-jitter MIN_US MAX_US one task sleeping a uniformly random time
 *   io DEV [DEV...]            one task per device, 4 KiB O_DIRECT preads,
 *                              one outstanding, random aligned offsets
 *   io-alt DEV DEV...          one task reading the devices in turn
 *   io-think DEV MAX_THINK_US  one task: a read, then a uniformly random
 *                              sleep of 0..MAX_THINK_US
 *   pingpong                   two tasks on CPU 0 and CPU 1 passing a byte
 *                              through two pipes
 *   remote-wakeup MAX_GAP_US   a task on CPU 0 wakes a task blocked on CPU 1
 *                              after a random 0..MAX_GAP_US
 *   idle                       nothing: the CPUs idle between kernel timers
 *
 * Every workload runs for SECONDS (default 5) and prints one line:
 *
 *   sipwl WORKLOAD ops=N seconds=S throughput=X unit=ops/s|IOPS [extra]
 *
 * where extra is the wake-up lateness p50/p99 (us) for the timer and
 * remote-wakeup workloads. The random sequences are xorshift64* from SEED
 * (default 1): the same seed gives the same offsets, periods and gaps on
 * every kernel, so the kernels see identical requests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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
#define MAX_DEVS	8
#define MAX_SAMPLES	(1 << 20)

static uint64_t rng_state = 1;
static double seconds = 5;

static uint64_t rnd(void)
{
	/* xorshift64* (Vigna): full period, good enough for offsets */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static uint64_t rnd_range(uint64_t lo, uint64_t hi)
{
	return hi <= lo ? lo : lo + rnd() % (hi - lo + 1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void die(const char *what)
{
	fprintf(stderr, "sipwl: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: sipwl [-s SEED] [-t SECONDS] WORKLOAD [ARGS]\n"
		"  timer PERIOD_US | timer-jitter MIN_US MAX_US | io DEV... |\n"
		"  io-alt DEV DEV... | io-think DEV MAX_THINK_US | pingpong |\n"
		"  remote-wakeup MAX_GAP_US | idle\n");
	exit(2);
}

static long num_arg(const char *s, long lo, long hi, const char *name)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "sipwl: %s must be %ld..%ld, not '%s'\n", name, lo, hi, s);
		exit(2);
	}
	return v;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* a single-CPU guest has no CPU 1: run unpinned there */
	if (sched_setaffinity(0, sizeof(set), &set) && errno != EINVAL)
		die("sched_setaffinity");
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* nearest-rank percentile, as the analyser computes them */
static double pct_us(long long *v, long n, int p)
{
	long k;

	if (!n)
		return 0;
	k = (p * n + 99) / 100 - 1;
	return v[k < 0 ? 0 : k] / 1000.0;
}

static void report(const char *name, long long ops, long long t0,
		   const char *unit, long long *lat, long nlat)
{
	double s = (now_ns() - t0) / 1e9;

	printf("sipwl %s ops=%lld seconds=%.3f throughput=%.1f unit=%s",
	       name, ops, s, s > 0 ? ops / s : 0, unit);
	if (lat && nlat) {
		qsort(lat, nlat, sizeof(*lat), cmp_ll);
		printf(" late_p50_us=%.1f late_p99_us=%.1f", pct_us(lat, nlat, 50),
		       pct_us(lat, nlat, 99));
	}
	printf("\n");
	fflush(stdout);
}

static long long *samples(void)
{
	long long *v = malloc(MAX_SAMPLES * sizeof(*v));

	if (!v)
		die("malloc");
	return v;
}

/* A sleeper: fixed period (min == max) or random in [min, max]. */
static int run_timer(const char *name, long min_us, long max_us)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9);
	long long next = t0, ops = 0, *late = samples();
	long nlat = 0;

	while (next < end) {
		struct timespec ts;

		next += rnd_range(min_us, max_us) * 1000LL;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (nlat < MAX_SAMPLES)
			late[nlat++] = now_ns() - next;
		ops++;
		/* fell behind by more than a period: restart from now */
		if (now_ns() > next + max_us * 1000LL)
			next = now_ns();
	}
	report(name, ops, t0, "ops/s", late, nlat);
	return 0;
}

static int open_dev(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_DIRECT);

	if (fd < 0) {
		fprintf(stderr, "sipwl: %s: %s\n", dev, strerror(errno));
		exit(1);
	}
	return fd;
}

static void read_one(int fd, void *buf)
{
	off_t off = (off_t)(rnd() % SPAN_BLOCKS) * BLOCK_SIZE;

	if (pread(fd, buf, BLOCK_SIZE, off) != BLOCK_SIZE)
		die("pread");
}

static void *io_buf(void)
{
	void *buf;

	if (posix_memalign(&buf, BLOCK_SIZE, BLOCK_SIZE))
		die("posix_memalign");
	return buf;
}

/*
 * IO: ndev devices. alt: one task reading them in turn; otherwise one task
 * per device, each with its own seed (SEED + index), counting into a
 * shared page.
 */
static int run_io(const char *name, char **devs, int ndev, int alt, long think_us)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), total = 0;
	long long *counts;
	int fds[MAX_DEVS], i, tasks = alt ? 1 : ndev;
	uint64_t seed0 = rng_state;

	for (i = 0; i < ndev; i++)
		fds[i] = open_dev(devs[i]);
	counts = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		die("mmap");
	for (i = 0; i < tasks; i++) {
		pid_t pid = tasks == 1 ? 0 : fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			void *buf = io_buf();
			long long n = 0;
			int d = 0;

			rng_state = seed0 + i;
			while (now_ns() < end) {
				read_one(fds[alt ? d : i], buf);
				n++;
				d = (d + 1) % ndev;
				if (think_us)
					sleep_ns(rnd_range(0, think_us) * 1000LL);
			}
			counts[i] = n;
			if (tasks > 1)
				_exit(0);
		}
	}
	if (tasks > 1)
		while (wait(NULL) > 0)
			;
	for (i = 0; i < tasks; i++)
		total += counts[i];
	report(name, total, t0, "IOPS", NULL, 0);
	return 0;
}

static int run_pingpong(void)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), ops = 0;
	int a[2], b[2];
	char c = 'p';
	pid_t pid;

	if (pipe(a) || pipe(b))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		pin(1);
		while (read(a[0], &c, 1) == 1 && c != 'q')
			if (write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(0);
	while (now_ns() < end) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			die("pipe i/o");
		ops++;
	}
	c = 'q';
	if (write(a[1], &c, 1) != 1)
		die("pipe write");
	waitpid(pid, NULL, 0);
	report("pingpong", ops, t0, "ops/s", NULL, 0);
	return 0;
}

/*
 * The waker (CPU 0) writes its clock into a pipe after a random gap; the
 * sleeper (CPU 1) blocked in read() records how late it ran.
 */
static int run_remote(long max_gap_us)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), ops = 0;
	long long *lat = mmap(NULL, MAX_SAMPLES * sizeof(long long), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long long *nlat = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int p[2];
	pid_t pid;

	if (lat == MAP_FAILED || nlat == MAP_FAILED)
		die("mmap");
	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		long long ts;

		pin(1);
		while (read(p[0], &ts, sizeof(ts)) == sizeof(ts) && ts) {
			if (*nlat < MAX_SAMPLES)
				lat[(*nlat)++] = now_ns() - ts;
		}
		_exit(0);
	}
	pin(0);
	while (now_ns() < end) {
		long long ts;

		sleep_ns(rnd_range(0, max_gap_us) * 1000LL);
		ts = now_ns();
		if (write(p[1], &ts, sizeof(ts)) != sizeof(ts))
			die("pipe write");
		ops++;
	}
	{
		long long zero = 0;

		if (write(p[1], &zero, sizeof(zero)) != sizeof(zero))
			die("pipe write");
	}
	waitpid(pid, NULL, 0);
	report("remote-wakeup", ops, t0, "ops/s", lat, *nlat);
	return 0;
}

int main(int argc, char **argv)
{
	const char *w;
	int opt;

	while ((opt = getopt(argc, argv, "s:t:")) != -1) {
		switch (opt) {
		case 's':
			rng_state = num_arg(optarg, 1, 0x7fffffff, "SEED");
			break;
		case 't':
			seconds = num_arg(optarg, 1, 3600, "SECONDS");
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	w = argv[optind++];
	argc -= optind;
	argv += optind;
	signal(SIGPIPE, SIG_IGN);

	if (!strcmp(w, "timer") && argc == 1) {
		long p = num_arg(argv[0], 1, 10000000, "PERIOD_US");

		return run_timer("timer", p, p);
	}
	if (!strcmp(w, "timer-jitter") && argc == 2) {
		long lo = num_arg(argv[0], 1, 10000000, "MIN_US");

		return run_timer("timer-jitter", lo, num_arg(argv[1], lo, 10000000, "MAX_US"));
	}
	if (!strcmp(w, "io") && argc >= 1 && argc <= MAX_DEVS)
		return run_io("io", argv, argc, 0, 0);
	if (!strcmp(w, "io-alt") && argc >= 2 && argc <= MAX_DEVS)
		return run_io("io-alt", argv, argc, 1, 0);
	if (!strcmp(w, "io-think") && argc == 2)
		return run_io("io-think", argv, 1, 0,
			      num_arg(argv[1], 0, 10000000, "MAX_THINK_US"));
	if (!strcmp(w, "pingpong") && argc == 0)
		return run_pingpong();
	if (!strcmp(w, "remote-wakeup") && argc == 1)
		return run_remote(num_arg(argv[0], 0, 10000000, "MAX_GAP_US"));
	if (!strcmp(w, "idle") && argc == 0) {
		long long t0 = now_ns();

		sleep_ns((long long)(seconds * 1e9));
		report("idle", 0, t0, "ops/s", NULL, 0);
		return 0;
	}
	usage();
	return 2;
}
