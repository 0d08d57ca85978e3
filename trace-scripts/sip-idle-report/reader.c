// SPDX-License-Identifier: GPL-2.0
/*
 * sip-idle-report: trace.dat to model events. One pass over the records in
 * timestamp order (tracecmd_iterate_events()); each event the report needs
 * has an entry in ops[] naming it, its fields and its handler. Events and
 * field handles are looked up once, before the loop; the loop maps a
 * record's type to its op and calls the handler, which fills a struct
 * sip_event for the model. A field name starting with '?' is optional:
 * formats of the series' events from before the field still load, and
 * the handler learns from fhas() whether the field is there.
 *
 * Window: with sip_read_trace(..., window = true) only the events between
 * the trace_marker writes "sip-window start" and "sip-window end" reach
 * the model (record.sh writes them around the workload, where it also
 * snapshots the emulated platform's counters, so that the two can be
 * compared over the same interval).
 *
 * Damaged files: libtracecmd 1.3 and libtraceevent 1.7 (Debian 12) trust
 * sizes and offsets in the file. Seeded corruptions of real traces made
 * them dereference wild pointers (in kbuffer_load_subbuffer() and in the
 * format parser) and, once, loop for over 20 minutes while growing to
 * 14 GB. The libraries are not ours to fix, so they run in a child
 * process, the decoder, with limits on its CPU time, its address space
 * and the number of records it may return (SIP_RECORDS_PER_BYTE); it
 * sends the parent the decoded events through a pipe and the parent runs
 * the model. A decoder that dies or hits a limit is a corrupt file, told
 * in one line; the parent never runs library code on the file's bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "reader.h"

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
	 * The series' events: found by name whatever their system.
	 * sched_idle_predict gained next_task_ns and source (the sleep
	 * predictor and the intercept history); traces from before them are
	 * still read.
	 */
	OP(NULL, "sched_idle_predict", h_predict, "cpu", "next_timer_ns",
	   "next_io_ns", "latency_req_ns", "predicted_ns", "state", "tick_stopped",
	   "?next_task_ns", "?duration_ns", "?source"),
	OP(NULL, "sched_sleep_predict", h_sleep, "pid", "block_cpu", "wake_cpu",
	   "predicted_ns", "slept_ns"),
};

#define NR_OPS	(sizeof(ops_template) / sizeof(ops_template[0]))

/*
 * What the decoder sends: events, and at the end at most one error whose
 * message follows it (len bytes). Then it exits: 0 when the whole file
 * was read, 1 after an error.
 */
enum wire_kind { WIRE_EVENT = 1, WIRE_ERROR };

struct wire {
	uint32_t kind;
	uint32_t len;
	struct sip_event ev;
};

/*
 * A record takes at least 8 bytes in a CPU buffer (a 4-byte header and
 * one 4-byte word of payload), and trace-cmd's zstd or zlib compression of
 * whole pages shrinks real traces 2-10 times: a guest trace of 663 KB
 * held 42041 records, 0.06 per byte. More than 8 records per byte of the
 * file (64 times compression of the smallest records) means that the
 * library is returning the same data again.
 */
#define SIP_RECORDS_PER_BYTE	8

/*
 * The decoder's own limits. CPU time: 10 s plus 1 s per MiB of file, 80
 * times what reading takes here (a 60 MB trace of 3 million events is
 * read and modelled in 0.75 s); --cpu-limit changes it. Address space (not
 * with AddressSanitizer, whose shadow maps terabytes): 2 GiB plus 32
 * bytes per byte of file, for the libraries' page buffers and
 * decompression.
 */
#define SIP_CPU_BASE_S		10
#define SIP_CPU_S_PER_MIB	1
#define SIP_AS_BASE		(2ULL << 30)
#define SIP_AS_PER_BYTE		32

#if defined(__SANITIZE_ADDRESS__)
#define SIP_LIMIT_AS		0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIP_LIMIT_AS		0
#endif
#endif
#ifndef SIP_LIMIT_AS
#define SIP_LIMIT_AS		1
#endif

struct reader {
	struct op ops[NR_OPS];
	struct tep_handle *tep;
	FILE *out;		/* the pipe to the parent */
	bool window;		/* only between the window markers */
	bool in_window, saw_start;
	uint64_t records, max_records;
	bool too_many;
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
	struct wire w = { .kind = WIRE_EVENT, .ev = *ev };

	return fwrite(&w, sizeof(w), 1, r->out) == 1 ? 0 : -1;
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

/*
 * The decoder: open the trace with libtracecmd, send every event the model
 * needs to @out, then its verdict. Return 0, or -1 with @err filled.
 */
static int decode(const char *path, uint64_t max_records, bool window, FILE *out,
		  char *err, size_t errlen)
{
	struct reader r = { .out = out, .window = window, .max_records = max_records };
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
	if (r.too_many) {
		snprintf(err, errlen, "%s: more than %d records per byte of file: the event data is corrupt",
			 path, SIP_RECORDS_PER_BYTE);
		return -1;
	}
	if (ferror(out)) {
		snprintf(err, errlen, "%s: writing to the analyser: %s", path, strerror(errno));
		return -1;
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s: error reading the event data (corrupt or truncated)", path);
		return -1;
	}
	if (window && !r.saw_start) {
		snprintf(err, errlen, "%s: no \"" WINDOW_START "\" marker (record.sh writes it)", path);
		return -1;
	}
	return 0;
}

static void set_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { .rlim_cur = soft, .rlim_max = hard };

	/* Only lowers limits: a failure leaves the decoder the parent's. */
	setrlimit(resource, &rl);
}

/* The decoder process: exits 0 (all sent) or 1 (error sent). */
static void __attribute__((noreturn))
decoder(const char *path, off_t size, unsigned int cpu_limit_s, bool window, int fd)
{
	char err[512];
	FILE *out = fdopen(fd, "w");
	int ret;

	if (!out)
		exit(1);
	if (cpu_limit_s)
		set_limit(RLIMIT_CPU, cpu_limit_s, cpu_limit_s + 5);
	if (SIP_LIMIT_AS)
		set_limit(RLIMIT_AS, SIP_AS_BASE + (rlim_t)size * SIP_AS_PER_BYTE,
			  SIP_AS_BASE + (rlim_t)size * SIP_AS_PER_BYTE);
	ret = decode(path, (uint64_t)size * SIP_RECORDS_PER_BYTE, window, out,
		     err, sizeof(err));
	if (ret) {
		struct wire w = { .kind = WIRE_ERROR, .len = strlen(err) };

		fwrite(&w, sizeof(w), 1, out);
		fwrite(err, 1, w.len, out);
	}
	if (fclose(out))
		ret = -1;
	exit(ret ? 1 : 0);
}

/**
 * sip_read_trace() - feed every event of a trace.dat to a model
 * @path: the trace
 * @m: the model
 * @o: only the window; the decoder's CPU-time limit (SIP_CPU_LIMIT_DEFAULT:
 *	10 s plus 1 s per MiB of the file)
 * @err: a one-line message on failure
 * @errlen: size of @err
 *
 * The libraries decode the file in a child process (see the top of this
 * file); this process only runs the model.
 *
 * Return: 0, or -1 with @err filled: the file cannot be opened or is not a
 * trace, is corrupt (including: the decoder crashed or hit a limit), has
 * no power:cpu_idle format or no power:cpu_idle event, or the model
 * failed.
 */
int sip_read_trace(const char *path, struct sip_model *m,
		   const struct sip_read_opts *o, char *err, size_t errlen)
{
	bool got_error = false, model_failed = false;
	unsigned int cpu_limit_s;
	struct wire w;
	struct stat st;
	int pipefd[2], status, fd;
	FILE *in;
	pid_t pid;

	/*
	 * Say why a file cannot be read before the decoder tries. The
	 * libraries seek: a FIFO or a device is refused before open() could
	 * block on it.
	 */
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (!st.st_size) {
		snprintf(err, errlen, "%s: empty file", path);
		return -1;
	}

	cpu_limit_s = o->cpu_limit_s;
	if (cpu_limit_s == SIP_CPU_LIMIT_DEFAULT)
		cpu_limit_s = SIP_CPU_BASE_S + SIP_CPU_S_PER_MIB * (unsigned int)(st.st_size >> 20);

	if (pipe(pipefd)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	/* Nothing buffered may be written twice, by the decoder too. */
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (!pid) {
		close(pipefd[0]);
		decoder(path, st.st_size, cpu_limit_s, o->window, pipefd[1]);
	}
	close(pipefd[1]);
	in = fdopen(pipefd[0], "r");
	if (!in) {
		snprintf(err, errlen, "fdopen: %s", strerror(errno));
		close(pipefd[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}

	while (fread(&w, sizeof(w), 1, in) == 1) {
		if (w.kind == WIRE_EVENT) {
			if (sip_model_feed(m, &w.ev)) {
				snprintf(err, errlen, "%s: %s", path, strerror(errno));
				model_failed = true;
				kill(pid, SIGKILL);
				break;
			}
			continue;
		}
		if (w.kind == WIRE_ERROR && w.len < errlen) {
			size_t n = fread(err, 1, w.len, in);

			err[n] = 0;
			got_error = n == w.len;
		}
		break;
	}
	fclose(in);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			return -1;
		}
	if (model_failed)
		return -1;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		if (sig == SIGXCPU)
			snprintf(err, errlen,
				 "%s: decoding used more than %u s of CPU time (a corrupt file can make libtracecmd loop; --cpu-limit changes the limit)",
				 path, cpu_limit_s);
		else if (sig == SIGKILL)
			snprintf(err, errlen,
				 "%s: the decoder was killed (its CPU-time limit, --cpu-limit, or the OOM killer)",
				 path);
		else
			snprintf(err, errlen, "%s: libtracecmd crashed (%s) decoding it: the file is corrupt",
				 path, strsignal(sig));
		return -1;
	}
	if (WEXITSTATUS(status) == 1 && got_error)
		return -1;
	if (WEXITSTATUS(status) || got_error) {
		snprintf(err, errlen, "%s: the decoder exited with status %d", path,
			 WEXITSTATUS(status));
		return -1;
	}
	if (!sip_model_report(m)->idle_events) {
		snprintf(err, errlen, "%s: no power:cpu_idle events recorded", path);
		return -1;
	}
	return 0;
}
