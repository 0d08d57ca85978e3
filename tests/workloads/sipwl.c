// SPDX-License-Identifier: GPL-2.0
/*
 * sipwl - seedable, fixed-duration idle workloads for `make bench`.
 *
 * usage: sipwl [-s SEED] [-t SECONDS] [-l FILE] WORKLOAD [ARGS...]
 *
 *   timer PERIOD_US            one task sleeping to absolute deadlines
 *                              PERIOD_US apart (clock_nanosleep TIMER_ABSTIME)
 *   timer-jitter MIN_US MAX_US one task sleeping a uniformly random time
 *   io DEV [DEV...]            one task per device, 4 KiB O_DIRECT preads,
 *                              one outstanding, random aligned offsets
 *   io-alt DEV DEV...          one task reading the devices in turn
 *   io-depth DEV TASKS         TASKS tasks reading DEV as io does, so up to
 *                              TASKS requests in flight (queue depth TASKS)
 *   io-think DEV MAX_THINK_US  one task: a read, then a uniformly random
 *                              sleep of 0..MAX_THINK_US
 *   io-fsync DIR WRITE_KB      one task: a buffered write of WRITE_KB at a
 *                              random aligned offset of a 16 MiB file in DIR
 *                              (a file system: ext4 in the bench), then
 *                              fsync(), which waits for the writeback and
 *                              the journal
 *   pingpong                   two tasks on CPU 0 and CPU 1 passing a byte
 *                              through two pipes
 *   remote-wakeup MAX_GAP_US   a task on CPU 0 wakes a task blocked on CPU 1
 *                              after a random 0..MAX_GAP_US
 *   futex-pingpong             two tasks on CPU 0 and CPU 1 passing a token
 *                              through a shared futex word
 *   sock-rr MAX_THINK_US       request/response over an AF_UNIX stream
 *                              socketpair: a client on CPU 0 thinking a
 *                              random 0..MAX_THINK_US between requests, a
 *                              server on CPU 1 answering at once
 *   prodcons BURST MAX_GAP_US  a producer on CPU 0 writing BURST items back
 *                              to back into a pipe, a random 0..MAX_GAP_US
 *                              apart; a consumer on CPU 1 reading one at a time
 *   mix MAX_GAP_US PERIOD_US   remote-wakeup MAX_GAP_US, plus a task on CPU 1
 *                              sleeping to absolute deadlines PERIOD_US apart
 *   fork                       one task forking a child that exits at once,
 *                              then reaping it: one op per child
 *   idle                       nothing: the CPUs idle between kernel timers
 *
 * Every workload runs for SECONDS (default 5) and prints one line:
 *
 *   sipwl WORKLOAD ops=N seconds=S throughput=X unit=ops/s|IOPS
 *
 * With -l, FILE gets the wake-up lateness of every wake-up, one "late NS"
 * line each, for the timer workloads (from the deadline) and for
 * remote-wakeup, sock-rr, prodcons and mix (from the other CPU's write to
 * the woken task running); mix adds "timer_late NS" lines for its timer
 * task. The samples are raw: their percentiles are computed on the host
 * (trace-scripts/bench/bench-report.py), once. The random sequences are
 * xorshift64* from SEED (default 1): the same seed gives the same offsets,
 * periods and gaps on every kernel, so the kernels see identical requests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BLOCK_SIZE	4096
#define SPAN_BLOCKS	(64 * 1024 * 1024 / BLOCK_SIZE)
#define MAX_DEVS	16
#define MAX_SAMPLES	(1 << 20)
#define MAX_BURST	1024

/* Wake-up lateness samples (ns), in memory shared by fork()ed tasks. */
struct lat_buf {
	long n;
	long long v[MAX_SAMPLES];
};

static uint64_t rng_state = 1;
static double seconds = 5;
static const char *late_path;	/* -l */

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
		"usage: sipwl [-s SEED] [-t SECONDS] [-l FILE] WORKLOAD [ARGS]\n"
		"  timer PERIOD_US | timer-jitter MIN_US MAX_US | io DEV... |\n"
		"  io-alt DEV DEV... | io-depth DEV TASKS | io-think DEV MAX_THINK_US |\n"
		"  io-fsync DIR WRITE_KB |\n"
		"  pingpong |\n"
		"  remote-wakeup MAX_GAP_US | futex-pingpong | sock-rr MAX_THINK_US |\n"
		"  prodcons BURST MAX_GAP_US | mix MAX_GAP_US PERIOD_US | fork | idle\n");
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

/* fork() a task pinned to cpu; the caller goes on, pinned to CPU 0 */
static pid_t fork_pinned(int cpu)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	pin(pid ? 0 : cpu);
	return pid;
}

static void *shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static struct lat_buf *lat_new(void)
{
	return shared(sizeof(struct lat_buf));
}

/* one sample: how late we run against since (ns, CLOCK_MONOTONIC) */
static void lat_add(struct lat_buf *lat, long long since)
{
	if (lat->n < MAX_SAMPLES)
		lat->v[lat->n++] = now_ns() - since;
}

/* "PREFIXlate NS" per sample into f */
static void write_late(FILE *f, const char *prefix, struct lat_buf *lat)
{
	long i;

	if (!lat)
		return;
	for (i = 0; i < lat->n; i++)
		fprintf(f, "%slate %lld\n", prefix, lat->v[i]);
}

/*
 * The result line, and with -l the lateness samples; timer_lat: those of
 * a second, timer, task (mix).
 */
static void report(const char *name, long long ops, long long t0, const char *unit,
		   struct lat_buf *lat, struct lat_buf *timer_lat)
{
	double s = (now_ns() - t0) / 1e9;
	FILE *f;

	if (late_path) {
		f = fopen(late_path, "w");
		if (!f)
			die(late_path);
		write_late(f, "", lat);
		write_late(f, "timer_", timer_lat);
		if (fclose(f))
			die(late_path);
	}
	printf("sipwl %s ops=%lld seconds=%.3f throughput=%.1f unit=%s\n",
	       name, ops, s, s > 0 ? ops / s : 0, unit);
	fflush(stdout);
}

/*
 * Sleep to absolute deadlines until end, each a fixed period (min == max)
 * or random in [min, max] after the last; lateness against the deadline.
 */
static long long timer_loop(long min_us, long max_us, long long end, struct lat_buf *lat)
{
	long long next = now_ns(), ops = 0;

	while (next < end) {
		struct timespec ts;

		next += rnd_range(min_us, max_us) * 1000LL;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		lat_add(lat, next);
		ops++;
		/* fell behind by more than a period: restart from now */
		if (now_ns() > next + max_us * 1000LL)
			next = now_ns();
	}
	return ops;
}

static int run_timer(const char *name, long min_us, long max_us)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9);
	struct lat_buf *lat = lat_new();
	long long ops = timer_loop(min_us, max_us, end, lat);

	report(name, ops, t0, "ops/s", lat, NULL);
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
	long long *counts = shared(MAX_DEVS * sizeof(*counts));
	int fds[MAX_DEVS], i, tasks = alt ? 1 : ndev;
	uint64_t seed0 = rng_state;

	for (i = 0; i < ndev; i++)
		fds[i] = open_dev(devs[i]);
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
	report(name, total, t0, "IOPS", NULL, NULL);
	return 0;
}

#define FSYNC_SPAN	(16L * 1024 * 1024)

/*
 * io-fsync: buffered writes made durable one at a time, as a database or a
 * mail server does. fsync() waits for the data's writeback and, for the
 * metadata (block allocation on the first writes, mtime), for a commit of
 * the journal, so the task's IO waits mix device completions with waits
 * that no device ends (jbd2, dirty throttling).
 */
static int run_fsync(const char *dir, long write_kb)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), ops = 0;
	size_t len = (size_t)write_kb * 1024;
	char path[4096];
	char *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/sipwl-fsync.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "sipwl: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	buf = malloc(len);
	if (!buf)
		die("malloc");
	memset(buf, 0x5a, len);
	while (now_ns() < end) {
		off_t off = (off_t)rnd_range(0, FSYNC_SPAN / len - 1) * len;

		if (pwrite(fd, buf, len, off) != (ssize_t)len)
			die("pwrite");
		if (fsync(fd))
			die("fsync");
		ops++;
	}
	close(fd);
	unlink(path);
	free(buf);
	report("io-fsync", ops, t0, "ops/s", NULL, NULL);
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
	pid = fork_pinned(1);
	if (pid == 0) {
		while (read(a[0], &c, 1) == 1 && c != 'q')
			if (write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	while (now_ns() < end) {
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			die("pipe i/o");
		ops++;
	}
	c = 'q';
	if (write(a[1], &c, 1) != 1)
		die("pipe write");
	waitpid(pid, NULL, 0);
	report("pingpong", ops, t0, "ops/s", NULL, NULL);
	return 0;
}

/*
 * fork() and exit(): the task creation and teardown paths, each child
 * reaped before the next is forked, so one task at a time is created.
 */
static int run_fork(void)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), ops = 0;
	pid_t pid;

	while (now_ns() < end) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid");
		ops++;
	}
	report("fork", ops, t0, "ops/s", NULL, NULL);
	return 0;
}

/* the futex word of futex-pingpong: whose turn it is, or the end */
enum { TURN_CPU0, TURN_CPU1, TURN_QUIT };

static void futex_set(int *word, int v)
{
	__atomic_store_n(word, v, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* block while *word == v (shared between processes: not FUTEX_PRIVATE) */
static void futex_wait_while(int *word, int v)
{
	while (__atomic_load_n(word, __ATOMIC_SEQ_CST) == v)
		syscall(SYS_futex, word, FUTEX_WAIT, v, NULL, NULL, 0);
}

/*
 * The token is a futex word in a shared anonymous page: CPU 0 hands it to
 * CPU 1 and waits until it comes back; one round trip is one op.
 */
static int run_futex_pingpong(void)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), ops = 0;
	int *word = shared(sizeof(*word));
	pid_t pid;

	*word = TURN_CPU0;
	pid = fork_pinned(1);
	if (pid == 0) {
		for (;;) {
			futex_wait_while(word, TURN_CPU0);
			if (__atomic_load_n(word, __ATOMIC_SEQ_CST) == TURN_QUIT)
				_exit(0);
			futex_set(word, TURN_CPU0);
		}
	}
	while (now_ns() < end) {
		futex_set(word, TURN_CPU1);
		futex_wait_while(word, TURN_CPU1);
		ops++;
	}
	futex_set(word, TURN_QUIT);
	waitpid(pid, NULL, 0);
	report("futex-pingpong", ops, t0, "ops/s", NULL, NULL);
	return 0;
}

/*
 * The sleeping side, on CPU 1: block in read() for an item carrying the
 * clock of the task that sent it, record how late this task ran, and with
 * echo send the item straight back. A zero clock ends it.
 */
static void sleeper(int fd, int echo, struct lat_buf *lat)
{
	long long ts;

	while (read(fd, &ts, sizeof(ts)) == sizeof(ts) && ts) {
		lat_add(lat, ts);
		if (echo && write(fd, &ts, sizeof(ts)) != sizeof(ts))
			_exit(1);
	}
	_exit(0);
}

/*
 * The waking side, on CPU 0, until end: a random 0..max_gap_us sleep, then
 * burst items back to back, one write() each carrying its clock; with echo
 * it waits for each answer. Last it sends the zero that ends the sleeper and
 * returns the items sent: the sleeper reads every item before that zero, so
 * once it has exited they are the items it consumed.
 */
static long long waker(int fd, int echo, int burst, long max_gap_us, long long end)
{
	long long ops = 0, ts;
	int i;

	while (now_ns() < end) {
		sleep_ns(rnd_range(0, max_gap_us) * 1000LL);
		for (i = 0; i < burst; i++) {
			ts = now_ns();
			if (write(fd, &ts, sizeof(ts)) != sizeof(ts))
				die("write");
			if (echo && read(fd, &ts, sizeof(ts)) != sizeof(ts))
				die("read");
			ops++;
		}
	}
	ts = 0;
	if (write(fd, &ts, sizeof(ts)) != sizeof(ts))
		die("write");
	return ops;
}

/*
 * remote-wakeup, sock-rr, prodcons and mix: a waker on CPU 0 and a sleeper
 * blocked in read() on CPU 1 (waker() and sleeper() above), over a pipe,
 * or with sock an AF_UNIX stream socketpair on which the sleeper answers
 * every item. Not loopback TCP: the bench's minimal initramfs sets up no
 * networking, not even lo; a socketpair blocks the server in the socket
 * layer and wakes it from the client's send without the network stack.
 * With period_us, a timer task beside the sleeper on CPU 1, sleeping to
 * absolute deadlines period_us apart.
 */
static int run_wake(const char *name, int sock, int burst, long max_gap_us, long period_us)
{
	long long t0 = now_ns(), end = t0 + (long long)(seconds * 1e9), ops;
	struct lat_buf *lat = lat_new(), *timer_lat = period_us ? lat_new() : NULL;
	int fds[2];

	if (sock ? socketpair(AF_UNIX, SOCK_STREAM, 0, fds) : pipe(fds))
		die(sock ? "socketpair" : "pipe");
	if (fork_pinned(1) == 0)
		sleeper(fds[0], sock, lat);
	if (period_us && fork_pinned(1) == 0) {
		timer_loop(period_us, period_us, end, timer_lat);
		_exit(0);
	}
	ops = waker(fds[1], sock, burst, max_gap_us, end);
	while (wait(NULL) > 0)
		;
	report(name, ops, t0, "ops/s", lat, timer_lat);
	return 0;
}

int main(int argc, char **argv)
{
	const char *w;
	int opt;

	while ((opt = getopt(argc, argv, "+s:t:l:")) != -1) {
		switch (opt) {
		case 'l':
			late_path = optarg;
			break;
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
	if (!strcmp(w, "io-depth") && argc == 2) {
		char *devs[MAX_DEVS];
		long i, n = num_arg(argv[1], 1, MAX_DEVS, "TASKS");

		for (i = 0; i < n; i++)
			devs[i] = argv[0];
		return run_io("io-depth", devs, n, 0, 0);
	}
	if (!strcmp(w, "io-think") && argc == 2)
		return run_io("io-think", argv, 1, 0,
			      num_arg(argv[1], 0, 10000000, "MAX_THINK_US"));
	if (!strcmp(w, "io-fsync") && argc == 2)
		return run_fsync(argv[0], num_arg(argv[1], 4, FSYNC_SPAN / 1024, "WRITE_KB"));
	if (!strcmp(w, "pingpong") && argc == 0)
		return run_pingpong();
	if (!strcmp(w, "remote-wakeup") && argc == 1)
		return run_wake("remote-wakeup", 0, 1,
				num_arg(argv[0], 0, 10000000, "MAX_GAP_US"), 0);
	if (!strcmp(w, "futex-pingpong") && argc == 0)
		return run_futex_pingpong();
	if (!strcmp(w, "sock-rr") && argc == 1)
		return run_wake("sock-rr", 1, 1, num_arg(argv[0], 0, 10000000, "MAX_THINK_US"), 0);
	if (!strcmp(w, "prodcons") && argc == 2)
		return run_wake("prodcons", 0, num_arg(argv[0], 1, MAX_BURST, "BURST"),
				num_arg(argv[1], 0, 10000000, "MAX_GAP_US"), 0);
	if (!strcmp(w, "mix") && argc == 2)
		return run_wake("mix", 0, 1, num_arg(argv[0], 0, 10000000, "MAX_GAP_US"),
				num_arg(argv[1], 1, 10000000, "PERIOD_US"));
	if (!strcmp(w, "fork") && argc == 0)
		return run_fork();
	if (!strcmp(w, "idle") && argc == 0) {
		long long t0 = now_ns();

		sleep_ns((long long)(seconds * 1e9));
		report("idle", 0, t0, "ops/s", NULL, NULL);
		return 0;
	}
	usage();
	return 2;
}
