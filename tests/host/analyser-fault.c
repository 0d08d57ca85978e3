// SPDX-License-Identifier: GPL-2.0
/*
 * analyser-fault.so: LD_PRELOAD into sip-idle-report to make libtracecmd
 * misbehave the way corrupt files made it misbehave, on demand, so that
 * analyser-robust.t can check the decoder's limits without hunting for a
 * file that triggers each one. SIP_FAULT selects the fault in
 * tracecmd_iterate_events():
 *
 *	spin	never returns, burning CPU (the 20-minute runaway)
 *	repeat	hands the callback its first record again and again, as a
 *		library re-reading the same page would
 *	grow	allocates and touches memory until malloc() fails, then
 *		reports an error, as the 14 GB runaway would have
 *	segv	dereferences a wild pointer
 *
 * Any other value, or none, calls the real function.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

typedef int (*iter_cb)(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		       void *data);
typedef int (*iterate_fn)(struct tracecmd_input *h, cpu_set_t *cpus, int cpu_size,
			  iter_cb cb, void *data);

struct repeat {
	iter_cb cb;
	void *data;
};

/* Calls the analyser's callback with the first record until it says stop. */
static int repeat_first(struct tracecmd_input *h, struct tep_record *rec, int cpu,
			void *data)
{
	struct repeat *rp = data;
	int ret;

	while (!(ret = rp->cb(h, rec, cpu, rp->data)))
		;
	return ret;
}

int tracecmd_iterate_events(struct tracecmd_input *h, cpu_set_t *cpus, int cpu_size,
			    iter_cb cb, void *data)
{
	iterate_fn real = (iterate_fn)dlsym(RTLD_NEXT, "tracecmd_iterate_events");
	const char *fault = getenv("SIP_FAULT");
	volatile unsigned long spin = 0;

	if (!fault)
		fault = "";
	if (!strcmp(fault, "spin")) {
		for (;;)
			spin++;
	}
	if (!strcmp(fault, "repeat")) {
		struct repeat rp = { .cb = cb, .data = data };

		return real(h, cpus, cpu_size, repeat_first, &rp);
	}
	if (!strcmp(fault, "grow")) {
		char *p;

		while ((p = malloc(1 << 20)))
			memset(p, 1, 1 << 20);
		return -1;
	}
	if (!strcmp(fault, "segv")) {
		volatile int *wild = (int *)(unsigned long)strlen(fault);

		return *wild;
	}
	return real(h, cpus, cpu_size, cb, data);
}
