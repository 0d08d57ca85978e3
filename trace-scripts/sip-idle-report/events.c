// SPDX-License-Identifier: GPL-2.0
/*
 * sip-idle-report: the event table, trace.dat to model events. One pass
 * over the records in timestamp order (tracecmd_iterate_events()); each
 * event the report needs has an entry in ops[] naming it, its fields and
 * its handler. Events and field handles are looked up once, before the
 * loop; the loop maps a record's type to its op and calls the handler,
 * which fills a struct sip_event for the model. A field name starting with
 * '?' is optional: formats of the series' events from before the field
 * still load, and the handler learns from fhas() whether the field is
 * there.
 *
 * Window: with the window option only the events between the trace_marker
 * writes "sip-window start" and "sip-window end" reach the model
 * (record.sh writes them around the workload, where it also snapshots the
 * emulated platform's counters, so that the two can be compared over the
 * same interval).
 *
 * This file runs libtracecmd on the file's bytes, which a damaged file can
 * make crash or loop: it runs in the decoder process only (sandbox.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "events.h"

#define MAX_FIELDS	12

struct op;
struct reader;
/* Fill *ev and return 0 to feed it to the model, or return 1 to skip. */
typedef int (*op_handler)(struct reader *r, const struct op *op,
			  struct tep_record *rec, struct sip_event *ev);

struct op {
	const char *system;	/* NULL: the first event of that name, any system */
	const char *name;
	const char *fields[MAX_FIELDS];
	op_handler handler;
	/* resolved once per trace */
	int id;
	bool present;
	struct tep_format_field *f[MAX_FIELDS];
};

static uint64_t fval(const struct op *op, struct tep_record *rec, int i)
{
	unsigned long long v = 0;

	if (!op->f[i] || tep_read_number_field(op->f[i], rec->data, &v))
		return 0;
	return v;
}

/* The format has field @i (always true of a field not marked optional). */
static bool fhas(const struct op *op, int i)
{
	return op->f[i];
}

static int h_idle(struct reader *r, const struct op *op, struct tep_record *rec,
		struct sip_event *ev)
{
	(void)r;
	ev->type = SIP_EV_IDLE;
	ev->idle.state = fval(op, rec, 0);
	ev->idle.cpu_id = fval(op, rec, 1);
	return 0;
}

static int h_idle_miss(struct reader *r, const struct op *op, struct tep_record *rec,
		struct sip_event *ev)
{
	(void)r;
	ev->type = SIP_EV_IDLE_MISS;
	ev->miss.cpu_id = fval(op, rec, 0);
	ev->miss.state = fval(op, rec, 1);
	ev->miss.below = fval(op, rec, 2);
	return 0;
}

static int h_switch(struct reader *r, const struct op *op, struct tep_record *rec,
		struct sip_event *ev)
{
	(void)r;
	ev->type = SIP_EV_SWITCH;
	ev->sw.prev_pid = (int)fval(op, rec, 0);
	ev->sw.next_pid = (int)fval(op, rec, 1);
	return 0;
}

static int h_wakeup(struct reader *r, const struct op *op, struct tep_record *rec,
		struct sip_event *ev)
{
	(void)r;
	ev->type = SIP_EV_WAKEUP;
	ev->wake.pid = (int)fval(op, rec, 0);
	ev->wake.target_cpu = (int)fval(op, rec, 1);
	return 0;
}

static int h_rq(struct reader *r, const struct op *op, struct tep_record *rec,
		struct sip_event *ev)
{
	(void)r;
	ev->type = strcmp(op->name, "block_rq_issue") ? SIP_EV_RQ_COMPLETE : SIP_EV_RQ_ISSUE;
	ev->rq.dev = fval(op, rec, 0);
	ev->rq.sector = fval(op, rec, 1);
	return 0;
}

/* An interrupt's entry: only that it happened, on this CPU, matters. */
static int h_irq(struct reader *r, const struct op *op, struct tep_record *rec,
		 struct sip_event *ev)
{
	(void)r;
	(void)op;
	(void)rec;
	ev->type = SIP_EV_IRQ;
	return 0;
}

static int h_predict(struct reader *r, const struct op *op, struct tep_record *rec,
		struct sip_event *ev)
{
	(void)r;
	ev->type = SIP_EV_PREDICT;
	ev->pred.cpu = (int)fval(op, rec, 0);
	ev->pred.next_timer_ns = fval(op, rec, 1);
	ev->pred.next_io_ns = fval(op, rec, 2);
	ev->pred.latency_req_ns = fval(op, rec, 3);
	ev->pred.predicted_ns = fval(op, rec, 4);
	/* a 32-bit signed field: -1 (no state) reads as 0xffffffff */
	ev->pred.state = (int32_t)(uint32_t)fval(op, rec, 5);
	ev->pred.tick_stopped = fval(op, rec, 6);
	/* optional: 0 (no task expected) and a derived source without them */
	ev->pred.next_task_ns = fval(op, rec, 7);
	ev->pred.duration_ns = fval(op, rec, 8);
	ev->pred.has_duration = fhas(op, 8);
	ev->pred.source = (int32_t)(uint32_t)fval(op, rec, 9);
	ev->pred.has_source = fhas(op, 9);
	ev->pred.horizon_ns = fval(op, rec, 10);
	ev->pred.has_horizon = fhas(op, 10);
	return 0;
}

static int h_sleep(struct reader *r, const struct op *op, struct tep_record *rec,
		   struct sip_event *ev)
{
	(void)r;
	ev->type = SIP_EV_SLEEP;
	ev->sleep.pid = (int)fval(op, rec, 0);
	ev->sleep.block_cpu = (int)fval(op, rec, 1);
	ev->sleep.wake_cpu = (int)fval(op, rec, 2);
	ev->sleep.predicted_ns = fval(op, rec, 3);
	ev->sleep.slept_ns = fval(op, rec, 4);
	return 0;
}

#define WINDOW_START	"sip-window start"
#define WINDOW_END	"sip-window end"

static bool marker_is(const struct op *op, struct tep_record *rec, const char *text)
{
	size_t len = strlen(text);
	int off = op->f[0]->offset;

	return off >= 0 && rec->size - off >= (int)len &&
	       !memcmp((const char *)rec->data + off, text, len);
}

static int h_marker(struct reader *r, const struct op *op, struct tep_record *rec,
		    struct sip_event *ev);

#define OP(sys, ev, h, ...) \
	{ .system = sys, .name = ev, .fields = { __VA_ARGS__ }, .handler = h }

static const struct op ops_template[] = {
	OP("power", "cpu_idle", h_idle, "state", "cpu_id"),
	OP("power", "cpu_idle_miss", h_idle_miss, "cpu_id", "state", "below"),
	OP("sched", "sched_switch", h_switch, "prev_pid", "next_pid"),
	OP("sched", "sched_wakeup", h_wakeup, "pid", "target_cpu"),
	OP("block", "block_rq_issue", h_rq, "dev", "sector"),
	OP("block", "block_rq_complete", h_rq, "dev", "sector"),
	OP("ftrace", "print", h_marker, "buf"),
	/*
	 * Interrupt entries, when recorded (record.sh does): where a CPU was
	 * woken inside an idle period (model.c).
	 */
	OP("irq", "irq_handler_entry", h_irq, "irq"),
	OP("irq_vectors", "local_timer_entry", h_irq, "vector"),
	OP("irq_vectors", "reschedule_entry", h_irq, "vector"),
	OP("irq_vectors", "call_function_entry", h_irq, "vector"),
	OP("irq_vectors", "call_function_single_entry", h_irq, "vector"),
	/*
	 * The series' events: found by name whatever their system.
	 * sched_idle_predict gained next_task_ns and source (the sleep
	 * predictor and the intercept history), then horizon_ns (the horizon
	 * of the history's guess); traces from before them are still read.
	 */
	OP(NULL, "sched_idle_predict", h_predict, "cpu", "next_timer_ns",
	   "next_io_ns", "latency_req_ns", "predicted_ns", "state", "tick_stopped",
	   "?next_task_ns", "?duration_ns", "?source", "?horizon_ns"),
	OP(NULL, "sched_sleep_predict", h_sleep, "pid", "block_cpu", "wake_cpu",
	   "predicted_ns", "slept_ns"),
};

#define NR_OPS	(sizeof(ops_template) / sizeof(ops_template[0]))

struct reader {
	struct op ops[NR_OPS];
	struct tep_handle *tep;
	sip_event_fn fn;	/* where the events go */
	void *arg;
	bool window;		/* only between the window markers */
	bool in_window, saw_start;
	uint64_t records, max_records;
	bool too_many, sink_failed;
};

static int h_marker(struct reader *r, const struct op *op, struct tep_record *rec,
		    struct sip_event *ev)
{
	(void)ev;
	if (marker_is(op, rec, WINDOW_START)) {
		r->in_window = true;
		r->saw_start = true;
	} else if (marker_is(op, rec, WINDOW_END)) {
		r->in_window = false;
	}
	return 1;
}

static int resolve(struct reader *r, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < NR_OPS; i++) {
		struct op *op = &r->ops[i];
		struct tep_event *e;
		int k;

		*op = ops_template[i];
		e = tep_find_event_by_name(r->tep, op->system, op->name);
		if (!e)
			continue;
		for (k = 0; k < MAX_FIELDS && op->fields[k]; k++) {
			bool optional = op->fields[k][0] == '?';

			op->f[k] = tep_find_field(e, op->fields[k] + optional);
			if (!op->f[k] && !optional)
				break;
		}
		if (k < MAX_FIELDS && op->fields[k]) {
			/*
			 * The kernel's own events have had these fields for
			 * years: without one the file is corrupt. The series'
			 * event may still change: warn and do without it.
			 */
			if (op->system) {
				snprintf(err, errlen, "%s:%s has no field \"%s\" (corrupt format?)",
					 e->system, e->name, op->fields[k]);
				return -1;
			}
			fprintf(stderr, "sip-idle-report: warning: %s:%s has no field \"%s\"; event ignored\n",
				e->system, e->name, op->fields[k]);
			continue;
		}
		op->id = e->id;
		op->present = true;
	}
	if (!r->ops[0].present) {
		snprintf(err, errlen, "no power:cpu_idle event in the trace (record with -e power:cpu_idle)");
		return -1;
	}
	return 0;
}

static int send_event(struct reader *r, const struct sip_event *ev)
{
	if (r->fn(ev, r->arg)) {
		r->sink_failed = true;
		return -1;
	}
	return 0;
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		     void *data)
{
	struct reader *r = data;
	struct sip_event ev;
	int type;
	size_t i;

	(void)h;
	if (++r->records > r->max_records) {
		r->too_many = true;
		return -1;
	}
	if (rec->missed_events) {
		memset(&ev, 0, sizeof(ev));
		ev.type = SIP_EV_MISSED;
		ev.ts_ns = rec->ts;
		ev.cpu = cpu;
		ev.missed.count = rec->missed_events;
		if (send_event(r, &ev))
			return -1;
	}
	type = tep_data_type(r->tep, rec);
	for (i = 0; i < NR_OPS; i++) {
		const struct op *op = &r->ops[i];

		if (!op->present || op->id != type)
			continue;
		if (r->window && !r->in_window && op->handler != h_marker)
			return 0;
		memset(&ev, 0, sizeof(ev));
		ev.ts_ns = rec->ts;
		ev.cpu = cpu;
		if (op->handler(r, op, rec, &ev))
			return 0;
		return send_event(r, &ev);
	}
	return 0;
}

/*
 * libtracecmd 1.3 reports some problems of a damaged file itself, whatever
 * the log level: a short file with printf() on stdout (which is the
 * report's), a bad page offset with perror() ("mmap: ..."). The caller's
 * error comes back through the return values and is reported as one line,
 * so both descriptors point at /dev/null while the library reads.
 */
struct quiet {
	int saved[2];
};

static void quiet_begin(struct quiet *q)
{
	int fd, null;

	fflush(stdout);
	fflush(stderr);
	null = open("/dev/null", O_WRONLY);
	for (fd = 0; fd < 2; fd++) {
		q->saved[fd] = null < 0 ? -1 : dup(fd + 1);
		if (q->saved[fd] >= 0)
			dup2(null, fd + 1);
	}
	if (null >= 0)
		close(null);
}

static void quiet_end(struct quiet *q)
{
	int fd;

	fflush(stdout);
	fflush(stderr);
	for (fd = 0; fd < 2; fd++) {
		if (q->saved[fd] < 0)
			continue;
		dup2(q->saved[fd], fd + 1);
		close(q->saved[fd]);
	}
}

/**
 * sip_decode_trace() - hand every event of a trace.dat the model needs to @fn
 * @path: the trace
 * @o: only the window; the records the library may return at most
 * @fn: called with each event in timestamp order
 * @arg: passed to @fn
 * @err: a one-line message when -1 is returned
 * @errlen: size of @err
 *
 * Runs libtracecmd on the file's bytes: only the decoder process calls it
 * (sandbox.c).
 *
 * Return: 0 when the whole file was read; -1 with @err filled;
 * SIP_DECODE_TOO_MANY or SIP_DECODE_SINK_FAILED with @err untouched.
 */
int sip_decode_trace(const char *path, const struct sip_decode_opts *o,
		     sip_event_fn fn, void *arg, char *err, size_t errlen)
{
	struct reader r = { .fn = fn, .arg = arg, .window = o->window,
			    .max_records = o->max_records };
	struct tracecmd_input *h;
	struct quiet q;
	int ret;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	quiet_begin(&q);
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		quiet_end(&q);
		snprintf(err, errlen, "%s: not a readable trace-cmd data file (corrupt or truncated)",
			 path);
		return -1;
	}
	ret = tracecmd_init_data(h);
	quiet_end(&q);
	if (ret < 0) {
		/*
		 * libtracecmd 1.3 crashes in tracecmd_close() on a handle
		 * whose data failed to load, e.g. a file cut inside the CPU
		 * data: the handle is left to the decoder's exit.
		 */
		snprintf(err, errlen, "%s: the event data is truncated or corrupt", path);
		return -1;
	}
	r.tep = tracecmd_get_tep(h);
	if (!r.tep || resolve(&r, err, errlen)) {
		if (!r.tep)
			snprintf(err, errlen, "%s: no event formats", path);
		tracecmd_close(h);
		return -1;
	}
	quiet_begin(&q);
	ret = tracecmd_iterate_events(h, NULL, 0, on_record, &r);
	tracecmd_close(h);
	quiet_end(&q);
	if (r.too_many)
		return SIP_DECODE_TOO_MANY;
	if (r.sink_failed)
		return SIP_DECODE_SINK_FAILED;
	if (ret < 0) {
		snprintf(err, errlen, "%s: error reading the event data (corrupt or truncated)", path);
		return -1;
	}
	if (o->window && !r.saw_start) {
		snprintf(err, errlen, "%s: no \"" WINDOW_START "\" marker (record.sh writes it)", path);
		return -1;
	}
	return 0;
}
