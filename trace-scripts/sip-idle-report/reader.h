/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIP_READER_H
#define SIP_READER_H

#include <stddef.h>
#include <sys/types.h>

#include "model.h"

struct sip_read_opts {
	bool window;		/* only between the "sip-window" markers */
	unsigned int cpu_limit_s;	/* the decoder's CPU time; 0: none */
};

unsigned int sip_read_trace_cpu_limit_s(off_t size);
int sip_read_trace(const char *path, struct sip_model *m,
		   const struct sip_read_opts *o, char *err, size_t errlen);

#endif /* SIP_READER_H */
