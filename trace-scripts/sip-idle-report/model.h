/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sip-idle-report: the model, the computation (model.c): events in, a
 * report out, independent of where events come from (a trace.dat through
 * the decoder, or a test feeding synthetic events), of the platform file's
 * format (platform.h) and of how the report is printed (output.h).
 *
 * All times are nanoseconds in the trace clock; every quantity carries its
 * unit in its name.
 */
#ifndef SIP_MODEL_H
#define SIP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"

#define SIP_MAX_CPUS		256
/* power:cpu_idle state value that marks an idle exit (PWR_EVENT_EXIT) */
#define SIP_IDLE_EXIT		4294967295u

enum sip_ev_type {
	SIP_EV_IDLE,		/* power:cpu_idle (enter or exit) */
	SIP_EV_IDLE_MISS,	/* power:cpu_idle_miss */
	SIP_EV_SWITCH,		/* sched:sched_switch */
	SIP_EV_WAKEUP,		/* sched:sched_wakeup */
	SIP_EV_RQ_ISSUE,	/* block:block_rq_issue */
	SIP_EV_RQ_COMPLETE,	/* block:block_rq_complete */
	SIP_EV_PREDICT,		/* sched_idle_predict, any system */
	SIP_EV_MISSED,		/* the ring buffer lost events before this */
	SIP_EV_SLEEP,		/* sched_sleep_predict, any system */
	SIP_EV_IRQ,		/* irq:irq_handler_entry, irq_vectors:*_entry */
};

struct sip_event {
	enum sip_ev_type type;
	uint64_t ts_ns;
	int cpu;		/* CPU whose buffer recorded the event */
	union {
		struct {
			uint32_t state;	/* SIP_IDLE_EXIT on exit */
			uint32_t cpu_id;
		} idle;
		struct {
			uint32_t state;
			uint32_t cpu_id;
			bool below;
		} miss;
		struct {
			int prev_pid;
			int next_pid;
		} sw;
		struct {
			int pid;
			int target_cpu;
		} wake;
		struct {
			uint32_t dev;
			uint64_t sector;
		} rq;
		struct {
			int cpu;
			uint64_t next_timer_ns;
			uint64_t next_io_ns;	/* 0: no IO expected */
			uint64_t next_task_ns;	/* 0: no task wake-up expected */
			uint64_t latency_req_ns;
			uint64_t predicted_ns;
			uint64_t duration_ns;	/* what the state was chosen for */
			int32_t state;		/* < 0: cpuidle not used */
			bool tick_stopped;
			/*
			 * Fields older formats lack: without duration_ns the
			 * model takes predicted_ns, without source it derives
			 * one (sip_pred_source()).
			 */
			bool has_duration;
			bool has_source;
			int32_t source;		/* enum sip_src, as traced */
			/* horizon of a history guess, 0: none (patch 14) */
			bool has_horizon;
			uint64_t horizon_ns;
		} pred;
		struct {
			int pid;
			int block_cpu;		/* the CPU the task blocked on */
			int wake_cpu;		/* the CPU it is activated on */
			uint64_t predicted_ns;	/* 0: no prediction */
			uint64_t slept_ns;
		} sleep;
		struct {
			int64_t count;	/* < 0: the buffer lost an unknown number */
		} missed;
	};
};

enum sip_class { SIP_CORRECT, SIP_TOO_DEEP, SIP_TOO_SHALLOW, SIP_UNCLASSIFIED };

/* A distribution kept exactly: every sample is stored. */
struct sip_samples {
	int64_t *v;
	size_t n, cap;
};

struct sip_dist {
	size_t count;
	int64_t p50, p90, p99, min, max;
	double mean;
};

struct sip_state_stats {
	uint64_t entries;
	uint64_t residency_ns;
	uint64_t correct, too_deep, too_shallow;
	uint64_t latency_violations;	/* exit latency above the limit */
	uint64_t oracle_entries;	/* periods the energy oracle put here */
	uint64_t kernel_above, kernel_below;	/* power:cpu_idle_miss */
	double energy_uj;		/* modelled energy of the run here */
};

/*
 * Which input set the duration the idle state was chosen for: the values
 * of sched_idle_predict's source field. history: the CPU's intercept
 * history made the choice shallower than the inputs asked for.
 */
enum sip_src { SIP_SRC_TIMER, SIP_SRC_IO, SIP_SRC_TASK, SIP_SRC_HISTORY, SIP_NR_SRC };

struct sip_pred_stats {
	uint64_t periods;
	uint64_t early;		/* woke before the prediction */
	uint64_t late;		/* slept past the prediction */
	struct sip_samples err_ns;	/* actual - predicted, signed */
	struct sip_samples abs_err_ns;
	struct sip_samples dur_abs_err_ns;	/* |duration - actual| */
	uint64_t derived;	/* source derived: the trace has no source field */
	uint64_t cls[SIP_UNCLASSIFIED + 1];	/* by enum sip_class */
};

/* sched_sleep_predict, accumulated */
struct sip_sleep_stats {
	uint64_t sleeps, predicted, in_bucket, elsewhere;
	struct sip_samples slept_ns, slept_elsewhere_ns, abs_err_ns;
};

struct sip_cpu_stats {
	struct sip_state_stats st[SIP_MAX_STATES];
	uint64_t idle_periods;
	uint64_t idle_ns;
	uint64_t unknown_state;		/* state index beyond the platform */
	uint64_t discarded;		/* periods cut by lost events */
	uint64_t open_at_end;		/* idle entered, trace ended */
	uint64_t missed_events;
	uint64_t missed_unknown;	/* gaps of unknown size */
	uint64_t tick_stopped;		/* periods with the tick stopped */
	uint64_t tick_stop_misses;	/* ... that were shorter than a tick */
	uint64_t predicted;		/* periods paired with a prediction */
	uint64_t pred_state_mismatch;	/* entered state != predicted state */
	uint64_t pred_no_state;		/* prediction chose no cpuidle state */
	uint64_t spurious;		/* idle exits followed by idle again */
	uint64_t woken_inside;		/* periods that ended at an event inside */
	double energy_uj, oracle_energy_uj;
};

/* One idle period, handed to an optional per-period sink (plots). */
struct sip_period {
	int cpu;
	uint64_t start_ns, length_ns;
	int state, oracle_state, ideal_state;
	int cls;		/* enum sip_class */
	bool has_pred;
	uint64_t predicted_ns;
	uint64_t duration_ns;	/* when has_pred */
	uint64_t next_task_ns;	/* when has_pred */
	int src;		/* enum sip_src, when has_pred */
	bool src_derived;	/* ... derived, not traced */
	bool tick_stopped;
};

struct sip_model;

typedef void (*sip_period_sink)(const struct sip_period *p, void *arg);

struct sip_model *sip_model_new(const struct sip_platform *plat);
void sip_model_free(struct sip_model *m);
void sip_model_set_sink(struct sip_model *m, sip_period_sink fn, void *arg);
/*
 * Judge every period from its entry to its exit, as the kernel's cpuidle
 * counters do, instead of to the first event inside it (model.c).
 */
void sip_model_set_to_exit(struct sip_model *m, bool to_exit);
/* Returns 0, or -1 with errno set (ENOMEM, EINVAL for a CPU out of range). */
int sip_model_feed(struct sip_model *m, const struct sip_event *ev);
void sip_model_finish(struct sip_model *m);

/*
 * Per source of the idle decision, over the periods paired with one.
 * Shares are percentages: share_pct of all periods with a prediction, the
 * judgement shares of the judged periods of the source (those with a
 * platform description and a state it has).
 */
struct sip_src_report {
	uint64_t periods;
	uint64_t derived;		/* source derived (old trace format) */
	double share_pct;
	struct sip_dist dur_abs_err;	/* |duration_ns - actual| */
	uint64_t judged, correct, too_deep, too_shallow;
	double correct_pct, too_deep_pct, too_shallow_pct;
};

/*
 * sched_sleep_predict: one event per sleep (a task blocked outside IO
 * wait, woken). in_bucket: predicted and slept within a factor sqrt(2)
 * (sip_same_bucket()); its share is of the predicted sleeps, the other
 * shares of all sleeps.
 */
struct sip_sleep_report {
	uint64_t sleeps, predicted, in_bucket, elsewhere;
	double predicted_pct, in_bucket_pct, elsewhere_pct;
	struct sip_dist slept;			/* slept_ns, all sleeps */
	struct sip_dist slept_elsewhere;	/* ... woken on another CPU */
	struct sip_dist abs_err;		/* |slept - predicted|, predicted */
};

/* Results, valid after sip_model_finish(). */
struct sip_report {
	const struct sip_platform *plat;
	int nr_cpus;				/* highest CPU seen + 1 */
	const struct sip_cpu_stats *cpu;	/* [nr_cpus] */
	struct sip_cpu_stats total;		/* sum over CPUs */
	int nr_states;				/* states seen or described */
	uint64_t first_ns, last_ns;
	uint64_t nr_events;
	uint64_t idle_events;			/* power:cpu_idle seen */
	bool has_predict, has_miss_events;
	struct sip_dist wake_to_run;		/* sched_wakeup -> switch in */
	struct sip_dist wake_to_run_idle;	/* ... target CPU was idle */
	struct sip_dist wake_to_run_in[SIP_MAX_STATES];	/* ... in that state */
	struct sip_dist exit_to_switch;		/* idle exit -> sched_switch */
	struct sip_dist pred_err[SIP_NR_SRC];	/* actual - predicted */
	struct sip_dist pred_abs_err[SIP_NR_SRC];
	uint64_t pred_early[SIP_NR_SRC], pred_late[SIP_NR_SRC];
	struct sip_src_report src[SIP_NR_SRC];	/* decision by source */
	/*
	 * History guesses with a horizon (sched_idle_predict's horizon_ns):
	 * how many, and how many periods lasted to it (the CPU then chose
	 * again from the known events), see model.c.
	 */
	bool has_horizon;
	uint64_t horizon_set, horizon_reached;
	bool has_sleep_predict;
	struct sip_sleep_report sleep;
	int nr_devs;
	struct sip_dev_report {
		uint32_t dev;
		struct sip_dist lat;		/* issue -> complete */
	} *devs;
	const char *trace_name;
};

const struct sip_report *sip_model_report(struct sip_model *m);

const char *sip_class_name(int cls);
const char *sip_src_name(int src);
const char *sip_state_name(const struct sip_report *r, int state, char *buf,
			   size_t len);

/* Exposed for tests: pure functions of the platform. */
int sip_ideal_state(const struct sip_platform *plat, uint64_t length_ns,
		    uint64_t limit_ns);
int sip_oracle_state(const struct sip_platform *plat, uint64_t length_ns,
		     uint64_t limit_ns);
int sip_classify(const struct sip_platform *plat, int state,
		 uint64_t length_ns, uint64_t limit_ns);
double sip_energy_uj(const struct sip_platform *plat, int state,
		     uint64_t length_ns);
int sip_dist_compute(const struct sip_samples *s, struct sip_dist *d);
int sip_pred_source(const struct sip_event *ev, bool *derived);
bool sip_same_bucket(uint64_t predicted_ns, uint64_t actual_ns);

#endif /* SIP_MODEL_H */
