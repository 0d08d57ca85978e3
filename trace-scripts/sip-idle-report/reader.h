/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SIP_READER_H
#define SIP_READER_H

#include <stddef.h>

struct tracecmd_input;

#include "model.h"

extern struct tracecmd_input *sip_failed_handle;

int sip_read_trace(const char *path, struct sip_model *m, bool window,
		   char *err, size_t errlen);

#endif /* SIP_READER_H */
