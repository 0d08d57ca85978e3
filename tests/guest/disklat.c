// SPDX-License-Identifier: GPL-2.0
/*
 * disklat - O_DIRECT read latency of a block device.
 *
 * usage: disklat <device> [reads]
 *
 * Issues <reads> (default 1000) 4 KiB O_DIRECT preads, one outstanding at
 * a time, at pseudo-random aligned offsets within the first 64 MiB, and
 * prints one line: device, reads, mean, min, p50, p99 and max in us.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK_SIZE	4096
#define SPAN_BLOCKS	(64 * 1024 * 1024 / BLOCK_SIZE)
#define MAX_READS	1000000

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	unsigned int seed = 1;
	long long *lat, sum = 0;
	char *end;
	void *buf;
	long n = 1000, i;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: disklat <device> [reads]\n");
		return 2;
	}
	if (argc == 3) {
		errno = 0;
		n = strtol(argv[2], &end, 10);
		if (errno || *end || n < 1 || n > MAX_READS) {
			fprintf(stderr, "disklat: reads must be 1..%d\n", MAX_READS);
			return 2;
		}
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "disklat: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	lat = calloc(n, sizeof(*lat));
	if (!lat || posix_memalign(&buf, BLOCK_SIZE, BLOCK_SIZE)) {
		fprintf(stderr, "disklat: out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		off_t off = (off_t)(rand_r(&seed) % SPAN_BLOCKS) * BLOCK_SIZE;
		long long t0 = now_ns();

		if (pread(fd, buf, BLOCK_SIZE, off) != BLOCK_SIZE) {
			fprintf(stderr, "disklat: %s: read failed: %s\n", argv[1],
				strerror(errno));
			return 1;
		}
		lat[i] = now_ns() - t0;
		sum += lat[i];
	}
	qsort(lat, n, sizeof(*lat), cmp_ll);
	printf("disklat %s reads=%ld mean_us=%lld min_us=%lld p50_us=%lld p99_us=%lld max_us=%lld\n",
	       argv[1], n, sum / n / 1000, lat[0] / 1000, lat[n / 2] / 1000,
	       lat[(n * 99) / 100] / 1000, lat[n - 1] / 1000);
	free(lat);
	close(fd);
	return 0;
}
