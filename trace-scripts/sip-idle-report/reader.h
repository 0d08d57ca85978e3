/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIP_READER_H
#define SIP_READER_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "model.h"

#define SIP_CPU_LIMIT_DEFAULT	UINT_MAX

struct sip_read_opts {
	bool window;		/* only between the "sip-window" markers */
	/* the decoder's CPU time: 0 none, SIP_CPU_LIMIT_DEFAULT by file size */
	unsigned int cpu_limit_s;
};

int sip_read_trace(const char *path, struct sip_model *m,
		   const struct sip_read_opts *o, char *err, size_t errlen);

#endif /* SIP_READER_H */
