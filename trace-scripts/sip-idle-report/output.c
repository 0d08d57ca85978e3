// SPDX-License-Identifier: GPL-2.0
/*
 * sip-idle-report output modules: text (default), CSV and JSON. Each only
 * formats a struct sip_report; none computes anything. The CSV and JSON
 * layouts are specified in design/analysis.md: change both together.
 */
#include <inttypes.h>
#include <string.h>

#include "output.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double energy_ratio(const struct sip_cpu_stats *c)
{
	return c->oracle_energy_uj > 0 ? c->energy_uj / c->oracle_energy_uj : 0.0;
}

/* ---------------------------------------------------------------- text */

static const char *bold(const struct sip_output_opts *o)
{
	return o->color ? "\033[1m" : "";
}

static const char *norm(const struct sip_output_opts *o)
{
	return o->color ? "\033[0m" : "";
}

static void text_dist(FILE *f, const char *what, const struct sip_dist *d)
{
	if (!d->count) {
		fprintf(f, "  %-34s n/a (no samples)\n", what);
		return;
	}
	fprintf(f, "  %-34s n=%-7zu p50 %10.1f us  p99 %10.1f us  max %10.1f us\n",
		what, d->count, d->p50 / 1e3, d->p99 / 1e3, d->max / 1e3);
}

/* A duration in us for the tables, "-" without samples. */
static const char *us_or_dash(char *buf, size_t len, const struct sip_dist *d, int64_t v)
{
	if (!d->count)
		return "-";
	snprintf(buf, len, "%.1f", v / 1e3);
	return buf;
}

static const char *pct_or_dash(char *buf, size_t len, uint64_t whole, double v)
{
	if (!whole)
		return "-";
	snprintf(buf, len, "%.1f%%", v);
	return buf;
}

/*
 * Decisions by source: one row per source of sched_idle_predict's
 * decision, the error of the duration it chose for and the judgement of
 * the state entered (design/analysis.md, "Decisions by source").
 */
static void text_sources(const struct sip_report *r, FILE *f, const struct sip_output_opts *o)
{
	uint64_t derived = 0;
	int i;

	fprintf(f, "\n%sdecisions by source%s", bold(o), norm(o));
	if (!r->has_predict) {
		fprintf(f, "\n  n/a: no sched_idle_predict events (base kernel)\n");
		return;
	}
	fprintf(f, " (%" PRIu64 " periods with a prediction; error = |duration_ns - actual|)\n",
		r->total.predicted);
	fprintf(f, "  %-8s %7s %7s %10s %10s %8s %8s %11s\n", "source", "periods", "share",
		"err p50 us", "err p90 us", "correct", "too_deep", "too_shallow");
	for (i = 0; i < SIP_NR_SRC; i++) {
		const struct sip_src_report *s = &r->src[i];
		char b[5][32];

		derived += s->derived;
		fprintf(f, "  %-8s %7" PRIu64 " %6.1f%% %10s %10s %8s %8s %11s\n",
			sip_src_name(i), s->periods, s->share_pct,
			us_or_dash(b[0], sizeof(b[0]), &s->dur_abs_err, s->dur_abs_err.p50),
			us_or_dash(b[1], sizeof(b[1]), &s->dur_abs_err, s->dur_abs_err.p90),
			pct_or_dash(b[2], sizeof(b[2]), s->judged, s->correct_pct),
			pct_or_dash(b[3], sizeof(b[3]), s->judged, s->too_deep_pct),
			pct_or_dash(b[4], sizeof(b[4]), s->judged, s->too_shallow_pct));
	}
	if (!r->plat->present)
		fprintf(f, "  judgement n/a: no platform description (-p FILE)\n");
	if (derived)
		fprintf(f, "  source derived for %" PRIu64 " periods (no source field: io when next_io_ns"
			" is the prediction, else timer)\n", derived);
}

static void text_sleep(const struct sip_report *r, FILE *f, const struct sip_output_opts *o)
{
	const struct sip_sleep_report *s = &r->sleep;
	char b[3][32];

	fprintf(f, "\n%ssleep prediction%s\n", bold(o), norm(o));
	if (!r->has_sleep_predict) {
		fprintf(f, "  n/a: no sched_sleep_predict events\n");
		return;
	}
	fprintf(f, "  sleeps %" PRIu64 ", with a prediction %" PRIu64 " (%.1f%%), in the predicted"
		" bucket (within a factor sqrt(2)) %" PRIu64 " (%s of predicted)\n",
		s->sleeps, s->predicted, s->predicted_pct, s->in_bucket,
		pct_or_dash(b[0], sizeof(b[0]), s->predicted, s->in_bucket_pct));
	fprintf(f, "  |slept - predicted| p50 %s us p90 %s us; slept p50 %s us\n",
		us_or_dash(b[0], sizeof(b[0]), &s->abs_err, s->abs_err.p50),
		us_or_dash(b[1], sizeof(b[1]), &s->abs_err, s->abs_err.p90),
		us_or_dash(b[2], sizeof(b[2]), &s->slept, s->slept.p50));
	fprintf(f, "  woken elsewhere (wake_cpu != block_cpu) %" PRIu64 " (%.1f%%), their sleep p50 %s us\n",
		s->elsewhere, s->elsewhere_pct,
		us_or_dash(b[0], sizeof(b[0]), &s->slept_elsewhere, s->slept_elsewhere.p50));
}

static void text_states(const struct sip_report *r, FILE *f,
			const struct sip_output_opts *o, const char *cpu,
			const struct sip_cpu_stats *c)
{
	char buf[32];
	int s;

	for (s = 0; s < r->nr_states; s++) {
		const struct sip_state_stats *st = &c->st[s];

		fprintf(f, "%-4s %-8s %9" PRIu64 " %12.3f %6.1f%% %9" PRIu64 " %9" PRIu64
			" %11" PRIu64 " %9" PRIu64, cpu, sip_state_name(r, s, buf, sizeof(buf)),
			st->entries, st->residency_ns / 1e6, pct(st->residency_ns, c->idle_ns),
			st->correct, st->too_deep, st->too_shallow, st->oracle_entries);
		if (r->has_miss_events)
			fprintf(f, " %8" PRIu64 " %8" PRIu64, st->kernel_above, st->kernel_below);
		fputc('\n', f);
	}
	(void)o;
}

static void text_emit(const struct sip_report *r, FILE *f, const struct sip_output_opts *o)
{
	const struct sip_cpu_stats *t = &r->total;
	char cpu[16];
	int c, i;

	fprintf(f, "%ssip-idle-report%s: %s\n", bold(o), norm(o), r->trace_name ? r->trace_name : "-");
	fprintf(f, "platform %s, %d CPUs, %.6f s traced, %" PRIu64 " events, prediction event %s\n",
		r->plat->present ? r->plat->name : "(no description)", r->nr_cpus,
		(r->last_ns - r->first_ns) / 1e9, r->nr_events,
		r->has_predict ? "present" : "absent");
	fprintf(f, "%slost events: %" PRIu64 "%s", t->missed_events || t->missed_unknown ? bold(o) : "",
		t->missed_events, t->missed_events || t->missed_unknown ? norm(o) : "");
	if (t->missed_unknown)
		fprintf(f, " (+%" PRIu64 " gaps of unknown size)", t->missed_unknown);
	fprintf(f, "; idle periods discarded: %" PRIu64 ", open at end: %" PRIu64
		", unknown state: %" PRIu64 "\n", t->discarded, t->open_at_end, t->unknown_state);
	if (r->plat->present) {
		if (r->plat->latency_limit_ns == SIP_NO_LIMIT)
			fprintf(f, "latency limit: none");
		else
			fprintf(f, "latency limit: %" PRIu64 " us", r->plat->latency_limit_ns / 1000);
		fprintf(f, "%s\n", r->has_predict ? " (each period uses its prediction's latency_req_ns)" : "");
	}

	fprintf(f, "\n%s%-4s %-8s %9s %12s %7s %9s %9s %11s %9s", bold(o), "cpu", "state",
		"entries", "residency_ms", "resid", "correct", "too_deep", "too_shallow", "oracle");
	if (r->has_miss_events)
		fprintf(f, " %8s %8s", "k_above", "k_below");
	fprintf(f, "%s\n", norm(o));
	for (c = 0; c < r->nr_cpus; c++) {
		snprintf(cpu, sizeof(cpu), "%d", c);
		text_states(r, f, o, cpu, &r->cpu[c]);
	}
	text_states(r, f, o, "all", t);

	fprintf(f, "\n%sjudgement%s (%" PRIu64 " idle periods, %.3f ms idle)\n", bold(o), norm(o),
		t->idle_periods, t->idle_ns / 1e6);
	if (r->plat->present) {
		uint64_t cor = 0, deep = 0, shal = 0, lat = 0;
		int s;

		for (s = 0; s < r->nr_states; s++) {
			cor += t->st[s].correct;
			deep += t->st[s].too_deep;
			shal += t->st[s].too_shallow;
			lat += t->st[s].latency_violations;
		}
		fprintf(f, "  correct %" PRIu64 " (%.1f%%), too deep %" PRIu64 " (%.1f%%), too shallow %"
			PRIu64 " (%.1f%%), latency limit exceeded %" PRIu64 "\n",
			cor, pct(cor, t->idle_periods), deep, pct(deep, t->idle_periods),
			shal, pct(shal, t->idle_periods), lat);
		fprintf(f, "  energy: run %.3f uJ, oracle %.3f uJ, run/oracle %.4f\n",
			t->energy_uj, t->oracle_energy_uj, energy_ratio(t));
		for (c = 0; c < r->nr_cpus; c++)
			fprintf(f, "  cpu%-3d run %.3f uJ, oracle %.3f uJ, run/oracle %.4f\n", c,
				r->cpu[c].energy_uj, r->cpu[c].oracle_energy_uj,
				energy_ratio(&r->cpu[c]));
	} else {
		fprintf(f, "  n/a: no platform description (-p FILE)\n");
	}

	fprintf(f, "\n%swake-up latency%s\n", bold(o), norm(o));
	text_dist(f, "sched_wakeup -> running", &r->wake_to_run);
	text_dist(f, "  ... target CPU idle", &r->wake_to_run_idle);
	for (i = 0; i < r->nr_states; i++) {
		char what[64], buf[32];

		if (!r->wake_to_run_in[i].count)
			continue;
		snprintf(what, sizeof(what), "    ... in %s", sip_state_name(r, i, buf, sizeof(buf)));
		text_dist(f, what, &r->wake_to_run_in[i]);
	}
	text_dist(f, "idle exit -> sched_switch", &r->exit_to_switch);
	fprintf(f, "  idle exits with nothing to run: %" PRIu64 "\n", t->spurious);
	fprintf(f, "  periods woken before their exit (judged to the first event inside): %" PRIu64 "\n",
		t->woken_inside);

	fprintf(f, "\n%sprediction%s\n", bold(o), norm(o));
	if (!r->has_predict) {
		fprintf(f, "  n/a: no sched_idle_predict events (base kernel)\n");
	} else {
		fprintf(f, "  periods with a prediction %" PRIu64 ", entered state != predicted %" PRIu64
			", no cpuidle state chosen %" PRIu64 "\n",
			t->predicted, t->pred_state_mismatch, t->pred_no_state);
		if (r->plat->tick_ns)
			fprintf(f, "  tick stopped %" PRIu64 ", tick-stop misses (idle < %" PRIu64
				" us) %" PRIu64 "\n", t->tick_stopped, r->plat->tick_ns / 1000,
				t->tick_stop_misses);
		else
			fprintf(f, "  tick stopped %" PRIu64 ", tick-stop misses n/a (tick unknown)\n",
				t->tick_stopped);
		for (i = 0; i < SIP_NR_SRC; i++) {
			const struct sip_dist *e = &r->pred_err[i], *a = &r->pred_abs_err[i];

			if (!e->count) {
				fprintf(f, "  %-5s no periods\n", sip_src_name(i));
				continue;
			}
			fprintf(f, "  %-5s n=%-7zu early %" PRIu64 " late %" PRIu64
				"  error (actual-predicted) p50 %.1f us mean %.1f us  |error| p50 %.1f us p99 %.1f us\n",
				sip_src_name(i), e->count, r->pred_early[i], r->pred_late[i],
				e->p50 / 1e3, e->mean / 1e3, a->p50 / 1e3, a->p99 / 1e3);
		}
		if (r->has_horizon)
			fprintf(f, "  history horizons set %" PRIu64 ", reached %" PRIu64
				" (the next pass chose from the known events)\n",
				r->horizon_set, r->horizon_reached);
	}

	text_sources(r, f, o);
	text_sleep(r, f, o);

	if (r->nr_devs) {
		fprintf(f, "\n%sblock request latency%s (issue -> complete)\n", bold(o), norm(o));
		for (i = 0; i < r->nr_devs; i++) {
			char name[48];

			snprintf(name, sizeof(name), "dev %u:%u", r->devs[i].dev >> 20,
				 r->devs[i].dev & 0xfffff);
			text_dist(f, name, &r->devs[i].lat);
		}
	}
}

const struct sip_output sip_output_text = { "text", text_emit };

/* ----------------------------------------------------------------- CSV */

static void csv_u(FILE *f, const char *sec, const char *cpu, int state, const char *name,
		  const char *metric, uint64_t v)
{
	if (state >= 0)
		fprintf(f, "%s,%s,%d,%s,%s,%" PRIu64 "\n", sec, cpu, state, name, metric, v);
	else
		fprintf(f, "%s,%s,,%s,%s,%" PRIu64 "\n", sec, cpu, name, metric, v);
}

static void csv_d(FILE *f, const char *sec, const char *cpu, const char *name,
		  const char *metric, double v)
{
	fprintf(f, "%s,%s,,%s,%s,%.6f\n", sec, cpu, name, metric, v);
}

static void csv_dist(FILE *f, const char *sec, const char *name, const struct sip_dist *d)
{
	csv_u(f, sec, "all", -1, name, "count", d->count);
	if (!d->count)
		return;
	fprintf(f, "%s,all,,%s,p50_ns,%" PRId64 "\n", sec, name, d->p50);
	fprintf(f, "%s,all,,%s,p99_ns,%" PRId64 "\n", sec, name, d->p99);
	fprintf(f, "%s,all,,%s,min_ns,%" PRId64 "\n", sec, name, d->min);
	fprintf(f, "%s,all,,%s,max_ns,%" PRId64 "\n", sec, name, d->max);
	csv_d(f, sec, "all", name, "mean_ns", d->mean);
}

/* A distribution with its p90, for the figures that report one. */
static void csv_dist90(FILE *f, const char *sec, const char *name, const struct sip_dist *d)
{
	csv_dist(f, sec, name, d);
	if (d->count)
		fprintf(f, "%s,all,,%s,p90_ns,%" PRId64 "\n", sec, name, d->p90);
}

static void csv_cpu(const struct sip_report *r, FILE *f, const char *cpu,
		    const struct sip_cpu_stats *c)
{
	char buf[32];
	int s;

	for (s = 0; s < r->nr_states; s++) {
		const struct sip_state_stats *st = &c->st[s];
		const char *n = sip_state_name(r, s, buf, sizeof(buf));

		csv_u(f, "state", cpu, s, n, "entries", st->entries);
		csv_u(f, "state", cpu, s, n, "residency_ns", st->residency_ns);
		csv_u(f, "state", cpu, s, n, "correct", st->correct);
		csv_u(f, "state", cpu, s, n, "too_deep", st->too_deep);
		csv_u(f, "state", cpu, s, n, "too_shallow", st->too_shallow);
		csv_u(f, "state", cpu, s, n, "latency_violations", st->latency_violations);
		csv_u(f, "state", cpu, s, n, "oracle_entries", st->oracle_entries);
		csv_u(f, "state", cpu, s, n, "kernel_above", st->kernel_above);
		csv_u(f, "state", cpu, s, n, "kernel_below", st->kernel_below);
		fprintf(f, "state,%s,%d,%s,energy_uj,%.6f\n", cpu, s, n, st->energy_uj);
	}
	csv_u(f, "cpu", cpu, -1, "", "idle_periods", c->idle_periods);
	csv_u(f, "cpu", cpu, -1, "", "idle_ns", c->idle_ns);
	csv_u(f, "cpu", cpu, -1, "", "lost_events", c->missed_events);
	csv_u(f, "cpu", cpu, -1, "", "lost_gaps_unknown", c->missed_unknown);
	csv_u(f, "cpu", cpu, -1, "", "discarded", c->discarded);
	csv_u(f, "cpu", cpu, -1, "", "open_at_end", c->open_at_end);
	csv_u(f, "cpu", cpu, -1, "", "unknown_state", c->unknown_state);
	csv_u(f, "cpu", cpu, -1, "", "spurious_wakeups", c->spurious);
	csv_u(f, "cpu", cpu, -1, "", "woken_inside", c->woken_inside);
	csv_u(f, "cpu", cpu, -1, "", "predicted", c->predicted);
	csv_u(f, "cpu", cpu, -1, "", "pred_state_mismatch", c->pred_state_mismatch);
	csv_u(f, "cpu", cpu, -1, "", "pred_no_state", c->pred_no_state);
	csv_u(f, "cpu", cpu, -1, "", "tick_stopped", c->tick_stopped);
	csv_u(f, "cpu", cpu, -1, "", "tick_stop_misses", c->tick_stop_misses);
	csv_d(f, "cpu", cpu, "", "energy_uj", c->energy_uj);
	csv_d(f, "cpu", cpu, "", "oracle_energy_uj", c->oracle_energy_uj);
	csv_d(f, "cpu", cpu, "", "energy_ratio", energy_ratio(c));
}

static void csv_emit(const struct sip_report *r, FILE *f, const struct sip_output_opts *o)
{
	char cpu[16];
	int c, i;

	(void)o;
	fprintf(f, "section,cpu,state,name,metric,value\n");
	csv_u(f, "run", "all", -1, "", "cpus", r->nr_cpus);
	csv_u(f, "run", "all", -1, "", "duration_ns", r->last_ns - r->first_ns);
	csv_u(f, "run", "all", -1, "", "events", r->nr_events);
	csv_u(f, "run", "all", -1, "", "lost_events", r->total.missed_events);
	csv_u(f, "run", "all", -1, "", "lost_gaps_unknown", r->total.missed_unknown);
	csv_u(f, "run", "all", -1, "", "has_predict", r->has_predict);
	csv_u(f, "run", "all", -1, "", "has_sleep_predict", r->has_sleep_predict);
	csv_u(f, "run", "all", -1, "", "has_platform", r->plat->present);
	for (c = 0; c < r->nr_cpus; c++) {
		snprintf(cpu, sizeof(cpu), "%d", c);
		csv_cpu(r, f, cpu, &r->cpu[c]);
	}
	csv_cpu(r, f, "all", &r->total);
	csv_dist(f, "latency", "wake_to_run", &r->wake_to_run);
	csv_dist(f, "latency", "wake_to_run_idle", &r->wake_to_run_idle);
	for (i = 0; i < r->nr_states; i++) {
		char n[64], buf[32];

		snprintf(n, sizeof(n), "wake_to_run_in_%s", sip_state_name(r, i, buf, sizeof(buf)));
		csv_dist(f, "latency", n, &r->wake_to_run_in[i]);
	}
	csv_dist(f, "latency", "exit_to_switch", &r->exit_to_switch);
	if (r->has_predict) {
		for (i = 0; i < SIP_NR_SRC; i++) {
			char n[32];

			snprintf(n, sizeof(n), "%s_error", sip_src_name(i));
			csv_dist(f, "prediction", n, &r->pred_err[i]);
			snprintf(n, sizeof(n), "%s_abs_error", sip_src_name(i));
			csv_dist(f, "prediction", n, &r->pred_abs_err[i]);
			snprintf(n, sizeof(n), "%s", sip_src_name(i));
			csv_u(f, "prediction", "all", -1, n, "early", r->pred_early[i]);
			csv_u(f, "prediction", "all", -1, n, "late", r->pred_late[i]);
		}
		if (r->has_horizon) {
			csv_u(f, "prediction", "all", -1, "history", "horizon_set",
			      r->horizon_set);
			csv_u(f, "prediction", "all", -1, "history", "horizon_reached",
			      r->horizon_reached);
		}
		for (i = 0; i < SIP_NR_SRC; i++) {
			const struct sip_src_report *s = &r->src[i];
			const char *n = sip_src_name(i);
			char dn[32];

			csv_u(f, "source", "all", -1, n, "periods", s->periods);
			csv_u(f, "source", "all", -1, n, "derived", s->derived);
			csv_d(f, "source", "all", n, "share_pct", s->share_pct);
			csv_u(f, "source", "all", -1, n, "judged", s->judged);
			csv_u(f, "source", "all", -1, n, "correct", s->correct);
			csv_u(f, "source", "all", -1, n, "too_deep", s->too_deep);
			csv_u(f, "source", "all", -1, n, "too_shallow", s->too_shallow);
			csv_d(f, "source", "all", n, "correct_pct", s->correct_pct);
			csv_d(f, "source", "all", n, "too_deep_pct", s->too_deep_pct);
			csv_d(f, "source", "all", n, "too_shallow_pct", s->too_shallow_pct);
			snprintf(dn, sizeof(dn), "%s_duration_abs_error", n);
			csv_dist90(f, "source", dn, &s->dur_abs_err);
		}
	}
	if (r->has_sleep_predict) {
		const struct sip_sleep_report *s = &r->sleep;

		csv_u(f, "sleep", "all", -1, "", "sleeps", s->sleeps);
		csv_u(f, "sleep", "all", -1, "", "predicted", s->predicted);
		csv_u(f, "sleep", "all", -1, "", "in_bucket", s->in_bucket);
		csv_u(f, "sleep", "all", -1, "", "elsewhere", s->elsewhere);
		csv_d(f, "sleep", "all", "", "predicted_pct", s->predicted_pct);
		csv_d(f, "sleep", "all", "", "in_bucket_pct", s->in_bucket_pct);
		csv_d(f, "sleep", "all", "", "elsewhere_pct", s->elsewhere_pct);
		csv_dist90(f, "sleep", "slept", &s->slept);
		csv_dist90(f, "sleep", "slept_elsewhere", &s->slept_elsewhere);
		csv_dist90(f, "sleep", "abs_error", &s->abs_err);
	}
	for (i = 0; i < r->nr_devs; i++) {
		char n[32];

		snprintf(n, sizeof(n), "%u:%u", r->devs[i].dev >> 20, r->devs[i].dev & 0xfffff);
		csv_dist(f, "block", n, &r->devs[i].lat);
	}
}

const struct sip_output sip_output_csv = { "csv", csv_emit };

/* ---------------------------------------------------------------- JSON */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_dist(FILE *f, const struct sip_dist *d)
{
	if (!d->count) {
		fprintf(f, "{\"count\": 0}");
		return;
	}
	fprintf(f, "{\"count\": %zu, \"p50_ns\": %" PRId64 ", \"p99_ns\": %" PRId64
		", \"min_ns\": %" PRId64 ", \"max_ns\": %" PRId64 ", \"mean_ns\": %.3f}",
		d->count, d->p50, d->p99, d->min, d->max, d->mean);
}

/* DIST plus "p90_ns", for the figures that report one. */
static void json_dist90(FILE *f, const struct sip_dist *d)
{
	if (!d->count) {
		fprintf(f, "{\"count\": 0}");
		return;
	}
	fprintf(f, "{\"count\": %zu, \"p50_ns\": %" PRId64 ", \"p90_ns\": %" PRId64
		", \"p99_ns\": %" PRId64 ", \"min_ns\": %" PRId64 ", \"max_ns\": %" PRId64
		", \"mean_ns\": %.3f}", d->count, d->p50, d->p90, d->p99, d->min, d->max, d->mean);
}

static void json_cpu(const struct sip_report *r, FILE *f, const struct sip_cpu_stats *c,
		     const char *ind)
{
	char buf[32];
	int s;

	fprintf(f, "%s\"idle_periods\": %" PRIu64 ", \"idle_ns\": %" PRIu64 ",\n", ind,
		c->idle_periods, c->idle_ns);
	fprintf(f, "%s\"lost_events\": %" PRIu64 ", \"lost_gaps_unknown\": %" PRIu64
		", \"discarded\": %" PRIu64 ", \"open_at_end\": %" PRIu64
		", \"unknown_state\": %" PRIu64 ", \"spurious_wakeups\": %" PRIu64
		", \"woken_inside\": %" PRIu64 ",\n", ind,
		c->missed_events, c->missed_unknown, c->discarded, c->open_at_end,
		c->unknown_state, c->spurious, c->woken_inside);
	fprintf(f, "%s\"predicted\": %" PRIu64 ", \"pred_state_mismatch\": %" PRIu64
		", \"pred_no_state\": %" PRIu64 ", \"tick_stopped\": %" PRIu64
		", \"tick_stop_misses\": %" PRIu64 ",\n", ind,
		c->predicted, c->pred_state_mismatch, c->pred_no_state, c->tick_stopped,
		c->tick_stop_misses);
	fprintf(f, "%s\"energy_uj\": %.6f, \"oracle_energy_uj\": %.6f, \"energy_ratio\": %.6f,\n",
		ind, c->energy_uj, c->oracle_energy_uj, energy_ratio(c));
	fprintf(f, "%s\"states\": [\n", ind);
	for (s = 0; s < r->nr_states; s++) {
		const struct sip_state_stats *st = &c->st[s];

		fprintf(f, "%s  {\"index\": %d, \"name\": ", ind, s);
		json_str(f, sip_state_name(r, s, buf, sizeof(buf)));
		fprintf(f, ", \"entries\": %" PRIu64 ", \"residency_ns\": %" PRIu64
			", \"correct\": %" PRIu64 ", \"too_deep\": %" PRIu64 ", \"too_shallow\": %" PRIu64
			", \"latency_violations\": %" PRIu64 ", \"oracle_entries\": %" PRIu64
			", \"kernel_above\": %" PRIu64 ", \"kernel_below\": %" PRIu64
			", \"energy_uj\": %.6f}%s\n",
			st->entries, st->residency_ns, st->correct, st->too_deep, st->too_shallow,
			st->latency_violations, st->oracle_entries, st->kernel_above,
			st->kernel_below, st->energy_uj, s + 1 < r->nr_states ? "," : "");
	}
	fprintf(f, "%s]\n", ind);
}

static void json_emit(const struct sip_report *r, FILE *f, const struct sip_output_opts *o)
{
	const struct sip_platform *p = r->plat;
	int c, i;

	(void)o;
	fprintf(f, "{\n  \"schema\": \"sip-idle-report/1\",\n  \"trace\": ");
	json_str(f, r->trace_name ? r->trace_name : "");
	fprintf(f, ",\n  \"cpus\": %d, \"duration_ns\": %" PRIu64 ", \"events\": %" PRIu64
		", \"has_predict\": %s, \"has_sleep_predict\": %s,\n", r->nr_cpus,
		r->last_ns - r->first_ns, r->nr_events, r->has_predict ? "true" : "false",
		r->has_sleep_predict ? "true" : "false");
	fprintf(f, "  \"lost_events\": %" PRIu64 ", \"lost_gaps_unknown\": %" PRIu64 ",\n",
		r->total.missed_events, r->total.missed_unknown);
	if (!p->present) {
		fprintf(f, "  \"platform\": null,\n");
	} else {
		fprintf(f, "  \"platform\": {\"name\": ");
		json_str(f, p->name);
		if (p->latency_limit_ns == SIP_NO_LIMIT)
			fprintf(f, ", \"latency_limit_ns\": null");
		else
			fprintf(f, ", \"latency_limit_ns\": %" PRIu64, p->latency_limit_ns);
		fprintf(f, ", \"tick_ns\": %" PRIu64 ", \"states\": [\n", p->tick_ns);
		for (i = 0; i < p->nr_states; i++) {
			const struct sip_state_desc *s = &p->states[i];

			fprintf(f, "    {\"index\": %d, \"name\": ", i);
			json_str(f, s->name);
			fprintf(f, ", \"exit_latency_ns\": %" PRIu64 ", \"target_residency_ns\": %" PRIu64
				", \"power_mw\": %.6f, \"transition_uj\": %.6f, \"enabled\": %s}%s\n",
				s->exit_latency_ns, s->target_residency_ns, s->power_mw,
				s->transition_uj, s->disabled ? "false" : "true",
				i + 1 < p->nr_states ? "," : "");
		}
		fprintf(f, "  ]},\n");
	}
	fprintf(f, "  \"per_cpu\": [\n");
	for (c = 0; c < r->nr_cpus; c++) {
		fprintf(f, "   {\"cpu\": %d,\n", c);
		json_cpu(r, f, &r->cpu[c], "    ");
		fprintf(f, "   }%s\n", c + 1 < r->nr_cpus ? "," : "");
	}
	fprintf(f, "  ],\n  \"total\": {\n");
	json_cpu(r, f, &r->total, "    ");
	fprintf(f, "  },\n  \"latency\": {\"wake_to_run\": ");
	json_dist(f, &r->wake_to_run);
	fprintf(f, ",\n    \"wake_to_run_idle\": ");
	json_dist(f, &r->wake_to_run_idle);
	fprintf(f, ",\n    \"wake_to_run_in\": [");
	for (i = 0; i < r->nr_states; i++) {
		char buf[32];

		fprintf(f, "%s\n      {\"index\": %d, \"name\": ", i ? "," : "", i);
		json_str(f, sip_state_name(r, i, buf, sizeof(buf)));
		fprintf(f, ", \"latency\": ");
		json_dist(f, &r->wake_to_run_in[i]);
		fprintf(f, "}");
	}
	fprintf(f, "]");
	fprintf(f, ",\n    \"exit_to_switch\": ");
	json_dist(f, &r->exit_to_switch);
	fprintf(f, "},\n  \"prediction\": ");
	if (!r->has_predict) {
		fprintf(f, "null");
	} else {
		fprintf(f, "{\n");
		for (i = 0; i < SIP_NR_SRC; i++) {
			fprintf(f, "    \"%s\": {\"early\": %" PRIu64 ", \"late\": %" PRIu64
				", \"error\": ", sip_src_name(i), r->pred_early[i], r->pred_late[i]);
			json_dist(f, &r->pred_err[i]);
			fprintf(f, ", \"abs_error\": ");
			json_dist(f, &r->pred_abs_err[i]);
			fprintf(f, "}%s\n", i + 1 < SIP_NR_SRC ? "," : "");
		}
		if (r->has_horizon)
			fprintf(f, "    ,\"history_horizon\": {\"set\": %" PRIu64
				", \"reached\": %" PRIu64 "}\n",
				r->horizon_set, r->horizon_reached);
		fprintf(f, "  }");
	}
	fprintf(f, ",\n  \"sources\": ");
	if (!r->has_predict) {
		fprintf(f, "null");
	} else {
		fprintf(f, "{\n");
		for (i = 0; i < SIP_NR_SRC; i++) {
			const struct sip_src_report *s = &r->src[i];

			fprintf(f, "    \"%s\": {\"periods\": %" PRIu64 ", \"derived\": %" PRIu64
				", \"share_pct\": %.6f, \"duration_abs_error\": ", sip_src_name(i),
				s->periods, s->derived, s->share_pct);
			json_dist90(f, &s->dur_abs_err);
			fprintf(f, ",\n      \"judged\": %" PRIu64 ", \"correct\": %" PRIu64
				", \"too_deep\": %" PRIu64 ", \"too_shallow\": %" PRIu64
				", \"correct_pct\": %.6f, \"too_deep_pct\": %.6f"
				", \"too_shallow_pct\": %.6f}%s\n", s->judged, s->correct,
				s->too_deep, s->too_shallow, s->correct_pct, s->too_deep_pct,
				s->too_shallow_pct, i + 1 < SIP_NR_SRC ? "," : "");
		}
		fprintf(f, "  }");
	}
	fprintf(f, ",\n  \"sleep_predict\": ");
	if (!r->has_sleep_predict) {
		fprintf(f, "null");
	} else {
		const struct sip_sleep_report *s = &r->sleep;

		fprintf(f, "{\"sleeps\": %" PRIu64 ", \"predicted\": %" PRIu64
			", \"in_bucket\": %" PRIu64 ", \"elsewhere\": %" PRIu64 ",\n"
			"    \"predicted_pct\": %.6f, \"in_bucket_pct\": %.6f, \"elsewhere_pct\": %.6f,\n"
			"    \"slept\": ", s->sleeps, s->predicted, s->in_bucket, s->elsewhere,
			s->predicted_pct, s->in_bucket_pct, s->elsewhere_pct);
		json_dist90(f, &s->slept);
		fprintf(f, ",\n    \"slept_elsewhere\": ");
		json_dist90(f, &s->slept_elsewhere);
		fprintf(f, ",\n    \"abs_error\": ");
		json_dist90(f, &s->abs_err);
		fprintf(f, "}");
	}
	fprintf(f, ",\n  \"block\": [");
	for (i = 0; i < r->nr_devs; i++) {
		fprintf(f, "%s\n    {\"dev\": \"%u:%u\", \"latency\": ", i ? "," : "",
			r->devs[i].dev >> 20, r->devs[i].dev & 0xfffff);
		json_dist(f, &r->devs[i].lat);
		fprintf(f, "}");
	}
	fprintf(f, "%s]\n}\n", r->nr_devs ? "\n  " : "");
}

const struct sip_output sip_output_json = { "json", json_emit };
