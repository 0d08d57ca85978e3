/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sip-idle-report: reading a trace.dat into the model safely (sandbox.c):
 * the trace libraries decode the file in a child process with CPU-time,
 * memory and record limits, and this process only runs the model.
 */
#ifndef SIP_SANDBOX_H
#define SIP_SANDBOX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define SIP_CPU_LIMIT_DEFAULT	UINT_MAX

struct sip_read_opts {
	bool window;		/* only between the "sip-window" markers */
	/* the decoder's CPU time: 0 none, SIP_CPU_LIMIT_DEFAULT by file size */
	unsigned int cpu_limit_s;
};

int sip_read_trace(const char *path, struct sip_model *m,
		   const struct sip_read_opts *o, char *err, size_t errlen);

#endif /* SIP_SANDBOX_H */
