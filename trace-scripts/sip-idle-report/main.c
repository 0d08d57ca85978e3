// SPDX-License-Identifier: GPL-2.0
/*
 * sip-idle-report - judge CPU idle-state selection from a trace.dat
 *
 *	sip-idle-report [-p platform.txt | -P] [-f text|csv|json] [-o FILE]
 *			[--periods FILE] [--window] [--to-exit] [--cpu-limit SEC] trace.dat
 *
 * The platform description defaults to platform.txt beside the trace when
 * that file exists. --periods writes one tab-separated line per idle period
 * (the plots use it). --window analyses only the events between the
 * "sip-window start" and "sip-window end" trace markers. --to-exit judges
 * each idle period from its entry to its exit, as the kernel's cpuidle
 * counters do, instead of to the first event the CPU recorded inside it
 * (model.c). --cpu-limit
 * bounds the CPU time of the process that decodes the file (default 10 s
 * plus 1 s per MiB; 0: no limit), which a corrupt file can send into a
 * loop inside libtracecmd. Exit status: 0, or 1 with one line on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "output.h"
#include "platform.h"
#include "sandbox.h"

static const struct sip_output *const outputs[] = {
	&sip_output_text, &sip_output_csv, &sip_output_json,
};

static void usage(FILE *f)
{
	fprintf(f, "usage: sip-idle-report [-p platform.txt | -P] [-f text|csv|json] [-o FILE]\n"
		"                       [--periods FILE] [--window] [--to-exit] [--cpu-limit SEC] trace.dat\n");
}

static void period_line(const struct sip_period *p, void *arg)
{
	FILE *f = arg;

	fprintf(f, "%d\t%" PRIu64 "\t%" PRIu64 "\t%d\t%d\t%d\t%s\t", p->cpu, p->start_ns,
		p->length_ns, p->state, p->oracle_state, p->ideal_state, sip_class_name(p->cls));
	if (p->has_pred)
		fprintf(f, "%" PRIu64 "\t%s\t%d\t%" PRIu64 "\t%" PRIu64 "\n", p->predicted_ns,
			sip_src_name(p->src), p->tick_stopped, p->duration_ns, p->next_task_ns);
	else
		fprintf(f, "-\t-\t-\t-\t-\n");
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "no-platform", no_argument, NULL, 'P' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "periods", required_argument, NULL, 'T' },
		{ "window", no_argument, NULL, 'w' },
		{ "to-exit", no_argument, NULL, 'E' },
		{ "cpu-limit", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *plat_path = NULL, *out_path = NULL, *periods_path = NULL;
	const struct sip_output *out = &sip_output_text;
	struct sip_platform plat = { .present = false };
	struct sip_output_opts oo = { };
	FILE *of = stdout, *pf = NULL;
	struct sip_read_opts ro = { .cpu_limit_s = SIP_CPU_LIMIT_DEFAULT };
	bool no_plat = false, to_exit = false;
	unsigned long secs;
	char *end;
	struct sip_model *m;
	char err[512];
	int opt, ret = 1;
	size_t i;

	while ((opt = getopt_long(argc, argv, "p:Pf:o:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			plat_path = optarg;
			break;
		case 'P':
			no_plat = true;
			break;
		case 'f':
			out = NULL;
			for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
				if (!strcmp(optarg, outputs[i]->name))
					out = outputs[i];
			if (!out) {
				fprintf(stderr, "sip-idle-report: unknown format \"%s\" (text, csv, json)\n",
					optarg);
				return 1;
			}
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'T':
			periods_path = optarg;
			break;
		case 'w':
			ro.window = true;
			break;
		case 'E':
			to_exit = true;
			break;
		case 'L':
			errno = 0;
			secs = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' ||
			    secs > 86400 * 7) {
				fprintf(stderr, "sip-idle-report: --cpu-limit \"%s\": seconds from 0 (no limit) to 604800\n",
					optarg);
				return 1;
			}
			ro.cpu_limit_s = secs;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 1;
	}

	if (!plat_path && !no_plat) {
		char *dup = strdup(argv[optind]);
		static char def[4096];

		if (!dup) {
			perror("sip-idle-report");
			return 1;
		}
		snprintf(def, sizeof(def), "%s/platform.txt", dirname(dup));
		free(dup);
		if (!access(def, F_OK))
			plat_path = def;
	}
	if (plat_path && !no_plat && sip_platform_load(plat_path, &plat, err, sizeof(err))) {
		fprintf(stderr, "sip-idle-report: %s\n", err);
		return 1;
	}

	m = sip_model_new(&plat);
	if (!m) {
		perror("sip-idle-report");
		return 1;
	}
	sip_model_set_to_exit(m, to_exit);
	if (periods_path) {
		pf = fopen(periods_path, "w");
		if (!pf) {
			fprintf(stderr, "sip-idle-report: %s: %s\n", periods_path, strerror(errno));
			goto out;
		}
		fprintf(pf, "# cpu\tstart_ns\tlength_ns\tstate\toracle\tideal\tclass\tpredicted_ns\tsource\ttick_stopped\tduration_ns\tnext_task_ns\n");
		sip_model_set_sink(m, period_line, pf);
	}
	if (sip_read_trace(argv[optind], m, &ro, err, sizeof(err))) {
		fprintf(stderr, "sip-idle-report: %s\n", err);
		goto out;
	}
	if (out_path) {
		of = fopen(out_path, "w");
		if (!of) {
			fprintf(stderr, "sip-idle-report: %s: %s\n", out_path, strerror(errno));
			goto out;
		}
	}
	oo.color = !out_path && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	{
		struct sip_report *r = (struct sip_report *)sip_model_report(m);

		r->trace_name = argv[optind];
		out->emit(r, of, &oo);
	}
	if (fflush(of) || ferror(of)) {
		fprintf(stderr, "sip-idle-report: write error\n");
		goto out;
	}
	ret = 0;
out:
	if (of && of != stdout)
		fclose(of);
	if (pf && fclose(pf) && !ret) {
		fprintf(stderr, "sip-idle-report: %s: write error\n", periods_path);
		ret = 1;
	}
	sip_model_free(m);
	return ret;
}
