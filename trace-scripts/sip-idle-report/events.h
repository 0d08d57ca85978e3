/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sip-idle-report: the event table (events.c), which trace events the
 * report reads and how libtracecmd's records of them become struct
 * sip_event for the model. It runs the trace libraries on the file's
 * bytes: only the decoder process calls it (sandbox.h).
 */
#ifndef SIP_EVENTS_H
#define SIP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Takes one event; returns 0, or -1 to stop the decoding. */
typedef int (*sip_event_fn)(const struct sip_event *ev, void *arg);

struct sip_decode_opts {
	bool window;		/* only between the "sip-window" markers */
	uint64_t max_records;	/* records the library may return at most */
};

/* sip_decode_trace() stopped: more than max_records records */
#define SIP_DECODE_TOO_MANY	(-2)
/* sip_decode_trace() stopped: the event function failed */
#define SIP_DECODE_SINK_FAILED	(-3)

int sip_decode_trace(const char *path, const struct sip_decode_opts *o,
		     sip_event_fn fn, void *arg, char *err, size_t errlen);

#endif /* SIP_EVENTS_H */
