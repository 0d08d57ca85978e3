// SPDX-License-Identifier: GPL-2.0
/*
 * stress-qos - flap the CPU latency PM QoS limit while CPUs go idle.
 *
 * usage: stress-qos [-s seconds]
 *
 * Until <seconds> (default 10) have passed: open /dev/cpu_dma_latency,
 * write a random limit in us (0, values around the emulated platforms'
 * exit latencies, the "no constraint" 2000 s, or any value below 5 ms),
 * sleep 0 to 3 ms so the CPUs idle under that limit, close (the request
 * is dropped). Every tenth cycle the limit is negative instead: the
 * interface accepts any s32 (-1 means "default"; other negative values
 * become the limit), so the idle path must cope with them. Prints
 * "stress-qos: cycles=N negative=N"; exits 0 when every open, write and
 * close succeeded, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const int32_t limits_us[] = {
	0, 0, 1, 2, 10, 20, 50, 100, 133, 200, 500, 1000, 2000000000,
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned int seed = (unsigned int)getpid();
	long cycles = 0, negative = 0;
	int seconds = 10, opt;
	double deadline;

	while ((opt = getopt(argc, argv, "s:")) != -1) {
		if (opt != 's')
			goto usage;
		seconds = atoi(optarg);
	}
	if (seconds < 1 || optind != argc)
		goto usage;

	deadline = now_s() + seconds;
	while (now_s() < deadline) {
		unsigned int r = rand_r(&seed);
		int32_t v = r % 4 ? limits_us[r % (sizeof(limits_us) / sizeof(limits_us[0]))]
				  : (int32_t)(r % 5000);
		struct timespec nap = { 0, (rand_r(&seed) % 3000) * 1000L };
		int fd = open("/dev/cpu_dma_latency", O_RDWR);

		if (fd < 0 || write(fd, &v, sizeof(v)) != sizeof(v)) {
			printf("stress-qos: limit %d: %s\n", v, strerror(errno));
			return 1;
		}
		if (cycles % 10 == 9) {
			int32_t neg = -(int32_t)(r % 1000) - 1;

			if (write(fd, &neg, sizeof(neg)) != sizeof(neg)) {
				printf("stress-qos: limit %d: %s\n", neg, strerror(errno));
				return 1;
			}
			negative++;
		}
		nanosleep(&nap, NULL);
		if (close(fd)) {
			printf("stress-qos: close: %s\n", strerror(errno));
			return 1;
		}
		cycles++;
	}
	printf("stress-qos: cycles=%ld negative=%ld\n", cycles, negative);
	return cycles ? 0 : 1;
usage:
	fprintf(stderr, "usage: stress-qos [-s seconds]\n");
	return 2;
}
