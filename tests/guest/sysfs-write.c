// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs-write - write a string to a file as a chosen kind of writer and
 * print the outcome, for bad-input tests of sysfs ABI.
 *
 * usage: sysfs-write [-a nobody|drop-after-open|no-cap-sys-admin] <file> <string>
 *
 *   (default)          write as the caller (root in the guest)
 *   nobody             setgid/setuid(65534) before open(): the mode decides
 *   drop-after-open    open as root, then become uid 65534 and write: the
 *                      store method's own capability check decides
 *   no-cap-sys-admin   stay uid 0 but drop CAP_SYS_ADMIN from the effective,
 *                      permitted and inheritable sets before open()
 *
 * The string is written as given, in one write(2), without a newline.
 * Prints "ok <bytes>" or "<ERRNO-NAME> <step>" (step: open or write) and
 * exits 0; exits 2 on a usage error or when the identity change failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NOBODY 65534

static int become_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY)) {
		perror("sysfs-write: cannot become nobody");
		return -1;
	}
	if (getuid() != NOBODY || geteuid() != NOBODY) {
		fprintf(stderr, "sysfs-write: still uid %d\n", (int)geteuid());
		return -1;
	}
	return 0;
}

static int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i = CAP_TO_INDEX(CAP_SYS_ADMIN);
	__u32 mask = CAP_TO_MASK(CAP_SYS_ADMIN);

	if (syscall(SYS_capget, &hdr, data)) {
		perror("sysfs-write: capget");
		return -1;
	}
	data[i].effective &= ~mask;
	data[i].permitted &= ~mask;
	data[i].inheritable &= ~mask;
	if (syscall(SYS_capset, &hdr, data)) {
		perror("sysfs-write: capset");
		return -1;
	}
	if (syscall(SYS_capget, &hdr, data) ||
	    (data[i].effective & mask)) {
		fprintf(stderr, "sysfs-write: CAP_SYS_ADMIN still effective\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *as = "root", *file, *str;
	ssize_t n;
	int fd;

	if (argc == 5 && !strcmp(argv[1], "-a")) {
		as = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: sysfs-write [-a nobody|drop-after-open|no-cap-sys-admin] <file> <string>\n");
		return 2;
	}
	file = argv[1];
	str = argv[2];

	if (!strcmp(as, "nobody")) {
		if (become_nobody())
			return 2;
	} else if (!strcmp(as, "no-cap-sys-admin")) {
		if (drop_cap_sys_admin())
			return 2;
	} else if (strcmp(as, "root") && strcmp(as, "drop-after-open")) {
		fprintf(stderr, "sysfs-write: unknown writer '%s'\n", as);
		return 2;
	}

	fd = open(file, O_WRONLY);
	if (fd < 0) {
		printf("%s open\n", strerrorname_np(errno));
		return 0;
	}
	if (!strcmp(as, "drop-after-open") && become_nobody())
		return 2;
	n = write(fd, str, strlen(str));
	if (n < 0)
		printf("%s write\n", strerrorname_np(errno));
	else
		printf("ok %zd\n", n);
	close(fd);
	return 0;
}
