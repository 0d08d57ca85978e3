// SPDX-License-Identifier: GPL-2.0
/*
 * sip-idle-report: the model. Events go in one at a time in timestamp order
 * (sip_model_feed()), the report comes out at the end. Nothing here knows
 * about trace.dat; tests feed synthetic events straight in.
 *
 * Idle periods. power:cpu_idle with state S on CPU C opens a period, the
 * next power:cpu_idle with state 4294967295 (PWR_EVENT_EXIT) on C closes it;
 * its length is the difference of the two timestamps, unless C recorded
 * another event in between. A CPU in an idle state records nothing: an
 * event of C inside the period (an interrupt's entry, a wake-up or a block
 * completion its handler traced) says that C was woken before that event.
 * A state entered with interrupts enabled (HLT, or the emulated platform's
 * states, which halt) runs the handlers before its ->enter() returns, so
 * the exit comes after the handlers, and after every interrupt that
 * became pending meanwhile: 16 readers of one disk make a CPU handle up to
 * ten completions between the wake-up and the exit. The sleep that the
 * state was chosen for ended at the first of them. Such a period is taken
 * to last until that event plus the state's exit latency, what the exit
 * would have cost had the hardware taken the interrupt after waking, as
 * intel_idle's MWAIT states with interrupts off do; the judgement, the
 * energies and the prediction errors below use that length, while the
 * residency per state stays enter-to-exit, as the kernel's sysfs "time"
 * counts it. Periods so cut are counted (woken_inside). --to-exit
 * (sip_model_set_to_exit()) judges enter-to-exit instead, the length the
 * kernel's own above/below counters judge. An exit without an
 * entry (the trace began inside idle) is ignored, an entry still open when
 * the trace ends is counted in open_at_end, and a period during which C's
 * ring buffer lost events is thrown away (discarded): with events missing we
 * cannot know the period was one period.
 *
 * The judgement of a period of length d in state s, with the latency limit L
 * (the prediction event's latency_req_ns when the period has one, otherwise
 * the platform description's limit):
 *
 *   allowed(t)	= t is enabled and exit_latency(t) <= L
 *   too deep	= d < target_residency(s) and some shallower t is allowed
 *		  (the kernel's "above" rule, cpuidle_reflect())
 *   too shallow = d > exit_latency(s) and some deeper allowed t has
 *		  target_residency(t) <= d - exit_latency(s)
 *		  (the "below" rule, with the latency limit taken into account,
 *		  which the kernel's power:cpu_idle_miss does not do)
 *   correct	= neither
 *
 * The hindsight oracle knows d. For every period it picks the allowed state
 * of least modelled energy, E_t(d) = power_mw(t) * d + transition_uj(t);
 * mW times ms is uJ, so E_uj = power_mw * d_ns / 1e6 + transition_uj. The
 * run's energy divided by the oracle's is >= 1 by construction; 1.00 is a
 * perfect governor. The energy oracle and the residency rule agree when the
 * platform's target residencies are the break-even points of its power
 * figures, which is what target residency means; they can differ on a
 * platform described inconsistently, and then the report shows both.
 *
 * Decisions by source. The period's prediction (sched_idle_predict) says
 * which input set duration_ns, the duration the state was chosen for:
 * timer (the next timer, or the tick when it is kept), io, task (a task
 * that blocked on this CPU and is expected to wake), or history (the CPU's
 * intercept history cut the choice shallower). Per source: the periods,
 * |duration_ns - d| and the judgement of the entered state. duration_ns,
 * not predicted_ns, is what the source is answerable for: with the tick
 * kept, predicted_ns is the next timer the tick pre-empts, and with
 * history it is the inputs' value the history overrode; for io and task
 * the two are equal. |predicted_ns - d| is kept beside it (the prediction
 * error lines), which for history is what the inputs alone would have
 * missed by.
 *
 * Horizons: a prediction with horizon_ns set is a history guess for which
 * the kernel armed a timer at horizon_ns; if the CPU is still idle then,
 * the period ends and the next pass chooses from the known events. Such a
 * period reached its horizon when it lasted, from its power:cpu_idle entry
 * to its exit, at least horizon_ns - SIP_HORIZON_EARLY_NS: the timer starts
 * just before the entry, so a period it ended is that much shorter than
 * horizon_ns (a few us in the guest; a period something else ended within
 * 20 us of the horizon counts as reached too). Worked: horizon_ns 110 us,
 * periods of 40 us (the guess was right) and of 108 us (reached): set 2,
 * reached 1. Each pass is judged as its own period.
 *
 * Sleeps (sched_sleep_predict): counted, with or without a prediction; a
 * predicted sleep is in its bucket when slept and predicted are within a
 * factor sqrt(2) (sip_same_bucket()); a sleep is woken elsewhere when the
 * CPU it is activated on is not the one it blocked on (whose expected
 * wake-up, next_task_ns, then did not come).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* How much shorter than horizon_ns a period the horizon ended may look. */
#define SIP_HORIZON_EARLY_NS	20000

/*
 * A map from a 64-bit key to a timestamp, open addressing with linear
 * probing and backward-shift deletion. Pending wake-ups (key: pid) and
 * in-flight block requests (key: dev, sector) live here. The size is
 * bounded: a trace that loses completions cannot grow it past MAP_MAX
 * entries; at that point the map is emptied and the loss counted.
 */
#define MAP_MAX		(1u << 20)

struct map_slot {
	uint64_t key;
	uint64_t ts_ns;
	uint8_t used, flag;
};

struct map {
	struct map_slot *s;
	size_t cap, n;
	uint64_t overflows;
};

static size_t map_hash(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key & (cap - 1);
}

static struct map_slot *map_find(struct map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = map_hash(key, m->cap); m->s[i].used; i = (i + 1) & (m->cap - 1))
		if (m->s[i].key == key)
			return &m->s[i];
	return NULL;
}

static int map_grow(struct map *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 1024, i;
	struct map_slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->s[i].used)
			continue;
		for (j = map_hash(m->s[i].key, ncap); ns[j].used; j = (j + 1) & (ncap - 1))
			;
		ns[j] = m->s[i];
	}
	free(m->s);
	m->s = ns;
	m->cap = ncap;
	return 0;
}

static int map_put(struct map *m, uint64_t key, uint64_t ts_ns, uint8_t flag)
{
	struct map_slot *sl = map_find(m, key);
	size_t i;

	if (sl) {
		sl->ts_ns = ts_ns;
		sl->flag = flag;
		return 0;
	}
	if (m->n >= MAP_MAX) {
		memset(m->s, 0, m->cap * sizeof(*m->s));
		m->n = 0;
		m->overflows++;
	}
	if ((m->n + 1) * 2 > m->cap && map_grow(m))
		return -1;
	for (i = map_hash(key, m->cap); m->s[i].used; i = (i + 1) & (m->cap - 1))
		;
	m->s[i] = (struct map_slot){ .key = key, .ts_ns = ts_ns, .used = 1, .flag = flag };
	m->n++;
	return 0;
}

static void map_del(struct map *m, struct map_slot *sl)
{
	size_t i = sl - m->s, j = i;

	m->s[i].used = 0;
	m->n--;
	for (;;) {
		size_t h;

		j = (j + 1) & (m->cap - 1);
		if (!m->s[j].used)
			return;
		h = map_hash(m->s[j].key, m->cap);
		/* Move j back to i unless its home lies cyclically in (i, j]. */
		if ((i <= j) ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		m->s[i] = m->s[j];
		m->s[j].used = 0;
		i = j;
	}
}

static int samples_add(struct sip_samples *s, int64_t v)
{
	if (s->n == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 256;
		int64_t *nv = realloc(s->v, ncap * sizeof(*nv));

		if (!nv)
			return -1;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n++] = v;
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/**
 * sip_dist_compute() - summarise samples
 * @s: the samples; sorted in place
 * @d: the summary
 *
 * Percentiles are nearest-rank: pN is the smallest sample with at least N%
 * of the samples at or below it, i.e. sorted[ceil(N * n / 100) - 1]. With
 * 10 samples p50 is the 5th, p90 the 9th and p99 the 10th.
 *
 * Return: 0.
 */
int sip_dist_compute(const struct sip_samples *s, struct sip_dist *d)
{
	double sum = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	if (!s->n)
		return 0;
	qsort(s->v, s->n, sizeof(*s->v), cmp_i64);
	for (i = 0; i < s->n; i++)
		sum += (double)s->v[i];
	d->count = s->n;
	d->min = s->v[0];
	d->max = s->v[s->n - 1];
	d->p50 = s->v[(50 * s->n + 99) / 100 - 1];
	d->p90 = s->v[(90 * s->n + 99) / 100 - 1];
	d->p99 = s->v[(99 * s->n + 99) / 100 - 1];
	d->mean = sum / (double)s->n;
	return 0;
}

struct pred {
	bool valid;
	uint64_t next_timer_ns, next_io_ns, next_task_ns, latency_req_ns;
	uint64_t predicted_ns, duration_ns;
	int32_t state;
	bool tick_stopped;
	int src;		/* enum sip_src */
	bool src_derived;
	uint64_t horizon_ns;	/* 0: no horizon */
};

struct cpu_rt {
	bool in_idle;
	bool woken;		/* an event of this CPU inside the period */
	uint64_t woken_ns;	/* ... the first one */
	uint64_t idle_start_ns;
	uint32_t idle_state;
	struct pred pending;	/* last prediction, not yet used */
	struct pred cur;	/* the prediction of the open period */
	bool exit_pending;	/* idle exited, no sched_switch yet */
	uint64_t exit_ns;
};

struct dev_acc {
	uint32_t dev;
	struct sip_samples lat;
};

struct sip_model {
	struct sip_platform plat;
	struct cpu_rt rt[SIP_MAX_CPUS];
	struct sip_cpu_stats cpu[SIP_MAX_CPUS];
	int nr_cpus;
	int max_state;
	struct map wake, rq;
	struct sip_samples wake_to_run, wake_to_run_idle, exit_to_switch;
	struct sip_samples wake_to_run_in[SIP_MAX_STATES];	/* by target's state */
	struct sip_pred_stats pred[SIP_NR_SRC];
	struct sip_sleep_stats sleep;
	struct dev_acc *devs;
	int nr_devs;
	struct sip_report rep;
	sip_period_sink sink;
	void *sink_arg;
	bool seen_first;
	bool finished;
	bool to_exit;		/* judge to the exit, not to the first event */
};

static bool allowed(const struct sip_platform *plat, int t, uint64_t limit_ns)
{
	return !plat->states[t].disabled &&
	       plat->states[t].exit_latency_ns <= limit_ns;
}

/**
 * sip_ideal_state() - the state the residency rule asks for
 * @plat: platform description
 * @length_ns: the idle period's actual length
 * @limit_ns: the latency limit in force
 *
 * Return: the deepest allowed state whose target residency is at most
 * @length_ns; the shallowest allowed state when none is; 0 when nothing is
 * allowed at all.
 */
int sip_ideal_state(const struct sip_platform *plat, uint64_t length_ns,
		    uint64_t limit_ns)
{
	int t, best = -1, first = -1;

	for (t = 0; t < plat->nr_states; t++) {
		if (!allowed(plat, t, limit_ns))
			continue;
		if (first < 0)
			first = t;
		if (plat->states[t].target_residency_ns <= length_ns)
			best = t;
	}
	if (best >= 0)
		return best;
	return first >= 0 ? first : 0;
}

/**
 * sip_energy_uj() - modelled energy of one idle period
 * @plat: platform description
 * @state: the state
 * @length_ns: how long the CPU stayed idle
 *
 * Return: power_mw * length + transition cost, in microjoules.
 */
double sip_energy_uj(const struct sip_platform *plat, int state,
		     uint64_t length_ns)
{
	const struct sip_state_desc *s = &plat->states[state];

	return s->power_mw * ((double)length_ns / 1e6) + s->transition_uj;
}

/**
 * sip_oracle_state() - the state of least energy, in hindsight
 * @plat: platform description
 * @length_ns: the idle period's actual length
 * @limit_ns: the latency limit in force
 *
 * Return: the allowed state of least sip_energy_uj(), the shallower one on
 * a tie; 0 when nothing is allowed.
 */
int sip_oracle_state(const struct sip_platform *plat, uint64_t length_ns,
		     uint64_t limit_ns)
{
	double best_uj = 0;
	int t, best = -1;

	for (t = 0; t < plat->nr_states; t++) {
		double e;

		if (!allowed(plat, t, limit_ns))
			continue;
		e = sip_energy_uj(plat, t, length_ns);
		if (best < 0 || e < best_uj) {
			best = t;
			best_uj = e;
		}
	}
	return best >= 0 ? best : 0;
}

/**
 * sip_classify() - judge one idle period
 * @plat: platform description
 * @state: the state the kernel entered
 * @length_ns: the period's actual length
 * @limit_ns: the latency limit in force
 *
 * Return: SIP_TOO_DEEP, SIP_TOO_SHALLOW or SIP_CORRECT by the rules at the
 * top of this file; SIP_UNCLASSIFIED for a state the platform lacks.
 */
int sip_classify(const struct sip_platform *plat, int state,
		 uint64_t length_ns, uint64_t limit_ns)
{
	uint64_t resident_ns;
	int t;

	if (state < 0 || state >= plat->nr_states)
		return SIP_UNCLASSIFIED;
	if (length_ns < plat->states[state].target_residency_ns)
		for (t = 0; t < state; t++)
			if (allowed(plat, t, limit_ns))
				return SIP_TOO_DEEP;
	/*
	 * The period ends with the state's exit latency: what a deeper state
	 * could have used is the rest, as the kernel's "below" counts it
	 * (cpuidle_enter_state(): diff > exit_latency and diff - exit_latency
	 * >= the next enabled deeper state's target residency). Without the
	 * subtraction a C6 period (exit 85 us) of 850 us would count against
	 * C7s (800 us), which the kernel does not; on a guest trace of the
	 * x86-client platform that made 5-10% more too-shallow C6 periods
	 * than the sysfs "below".
	 */
	if (length_ns <= plat->states[state].exit_latency_ns)
		return SIP_CORRECT;
	resident_ns = length_ns - plat->states[state].exit_latency_ns;
	for (t = state + 1; t < plat->nr_states; t++)
		if (allowed(plat, t, limit_ns) &&
		    plat->states[t].target_residency_ns <= resident_ns)
			return SIP_TOO_SHALLOW;
	return SIP_CORRECT;
}

const char *sip_class_name(int cls)
{
	static const char *const n[] = { "correct", "too_deep", "too_shallow",
					 "unclassified" };

	return (cls >= 0 && cls <= SIP_UNCLASSIFIED) ? n[cls] : "?";
}

const char *sip_src_name(int src)
{
	static const char *const n[] = { "timer", "io", "task", "history" };

	return (src >= 0 && src < SIP_NR_SRC) ? n[src] : "?";
}

/**
 * sip_pred_source() - the source of a sched_idle_predict decision
 * @ev: a SIP_EV_PREDICT event
 * @derived: set when the source was derived rather than traced
 *
 * The traced source when the event has one in range. Formats before the
 * field (and a value this analyser does not know) get it derived from the
 * inputs those formats had: io when next_io_ns is non-zero and is the
 * prediction (next_io_ns == predicted_ns), else timer.
 *
 * Return: an enum sip_src.
 */
int sip_pred_source(const struct sip_event *ev, bool *derived)
{
	if (ev->pred.has_source && ev->pred.source >= 0 && ev->pred.source < SIP_NR_SRC) {
		*derived = false;
		return ev->pred.source;
	}
	*derived = true;
	return ev->pred.next_io_ns && ev->pred.next_io_ns == ev->pred.predicted_ns ?
	       SIP_SRC_IO : SIP_SRC_TIMER;
}

/**
 * sip_same_bucket() - a prediction and a measurement in the same bucket
 * @predicted_ns: the prediction, 0 for none
 * @actual_ns: what was measured
 *
 * The kernel's sleep buckets are half an octave wide: their bounds are a
 * factor sqrt(2) apart. The trace has the predicted value, not its
 * bucket, so the bucket is centred on the prediction: a hit is
 * predicted / sqrt(2) <= actual <= predicted * sqrt(2), computed exactly
 * as max^2 <= 2 * min^2. Two values in one kernel bucket always pass.
 *
 * Return: true on a hit; false without a prediction.
 */
bool sip_same_bucket(uint64_t predicted_ns, uint64_t actual_ns)
{
	uint64_t lo = predicted_ns < actual_ns ? predicted_ns : actual_ns;
	uint64_t hi = predicted_ns < actual_ns ? actual_ns : predicted_ns;

	if (!predicted_ns)
		return false;
	/* 2 * lo^2 must fit 128 bits: the ratio survives the shift */
	while (lo >> 62) {
		lo >>= 1;
		hi >>= 1;
	}
	return (unsigned __int128)hi * hi <= 2 * (unsigned __int128)lo * lo;
}

const char *sip_state_name(const struct sip_report *r, int state, char *buf,
			   size_t len)
{
	if (r->plat->present && state < r->plat->nr_states)
		return r->plat->states[state].name;
	snprintf(buf, len, "state%d", state);
	return buf;
}

struct sip_model *sip_model_new(const struct sip_platform *plat)
{
	struct sip_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (plat)
		m->plat = *plat;
	m->max_state = m->plat.present ? m->plat.nr_states - 1 : -1;
	return m;
}

void sip_model_set_sink(struct sip_model *m, sip_period_sink fn, void *arg)
{
	m->sink = fn;
	m->sink_arg = arg;
}

void sip_model_set_to_exit(struct sip_model *m, bool to_exit)
{
	m->to_exit = to_exit;
}

static void note_cpu(struct sip_model *m, int cpu)
{
	if (cpu + 1 > m->nr_cpus)
		m->nr_cpus = cpu + 1;
}

static int close_period(struct sip_model *m, int cpu, uint64_t end_ns)
{
	struct cpu_rt *rt = &m->rt[cpu];
	struct sip_cpu_stats *cs = &m->cpu[cpu];
	const struct sip_platform *plat = &m->plat;
	uint64_t full = end_ns - rt->idle_start_ns, d = full;
	uint64_t limit = plat->present ? plat->latency_limit_ns : SIP_NO_LIMIT;
	struct sip_period p = {
		.cpu = cpu, .start_ns = rt->idle_start_ns, .length_ns = d,
		.state = rt->idle_state, .oracle_state = -1, .ideal_state = -1,
		.cls = SIP_UNCLASSIFIED,
	};
	int s = rt->idle_state;

	rt->in_idle = false;
	if (rt->idle_state >= SIP_MAX_STATES) {
		cs->unknown_state++;
		return 0;
	}
	if (s > m->max_state)
		m->max_state = s;
	cs->idle_periods++;
	cs->idle_ns += full;
	cs->st[s].entries++;
	cs->st[s].residency_ns += full;

	if (rt->woken && !m->to_exit) {
		uint64_t exit_ns = plat->present && s < plat->nr_states ?
				   plat->states[s].exit_latency_ns : 0;
		uint64_t slept = rt->woken_ns - rt->idle_start_ns + exit_ns;

		if (slept < d) {
			d = slept;
			p.length_ns = d;
			cs->woken_inside++;
		}
	}

	if (rt->cur.valid)
		limit = rt->cur.latency_req_ns;
	if (rt->cur.valid && rt->cur.horizon_ns) {
		m->rep.horizon_set++;
		if (full + SIP_HORIZON_EARLY_NS >= rt->cur.horizon_ns)
			m->rep.horizon_reached++;
	}

	if (plat->present && s < plat->nr_states) {
		int o = sip_oracle_state(plat, d, limit);
		double e = sip_energy_uj(plat, s, d);
		double eo = sip_energy_uj(plat, o, d);

		p.cls = sip_classify(plat, s, d, limit);
		p.oracle_state = o;
		p.ideal_state = sip_ideal_state(plat, d, limit);
		switch (p.cls) {
		case SIP_CORRECT:
			cs->st[s].correct++;
			break;
		case SIP_TOO_DEEP:
			cs->st[s].too_deep++;
			break;
		case SIP_TOO_SHALLOW:
			cs->st[s].too_shallow++;
			break;
		}
		if (!allowed(plat, s, limit))
			cs->st[s].latency_violations++;
		cs->st[o].oracle_entries++;
		cs->st[s].energy_uj += e;
		cs->energy_uj += e;
		cs->oracle_energy_uj += eo;
	}

	if (rt->cur.valid) {
		struct sip_pred_stats *ps = &m->pred[rt->cur.src];
		int64_t err = (int64_t)d - (int64_t)rt->cur.predicted_ns;
		int64_t derr = (int64_t)d - (int64_t)rt->cur.duration_ns;

		cs->predicted++;
		/*
		 * state -1: no cpuidle state was chosen (no driver, or a
		 * latency limit of 0) and the default idle ran; its
		 * power:cpu_idle state number is not an index to compare.
		 */
		if (rt->cur.state < 0)
			cs->pred_no_state++;
		else if (rt->cur.state != s)
			cs->pred_state_mismatch++;
		if (rt->cur.tick_stopped) {
			cs->tick_stopped++;
			if (plat->tick_ns && d < plat->tick_ns)
				cs->tick_stop_misses++;
		}
		ps->periods++;
		if (rt->cur.src_derived)
			ps->derived++;
		ps->cls[p.cls]++;
		if (d < rt->cur.predicted_ns)
			ps->early++;
		else if (d > rt->cur.predicted_ns)
			ps->late++;
		if (samples_add(&ps->err_ns, err) ||
		    samples_add(&ps->abs_err_ns, llabs(err)) ||
		    samples_add(&ps->dur_abs_err_ns, llabs(derr)))
			return -1;
		p.has_pred = true;
		p.predicted_ns = rt->cur.predicted_ns;
		p.duration_ns = rt->cur.duration_ns;
		p.next_task_ns = rt->cur.next_task_ns;
		p.src = rt->cur.src;
		p.src_derived = rt->cur.src_derived;
		p.tick_stopped = rt->cur.tick_stopped;
		rt->cur.valid = false;
	}
	if (m->sink)
		m->sink(&p, m->sink_arg);
	return 0;
}

static int idle_event(struct sip_model *m, const struct sip_event *ev)
{
	int cpu = ev->idle.cpu_id;
	struct cpu_rt *rt;

	if (cpu < 0 || cpu >= SIP_MAX_CPUS) {
		errno = EINVAL;
		return -1;
	}
	note_cpu(m, cpu);
	rt = &m->rt[cpu];
	m->rep.idle_events++;
	if (ev->idle.state == SIP_IDLE_EXIT) {
		if (!rt->in_idle)
			return 0;	/* the trace began inside this period */
		if (close_period(m, cpu, ev->ts_ns))
			return -1;
		rt->exit_pending = true;
		rt->exit_ns = ev->ts_ns;
		return 0;
	}
	if (rt->in_idle) {
		/* Two entries in a row: the exit is missing, drop the period. */
		m->cpu[cpu].discarded++;
		rt->cur.valid = false;
	}
	if (rt->exit_pending) {
		/* Woken, but nothing ran: an interrupt-only wake-up. */
		m->cpu[cpu].spurious++;
		rt->exit_pending = false;
	}
	rt->in_idle = true;
	rt->woken = false;
	rt->idle_start_ns = ev->ts_ns;
	rt->idle_state = ev->idle.state;
	rt->cur = rt->pending;
	rt->pending.valid = false;
	return 0;
}

static struct dev_acc *dev_get(struct sip_model *m, uint32_t dev)
{
	struct dev_acc *nd;
	int i;

	for (i = 0; i < m->nr_devs; i++)
		if (m->devs[i].dev == dev)
			return &m->devs[i];
	nd = realloc(m->devs, (m->nr_devs + 1) * sizeof(*nd));
	if (!nd)
		return NULL;
	m->devs = nd;
	memset(&nd[m->nr_devs], 0, sizeof(*nd));
	nd[m->nr_devs].dev = dev;
	return &nd[m->nr_devs++];
}

static uint64_t rq_key(uint32_t dev, uint64_t sector)
{
	return ((uint64_t)dev << 40) ^ sector;
}

/**
 * sip_model_feed() - account one event
 * @m: the model
 * @ev: the event; events must come in timestamp order
 *
 * Return: 0, or -1 with errno set: EINVAL for a CPU number out of range,
 * ENOMEM.
 */
int sip_model_feed(struct sip_model *m, const struct sip_event *ev)
{
	struct map_slot *sl;
	struct cpu_rt *rt;
	int cpu = ev->cpu;

	if (cpu < 0 || cpu >= SIP_MAX_CPUS) {
		errno = EINVAL;
		return -1;
	}
	note_cpu(m, cpu);
	rt = &m->rt[cpu];
	if (!m->seen_first) {
		m->rep.first_ns = ev->ts_ns;
		m->seen_first = true;
	}
	if (ev->ts_ns > m->rep.last_ns)
		m->rep.last_ns = ev->ts_ns;
	if (ev->type != SIP_EV_MISSED)
		m->rep.nr_events++;
	/*
	 * What this CPU records inside one of its idle periods, it records
	 * awake; the idle events themselves and the prediction, which the
	 * idle loop emits before the state is entered, do not say so.
	 */
	if (rt->in_idle && !rt->woken && ev->type != SIP_EV_IDLE &&
	    ev->type != SIP_EV_IDLE_MISS && ev->type != SIP_EV_PREDICT &&
	    ev->type != SIP_EV_MISSED) {
		rt->woken = true;
		rt->woken_ns = ev->ts_ns;
	}

	switch (ev->type) {
	case SIP_EV_IDLE:
		return idle_event(m, ev);
	case SIP_EV_IDLE_MISS:
		m->rep.has_miss_events = true;
		if (ev->miss.cpu_id < SIP_MAX_CPUS && ev->miss.state < SIP_MAX_STATES) {
			struct sip_state_stats *st = &m->cpu[ev->miss.cpu_id].st[ev->miss.state];

			note_cpu(m, ev->miss.cpu_id);
			if (ev->miss.below)
				st->kernel_below++;
			else
				st->kernel_above++;
		}
		return 0;
	case SIP_EV_MISSED:
		if (ev->missed.count < 0)
			m->cpu[cpu].missed_unknown++;
		else
			m->cpu[cpu].missed_events += ev->missed.count;
		if (rt->in_idle) {
			rt->in_idle = false;
			m->cpu[cpu].discarded++;
		}
		rt->cur.valid = rt->pending.valid = false;
		rt->exit_pending = false;
		return 0;
	case SIP_EV_PREDICT: {
		int pcpu = ev->pred.cpu;

		m->rep.has_predict = true;
		if (pcpu < 0 || pcpu >= SIP_MAX_CPUS) {
			errno = EINVAL;
			return -1;
		}
		note_cpu(m, pcpu);
		m->rt[pcpu].pending = (struct pred){
			.valid = true,
			.next_timer_ns = ev->pred.next_timer_ns,
			.next_io_ns = ev->pred.next_io_ns,
			.next_task_ns = ev->pred.next_task_ns,
			.latency_req_ns = ev->pred.latency_req_ns,
			.predicted_ns = ev->pred.predicted_ns,
			.duration_ns = ev->pred.has_duration ? ev->pred.duration_ns :
				       ev->pred.predicted_ns,
			.state = ev->pred.state,
			.tick_stopped = ev->pred.tick_stopped,
			.horizon_ns = ev->pred.horizon_ns,
		};
		if (ev->pred.has_horizon)
			m->rep.has_horizon = true;
		m->rt[pcpu].pending.src = sip_pred_source(ev, &m->rt[pcpu].pending.src_derived);
		return 0;
	}
	case SIP_EV_SLEEP: {
		struct sip_sleep_stats *sl = &m->sleep;
		uint64_t slept = ev->sleep.slept_ns, pred = ev->sleep.predicted_ns;

		m->rep.has_sleep_predict = true;
		sl->sleeps++;
		if (samples_add(&sl->slept_ns, (int64_t)slept))
			return -1;
		if (pred) {
			sl->predicted++;
			if (sip_same_bucket(pred, slept))
				sl->in_bucket++;
			if (samples_add(&sl->abs_err_ns, llabs((int64_t)slept - (int64_t)pred)))
				return -1;
		}
		if (ev->sleep.wake_cpu != ev->sleep.block_cpu) {
			sl->elsewhere++;
			if (samples_add(&sl->slept_elsewhere_ns, (int64_t)slept))
				return -1;
		}
		return 0;
	}
	case SIP_EV_WAKEUP: {
		int t = ev->wake.target_cpu;
		uint8_t in = 0;	/* 0: target busy, else 1 + its idle state */

		if (t >= 0 && t < SIP_MAX_CPUS && m->rt[t].in_idle)
			in = m->rt[t].idle_state < SIP_MAX_STATES ?
			     m->rt[t].idle_state + 1 : SIP_MAX_STATES + 1;
		/* The first wake-up counts; a second one finds it running. */
		if (map_find(&m->wake, (uint64_t)ev->wake.pid))
			return 0;
		return map_put(&m->wake, (uint64_t)ev->wake.pid, ev->ts_ns, in);
	}
	case SIP_EV_SWITCH:
		if (ev->sw.prev_pid == 0 && rt->exit_pending) {
			rt->exit_pending = false;
			if (samples_add(&m->exit_to_switch, ev->ts_ns - rt->exit_ns))
				return -1;
		}
		sl = map_find(&m->wake, (uint64_t)ev->sw.next_pid);
		if (sl) {
			int64_t lat = ev->ts_ns - sl->ts_ns;

			if (samples_add(&m->wake_to_run, lat) ||
			    (sl->flag && samples_add(&m->wake_to_run_idle, lat)) ||
			    (sl->flag && sl->flag <= SIP_MAX_STATES &&
			     samples_add(&m->wake_to_run_in[sl->flag - 1], lat)))
				return -1;
			map_del(&m->wake, sl);
		}
		return 0;
	case SIP_EV_IRQ:
		return 0;
	case SIP_EV_RQ_ISSUE:
		return map_put(&m->rq, rq_key(ev->rq.dev, ev->rq.sector), ev->ts_ns, 0);
	case SIP_EV_RQ_COMPLETE: {
		struct dev_acc *d;

		sl = map_find(&m->rq, rq_key(ev->rq.dev, ev->rq.sector));
		if (!sl)
			return 0;
		d = dev_get(m, ev->rq.dev);
		if (!d || samples_add(&d->lat, ev->ts_ns - sl->ts_ns))
			return -1;
		map_del(&m->rq, sl);
		return 0;
	}
	}
	errno = EINVAL;
	return -1;
}

static void add_stats(struct sip_cpu_stats *t, const struct sip_cpu_stats *c)
{
	int s;

	for (s = 0; s < SIP_MAX_STATES; s++) {
		t->st[s].entries += c->st[s].entries;
		t->st[s].residency_ns += c->st[s].residency_ns;
		t->st[s].correct += c->st[s].correct;
		t->st[s].too_deep += c->st[s].too_deep;
		t->st[s].too_shallow += c->st[s].too_shallow;
		t->st[s].latency_violations += c->st[s].latency_violations;
		t->st[s].oracle_entries += c->st[s].oracle_entries;
		t->st[s].kernel_above += c->st[s].kernel_above;
		t->st[s].kernel_below += c->st[s].kernel_below;
		t->st[s].energy_uj += c->st[s].energy_uj;
	}
	t->idle_periods += c->idle_periods;
	t->idle_ns += c->idle_ns;
	t->unknown_state += c->unknown_state;
	t->discarded += c->discarded;
	t->open_at_end += c->open_at_end;
	t->missed_events += c->missed_events;
	t->missed_unknown += c->missed_unknown;
	t->tick_stopped += c->tick_stopped;
	t->tick_stop_misses += c->tick_stop_misses;
	t->predicted += c->predicted;
	t->pred_state_mismatch += c->pred_state_mismatch;
	t->pred_no_state += c->pred_no_state;
	t->spurious += c->spurious;
	t->woken_inside += c->woken_inside;
	t->energy_uj += c->energy_uj;
	t->oracle_energy_uj += c->oracle_energy_uj;
}

void sip_model_finish(struct sip_model *m)
{
	struct sip_report *r = &m->rep;
	int c, i;

	if (m->finished)
		return;
	m->finished = true;
	for (c = 0; c < m->nr_cpus; c++) {
		if (m->rt[c].in_idle)
			m->cpu[c].open_at_end++;
		add_stats(&r->total, &m->cpu[c]);
	}
	for (c = 0; c < m->nr_cpus; c++)
		for (i = 0; i < SIP_MAX_STATES; i++)
			if ((m->cpu[c].st[i].kernel_above || m->cpu[c].st[i].kernel_below) &&
			    i > m->max_state)
				m->max_state = i;
	r->plat = &m->plat;
	r->nr_cpus = m->nr_cpus;
	r->cpu = m->cpu;
	r->nr_states = m->max_state + 1;
	sip_dist_compute(&m->wake_to_run, &r->wake_to_run);
	sip_dist_compute(&m->wake_to_run_idle, &r->wake_to_run_idle);
	sip_dist_compute(&m->exit_to_switch, &r->exit_to_switch);
	for (i = 0; i < SIP_MAX_STATES; i++)
		sip_dist_compute(&m->wake_to_run_in[i], &r->wake_to_run_in[i]);
	for (i = 0; i < SIP_NR_SRC; i++) {
		const struct sip_pred_stats *ps = &m->pred[i];
		struct sip_src_report *sr = &r->src[i];

		sip_dist_compute(&m->pred[i].err_ns, &r->pred_err[i]);
		sip_dist_compute(&m->pred[i].abs_err_ns, &r->pred_abs_err[i]);
		r->pred_early[i] = m->pred[i].early;
		r->pred_late[i] = m->pred[i].late;

		sr->periods = ps->periods;
		sr->derived = ps->derived;
		sr->share_pct = pct(ps->periods, r->total.predicted);
		sip_dist_compute(&m->pred[i].dur_abs_err_ns, &sr->dur_abs_err);
		sr->correct = ps->cls[SIP_CORRECT];
		sr->too_deep = ps->cls[SIP_TOO_DEEP];
		sr->too_shallow = ps->cls[SIP_TOO_SHALLOW];
		sr->judged = sr->correct + sr->too_deep + sr->too_shallow;
		sr->correct_pct = pct(sr->correct, sr->judged);
		sr->too_deep_pct = pct(sr->too_deep, sr->judged);
		sr->too_shallow_pct = pct(sr->too_shallow, sr->judged);
	}
	r->sleep.sleeps = m->sleep.sleeps;
	r->sleep.predicted = m->sleep.predicted;
	r->sleep.in_bucket = m->sleep.in_bucket;
	r->sleep.elsewhere = m->sleep.elsewhere;
	r->sleep.predicted_pct = pct(m->sleep.predicted, m->sleep.sleeps);
	r->sleep.in_bucket_pct = pct(m->sleep.in_bucket, m->sleep.predicted);
	r->sleep.elsewhere_pct = pct(m->sleep.elsewhere, m->sleep.sleeps);
	sip_dist_compute(&m->sleep.slept_ns, &r->sleep.slept);
	sip_dist_compute(&m->sleep.slept_elsewhere_ns, &r->sleep.slept_elsewhere);
	sip_dist_compute(&m->sleep.abs_err_ns, &r->sleep.abs_err);
	r->devs = calloc(m->nr_devs ? m->nr_devs : 1, sizeof(*r->devs));
	if (r->devs) {
		for (i = 0; i < m->nr_devs; i++) {
			r->devs[i].dev = m->devs[i].dev;
			sip_dist_compute(&m->devs[i].lat, &r->devs[i].lat);
		}
		r->nr_devs = m->nr_devs;
	}
}

const struct sip_report *sip_model_report(struct sip_model *m)
{
	sip_model_finish(m);
	return &m->rep;
}

void sip_model_free(struct sip_model *m)
{
	int i;

	if (!m)
		return;
	free(m->wake.s);
	free(m->rq.s);
	free(m->wake_to_run.v);
	free(m->wake_to_run_idle.v);
	free(m->exit_to_switch.v);
	for (i = 0; i < SIP_MAX_STATES; i++)
		free(m->wake_to_run_in[i].v);
	for (i = 0; i < SIP_NR_SRC; i++) {
		free(m->pred[i].err_ns.v);
		free(m->pred[i].abs_err_ns.v);
		free(m->pred[i].dur_abs_err_ns.v);
	}
	free(m->sleep.slept_ns.v);
	free(m->sleep.slept_elsewhere_ns.v);
	free(m->sleep.abs_err_ns.v);
	for (i = 0; i < m->nr_devs; i++)
		free(m->devs[i].lat.v);
	free(m->devs);
	free(m->rep.devs);
	free(m);
}
