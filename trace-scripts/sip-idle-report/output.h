/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sip-idle-report: the output modules (output.c), one per format (text,
 * CSV, JSON); each only formats a struct sip_report.
 */
#ifndef SIP_OUTPUT_H
#define SIP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

struct sip_output_opts {
	bool color;	/* text: the output is a terminal */
};

struct sip_output {
	const char *name;
	void (*emit)(const struct sip_report *r, FILE *f,
		     const struct sip_output_opts *o);
};

extern const struct sip_output sip_output_text;
extern const struct sip_output sip_output_csv;
extern const struct sip_output sip_output_json;

#endif /* SIP_OUTPUT_H */
