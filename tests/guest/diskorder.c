// SPDX-License-Identifier: GPL-2.0
/*
 * diskorder - the order in which reads in flight at once complete.
 *
 * usage: diskorder <device>...
 *
 * Submits one 4 KiB O_DIRECT read to each device, all in one io_submit()
 * call (Linux native AIO, so every read is in flight at once), then reaps
 * the completions one at a time and prints, on one line, the argument
 * index of each device in completion order ("order 2 0 1").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define READ_SIZE	4096
#define MAX_DEVS	16

int main(int argc, char **argv)
{
	struct iocb cbs[MAX_DEVS], *cbp[MAX_DEVS];
	aio_context_t ctx = 0;
	int n = argc - 1, i;
	void *buf;

	if (n < 1 || n > MAX_DEVS) {
		fprintf(stderr, "usage: diskorder <device>... (1..%d devices)\n", MAX_DEVS);
		return 2;
	}
	if (syscall(SYS_io_setup, n, &ctx) < 0) {
		fprintf(stderr, "diskorder: io_setup: %s\n", strerror(errno));
		return 1;
	}
	if (posix_memalign(&buf, READ_SIZE, (size_t)READ_SIZE * n)) {
		fprintf(stderr, "diskorder: out of memory\n");
		return 1;
	}
	memset(cbs, 0, sizeof(cbs));
	for (i = 0; i < n; i++) {
		int fd = open(argv[i + 1], O_RDONLY | O_DIRECT);

		if (fd < 0) {
			fprintf(stderr, "diskorder: %s: %s\n", argv[i + 1], strerror(errno));
			return 1;
		}
		cbs[i].aio_lio_opcode = IOCB_CMD_PREAD;
		cbs[i].aio_fildes = fd;
		cbs[i].aio_buf = (unsigned long)((char *)buf + (size_t)i * READ_SIZE);
		cbs[i].aio_nbytes = READ_SIZE;
		cbs[i].aio_data = i;
		cbp[i] = &cbs[i];
	}
	if (syscall(SYS_io_submit, ctx, n, cbp) != n) {
		fprintf(stderr, "diskorder: io_submit: %s\n", strerror(errno));
		return 1;
	}
	printf("order");
	for (i = 0; i < n; i++) {
		struct io_event ev;

		if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) != 1) {
			fprintf(stderr, "diskorder: io_getevents: %s\n", strerror(errno));
			return 1;
		}
		if ((long long)ev.res != READ_SIZE) {
			fprintf(stderr, "diskorder: %s: read returned %lld\n",
				argv[ev.data + 1], (long long)ev.res);
			return 1;
		}
		printf(" %llu", (unsigned long long)ev.data);
	}
	printf("\n");
	return 0;
}
