// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of sip-idle-report's model: synthetic events go straight into
 * the core (no trace.dat), every expected figure is computed by hand in the
 * comments. Prints TAP. Built with ASan/UBSan by mk/trace.mk.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "output.h"
#include "platform.h"

static int t;

#define CHECK(cond, ...) do {						\
	printf("%s %d - ", (cond) ? "ok" : "not ok", ++t);		\
	printf(__VA_ARGS__);						\
	putchar('\n');							\
} while (0)

#define CHECK_EQ(exp, got, what) do {					\
	long long e_ = (long long)(exp), g_ = (long long)(got);		\
	printf("%s %d - %s", e_ == g_ ? "ok" : "not ok", ++t, what);	\
	if (e_ != g_)							\
		printf(" (expected %lld, got %lld)", e_, g_);		\
	putchar('\n');							\
} while (0)

/* The known-answer platform of tests/data/analyser/platform.txt. */
static struct sip_platform ka(void)
{
	struct sip_platform p = {
		.present = true, .name = "ka", .nr_states = 4,
		.latency_limit_ns = 100000, .tick_ns = 4000000,
		.states = {
			{ "POLL", 0, 0, 1000, 0, false },
			{ "C1", 2000, 10000, 500, 5, false },
			{ "C2", 50000, 200000, 100, 85, false },
			{ "C3", 500000, 2000000, 10, 265, false },
		},
	};
	return p;
}

static void feed(struct sip_model *m, struct sip_event ev)
{
	if (sip_model_feed(m, &ev))
		printf("# feed failed: %s\n", strerror(errno));
}

static struct sip_event idle(uint64_t ts, int cpu, uint32_t state)
{
	return (struct sip_event){ .type = SIP_EV_IDLE, .ts_ns = ts, .cpu = cpu,
				   .idle = { .state = state, .cpu_id = cpu } };
}

static void test_rules(void)
{
	struct sip_platform p = ka();
	uint64_t none = SIP_NO_LIMIT;

	/* Exactly the target residency is long enough; one ns less is not. */
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 2, 200000, none), "C2 for exactly 200 us: correct");
	CHECK_EQ(SIP_TOO_DEEP, sip_classify(&p, 2, 199999, none), "C2 for 199.999 us: too deep");
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 0, 9999, none), "POLL for 9.999 us: correct");
	CHECK_EQ(SIP_TOO_SHALLOW, sip_classify(&p, 0, 10000, none), "POLL for 10 us: too shallow");
	CHECK_EQ(SIP_TOO_SHALLOW, sip_classify(&p, 1, 2000000, none),
		 "C1 for 2 ms, no limit: too shallow (C2 and C3 fit)");
	/*
	 * Too shallow counts the period less the entered state's exit latency,
	 * as the kernel's "below": C2 (exit 50 us) against C3 (2000 us).
	 */
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 2, 2049999, 500000),
		 "C2 for 2049.999 us, limit 500 us: correct (1999.999 us after the exit latency)");
	CHECK_EQ(SIP_TOO_SHALLOW, sip_classify(&p, 2, 2050000, 500000),
		 "C2 for 2050 us, limit 500 us: too shallow (2000 us after the exit latency)");
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 1, 202000 - 1, none),
		 "C1 for 201.999 us: correct (C2 needs 200 us after C1's 2 us exit)");
	/* The latency limit removes deeper states from "too shallow". */
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 2, 5000000, 100000),
		 "C2 for 5 ms, limit 100 us: correct (C3 exit 500 us not allowed)");
	CHECK_EQ(SIP_TOO_SHALLOW, sip_classify(&p, 2, 5000000, 500000),
		 "C2 for 5 ms, limit 500 us: too shallow (exit latency == limit is allowed)");
	/* A disabled state is not a missed opportunity. */
	p.states[2].disabled = true;
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 1, 1000000, 100000),
		 "C1 for 1 ms with C2 disabled and C3 over the limit: correct");
	p.states[2].disabled = false;
	/* Too deep needs an allowed shallower state. */
	p.states[0].disabled = true;
	CHECK_EQ(SIP_CORRECT, sip_classify(&p, 1, 1, none),
		 "C1 for 1 ns with POLL disabled: correct (nothing shallower)");
	p.states[0].disabled = false;
	CHECK_EQ(SIP_UNCLASSIFIED, sip_classify(&p, 7, 1000, none), "state beyond the table: unclassified");

	CHECK_EQ(0, sip_ideal_state(&p, 0, none), "ideal for 0 ns: POLL");
	CHECK_EQ(1, sip_ideal_state(&p, 199999, none), "ideal for 199.999 us: C1");
	CHECK_EQ(3, sip_ideal_state(&p, 2000000, none), "ideal for 2 ms, no limit: C3");
	CHECK_EQ(2, sip_ideal_state(&p, 2000000, 100000), "ideal for 2 ms, limit 100 us: C2");

	/*
	 * Energy oracle. At 199.999 us: E(C1) = 500 * 0.199999 + 5 = 104.9995,
	 * E(C2) = 100 * 0.199999 + 85 = 104.9999: C1. At 200.001 us C2 wins by
	 * the same margin; at exactly 200 us both are 105 and the tie goes to
	 * the shallower C1.
	 */
	CHECK_EQ(1, sip_oracle_state(&p, 199999, none), "oracle for 199.999 us: C1");
	CHECK_EQ(1, sip_oracle_state(&p, 200000, none), "oracle for 200 us (tie): C1");
	CHECK_EQ(2, sip_oracle_state(&p, 200001, none), "oracle for 200.001 us: C2");
	CHECK_EQ(3, sip_oracle_state(&p, 2000001, none), "oracle for 2.000001 ms: C3");
	CHECK_EQ(2, sip_oracle_state(&p, 50000000, 499999), "oracle for 50 ms, limit 499.999 us: C2");
	CHECK(fabs(sip_energy_uj(&p, 2, 1000000) - 185.0) < 1e-9, "E(C2, 1 ms) = 185 uJ");
	CHECK(fabs(sip_energy_uj(&p, 3, 10000000) - 365.0) < 1e-9, "E(C3, 10 ms) = 365 uJ");
	for (int s = 0; s < 4; s++)
		p.states[s].disabled = true;
	CHECK_EQ(0, sip_oracle_state(&p, 1000000, none), "oracle with every state disabled: 0");
}

static void test_dist(void)
{
	struct sip_samples s = { 0 };
	struct sip_dist d;
	int64_t v[100];
	int i;

	/* 1..100 shuffled: nearest rank p50 = 50th = 50, p99 = 99th = 99. */
	for (i = 0; i < 100; i++)
		v[i] = (i * 37) % 100 + 1;
	s.v = v;
	s.n = s.cap = 100;
	sip_dist_compute(&s, &d);
	CHECK(d.count == 100 && d.p50 == 50 && d.p99 == 99 && d.min == 1 && d.max == 100 &&
	      d.mean == 50.5, "1..100: p50 50, p99 99, mean 50.5 (got %" PRId64 " %" PRId64 " %g)",
	      d.p50, d.p99, d.mean);
	s.n = 1;
	v[0] = -7;
	sip_dist_compute(&s, &d);
	CHECK(d.count == 1 && d.p50 == -7 && d.p99 == -7, "one sample: p50 = p99 = it");
	s.n = 0;
	sip_dist_compute(&s, &d);
	CHECK_EQ(0, d.count, "no samples: count 0");
}

/*
 * N tasks woken at t = i us (i = 1..N), switched in in reverse order from
 * T0 = (N + 1) us on, one per us: task i runs at T0 + (N - i) us, so its
 * latency is (2N + 1 - 2i) us: the odd numbers 1, 3, ..., 2N - 1 us. The
 * k-th smallest is (2k - 1) us; with N = 10000 p50 is k = 5000: 9999 us and
 * p99 is k = 9900: 19799 us. The pending-wake-up map grows to N entries and
 * is emptied by deletion in an order unrelated to insertion.
 */
static void test_wakeups(void)
{
	const int n = 10000;
	struct sip_platform p = ka();
	struct sip_model *m = sip_model_new(&p);
	const struct sip_report *r;
	int i;

	for (i = 1; i <= n; i++)
		feed(m, (struct sip_event){ .type = SIP_EV_WAKEUP, .ts_ns = i * 1000ull,
					    .cpu = 0, .wake = { .pid = i, .target_cpu = 1 } });
	for (i = n; i >= 1; i--)
		feed(m, (struct sip_event){ .type = SIP_EV_SWITCH,
					    .ts_ns = (n + 1) * 1000ull + (n - i) * 1000ull,
					    .cpu = 1, .sw = { .prev_pid = 0, .next_pid = i } });
	/* Switched in again without a new wake-up: no sample. */
	feed(m, (struct sip_event){ .type = SIP_EV_SWITCH, .ts_ns = 30000000, .cpu = 1,
				    .sw = { .prev_pid = 0, .next_pid = 5 } });
	r = sip_model_report(m);
	CHECK_EQ(n, r->wake_to_run.count, "10000 wake-ups: 10000 samples");
	CHECK_EQ(9999000, r->wake_to_run.p50, "10000 wake-ups: p50 9999 us");
	CHECK_EQ(19799000, r->wake_to_run.p99, "10000 wake-ups: p99 19799 us");
	CHECK_EQ(1000, r->wake_to_run.min, "10000 wake-ups: min 1 us");
	CHECK_EQ(19999000, r->wake_to_run.max, "10000 wake-ups: max 19999 us");
	CHECK_EQ(0, r->wake_to_run_idle.count, "target CPU never idle: no idle-target samples");
	sip_model_free(m);
}

static void test_periods(void)
{
	struct sip_platform p = ka();
	struct sip_model *m = sip_model_new(&p);
	const struct sip_report *r;
	struct sip_event ev;

	/* cpu 0: C2 for 1 ms (correct, 185 uJ, oracle C2 185 uJ) */
	feed(m, idle(1000, 0, 2));
	feed(m, idle(1001000, 0, SIP_IDLE_EXIT));
	/* cpu 1: C1 entered, lost events, exit: discarded */
	feed(m, idle(2000, 1, 1));
	feed(m, (struct sip_event){ .type = SIP_EV_MISSED, .ts_ns = 3000, .cpu = 1,
				    .missed = { .count = -1 } });
	feed(m, idle(500000, 1, SIP_IDLE_EXIT));
	/* cpu 1: two entries without an exit: the first is discarded */
	feed(m, idle(600000, 1, 0));
	feed(m, idle(700000, 1, 0));
	feed(m, idle(700500, 1, SIP_IDLE_EXIT));
	/* cpu 0: a state the platform does not have, and one beyond any table */
	feed(m, idle(2000000, 0, 5));
	feed(m, idle(2001000, 0, SIP_IDLE_EXIT));
	feed(m, idle(3000000, 0, 42));
	feed(m, idle(3001000, 0, SIP_IDLE_EXIT));
	/* An event for a CPU beyond SIP_MAX_CPUS is refused, nothing changes. */
	ev = idle(4000000, SIP_MAX_CPUS, 1);
	CHECK(sip_model_feed(m, &ev) == -1 && errno == EINVAL, "cpu %d refused with EINVAL",
	      SIP_MAX_CPUS);
	ev = idle(4000000, 0, 1);
	ev.idle.cpu_id = 100000;
	CHECK(sip_model_feed(m, &ev) == -1 && errno == EINVAL, "cpu_id 100000 refused with EINVAL");
	r = sip_model_report(m);
	CHECK_EQ(3, r->total.idle_periods, "3 periods counted (C2, POLL, state 5)");
	CHECK_EQ(2, r->total.discarded, "2 discarded (lost events, missing exit)");
	CHECK_EQ(1, r->total.missed_unknown, "1 gap of unknown size");
	CHECK_EQ(1, r->total.unknown_state, "state 42 counted as unknown");
	CHECK_EQ(6, r->nr_states, "states 0..5 reported");
	CHECK_EQ(1, r->cpu[0].st[5].entries, "state 5 entered once");
	CHECK_EQ(0, r->cpu[0].st[5].correct + r->cpu[0].st[5].too_deep + r->cpu[0].st[5].too_shallow,
		 "state 5 not judged (not in the platform)");
	CHECK_EQ(1, r->cpu[0].st[2].correct, "C2 for 1 ms: correct");
	CHECK(fabs(r->total.energy_uj - (185.0 + 0.5)) < 1e-9,
	      "energy: C2 1 ms 185 uJ + POLL 0.5 us 0.5 uJ (got %g)", r->total.energy_uj);
	CHECK_EQ(1, r->cpu[1].st[0].correct, "POLL for 0.5 us: correct");
	sip_model_free(m);
}

/*
 * A CPU that records an event inside its idle period was awake then: the
 * period is judged to its first such event plus the state's exit latency.
 * cpu 0, C1 (exit 2 us) from 0 to 400 us, an interrupt at 20 us, a block
 * completion at 30 us: judged as 22 us, correct (C2 needs 200 us), energy
 * 500 mW * 22 us + 5 uJ = 16 uJ; enter-to-exit, 400 us, it is too shallow.
 * cpu 0, C2 (exit 50 us) from 1000 to 1340 us, an interrupt at 1300 us:
 * 300 + 50 us is past the exit, the period keeps its 340 us. An event of
 * cpu 1 inside cpu 0's period does not cut it. The residency stays
 * enter-to-exit either way.
 */
static void woken_feed(struct sip_model *m)
{
	feed(m, idle(0, 0, 1));
	feed(m, (struct sip_event){ .type = SIP_EV_IRQ, .ts_ns = 5000, .cpu = 1 });
	feed(m, (struct sip_event){ .type = SIP_EV_IRQ, .ts_ns = 20000, .cpu = 0 });
	feed(m, (struct sip_event){ .type = SIP_EV_RQ_COMPLETE, .ts_ns = 30000, .cpu = 0,
				    .rq = { .dev = 1, .sector = 8 } });
	feed(m, idle(400000, 0, SIP_IDLE_EXIT));
	feed(m, idle(1000000, 0, 2));
	feed(m, (struct sip_event){ .type = SIP_EV_IRQ, .ts_ns = 1300000, .cpu = 0 });
	feed(m, idle(1340000, 0, SIP_IDLE_EXIT));
}

static void test_woken_inside(void)
{
	struct sip_platform p = ka();
	struct sip_model *m = sip_model_new(&p);
	const struct sip_report *r;

	woken_feed(m);
	r = sip_model_report(m);
	CHECK_EQ(1, r->total.woken_inside, "one period cut at its first event inside");
	CHECK_EQ(1, r->cpu[0].st[1].correct, "C1 woken at 20 us: judged as 22 us, correct");
	CHECK_EQ(1, r->cpu[0].st[2].correct, "C2 woken 40 us before its exit: 340 us, correct");
	CHECK_EQ(400000, r->cpu[0].st[1].residency_ns, "C1 residency: entry to exit, 400 us");
	CHECK(fabs(r->cpu[0].st[1].energy_uj - 16.0) < 1e-9,
	      "C1 energy over 22 us: 16 uJ (got %g)", r->cpu[0].st[1].energy_uj);
	sip_model_free(m);

	m = sip_model_new(&p);
	sip_model_set_to_exit(m, true);
	woken_feed(m);
	r = sip_model_report(m);
	CHECK_EQ(0, r->total.woken_inside, "--to-exit: no period cut");
	CHECK_EQ(1, r->cpu[0].st[1].too_shallow, "--to-exit: C1 for 400 us is too shallow");
	CHECK_EQ(400000, r->cpu[0].st[1].residency_ns, "--to-exit: C1 residency 400 us");
	sip_model_free(m);
}

static void test_predictions(void)
{
	struct sip_platform p = ka();
	struct sip_model *m = sip_model_new(&p);
	const struct sip_report *r;

	/*
	 * A prediction is used by the next idle entry on its CPU only. cpu 0:
	 * prediction 500 us (io, next_io 500 us < next_timer 2 ms), actual
	 * 400 us: error -100 us, early. Then an entry without a prediction.
	 * A prediction for cpu 1 recorded on cpu 0 serves cpu 1's entry.
	 */
	feed(m, (struct sip_event){ .type = SIP_EV_PREDICT, .ts_ns = 100, .cpu = 0,
		.pred = { .cpu = 0, .next_timer_ns = 2000000, .next_io_ns = 500000,
			  .latency_req_ns = SIP_NO_LIMIT, .predicted_ns = 500000, .state = 2,
			  .tick_stopped = true } });
	feed(m, idle(1000, 0, 2));
	feed(m, idle(401000, 0, SIP_IDLE_EXIT));
	feed(m, idle(500000, 0, 1));
	feed(m, idle(600000, 0, SIP_IDLE_EXIT));
	feed(m, (struct sip_event){ .type = SIP_EV_PREDICT, .ts_ns = 700000, .cpu = 0,
		.pred = { .cpu = 1, .next_timer_ns = 3000000, .next_io_ns = 0,
			  .latency_req_ns = SIP_NO_LIMIT, .predicted_ns = 3000000, .state = 3,
			  .tick_stopped = true } });
	feed(m, idle(800000, 1, 3));
	feed(m, idle(5800000, 1, SIP_IDLE_EXIT));
	r = sip_model_report(m);
	CHECK(r->has_predict, "prediction event noticed");
	CHECK_EQ(2, r->total.predicted, "2 periods with a prediction");
	CHECK_EQ(1, r->pred_err[SIP_SRC_IO].count, "io: 1");
	CHECK_EQ(-100000, r->pred_err[SIP_SRC_IO].p50, "io error -100 us");
	CHECK_EQ(1, r->pred_early[SIP_SRC_IO], "io: early");
	CHECK_EQ(2000000, r->pred_err[SIP_SRC_TIMER].p50, "timer error +2 ms (5 ms vs 3 ms)");
	CHECK_EQ(1, r->pred_late[SIP_SRC_TIMER], "timer: late");
	/* 400 us < tick 4 ms: a tick-stop miss; 5 ms is not. */
	CHECK_EQ(2, r->total.tick_stopped, "tick stopped twice");
	CHECK_EQ(1, r->total.tick_stop_misses, "one tick-stop miss");
	/* No limit from the prediction: C3 allowed, C2 at 400 us correct. */
	CHECK_EQ(1, r->cpu[0].st[2].correct, "C2 400 us under the prediction's limit: correct");
	CHECK_EQ(1, r->cpu[1].st[3].correct, "C3 5 ms with no limit: correct");
	CHECK_EQ(0, r->cpu[1].st[3].latency_violations, "prediction's limit: no violation");
	CHECK_EQ(0, r->total.pred_state_mismatch, "predicted states were entered");
	sip_model_free(m);

	/* state -1: the prediction chose no cpuidle state; not a mismatch. */
	m = sip_model_new(&p);
	feed(m, (struct sip_event){ .type = SIP_EV_PREDICT, .ts_ns = 100, .cpu = 0,
		.pred = { .cpu = 0, .next_timer_ns = 50000, .latency_req_ns = 0,
			  .predicted_ns = 50000, .state = -1 } });
	feed(m, idle(1000, 0, 1));
	feed(m, idle(51000, 0, SIP_IDLE_EXIT));
	r = sip_model_report(m);
	CHECK(r->total.pred_no_state == 1 && r->total.pred_state_mismatch == 0,
	      "state -1: counted as no state chosen, not as a mismatch");
	/* limit 0: only POLL (exit latency 0) is allowed: C1 is a violation */
	CHECK_EQ(1, r->cpu[0].st[1].latency_violations, "latency_req_ns 0: C1 breaks the limit");
	sip_model_free(m);
}

static void test_sources(void)
{
	struct sip_platform p = ka();
	struct sip_model *m = sip_model_new(&p);
	const struct sip_report *r;
	struct sip_event ev = { .type = SIP_EV_PREDICT };
	bool derived;

	/* Traced source in range: as traced; otherwise derived. */
	ev.pred = (typeof(ev.pred)){ .next_io_ns = 5, .predicted_ns = 5, .has_source = true,
				     .source = SIP_SRC_TASK };
	CHECK(sip_pred_source(&ev, &derived) == SIP_SRC_TASK && !derived, "traced source task");
	ev.pred.source = SIP_NR_SRC;
	CHECK(sip_pred_source(&ev, &derived) == SIP_SRC_IO && derived,
	      "source %d unknown: derived, io (next_io_ns == predicted_ns)", SIP_NR_SRC);
	ev.pred = (typeof(ev.pred)){ .next_timer_ns = 5, .next_io_ns = 5, .predicted_ns = 5 };
	CHECK(sip_pred_source(&ev, &derived) == SIP_SRC_IO && derived, "no source field, tie: io");
	ev.pred.next_io_ns = 6;
	CHECK(sip_pred_source(&ev, &derived) == SIP_SRC_TIMER, "next_io_ns != predicted_ns: timer");
	ev.pred = (typeof(ev.pred)){ .predicted_ns = 0 };
	CHECK(sip_pred_source(&ev, &derived) == SIP_SRC_TIMER, "predicted 0, no IO: timer");

	/* The bucket: max^2 <= 2 min^2, sqrt(2) = 1.41421356... */
	CHECK(sip_same_bucket(1000000, 1414213) && !sip_same_bucket(1000000, 1414214),
	      "bucket: 1414213 ns in, 1414214 ns out for a 1 ms prediction");
	CHECK(sip_same_bucket(1000000, 707107) && !sip_same_bucket(1000000, 707106),
	      "bucket: 707107 ns in, 707106 ns out for a 1 ms prediction");
	CHECK(!sip_same_bucket(0, 0) && !sip_same_bucket(0, 1000) && !sip_same_bucket(1000, 0),
	      "bucket: no prediction or a 0 ns sleep is a miss");
	CHECK(sip_same_bucket(UINT64_MAX, UINT64_MAX) && sip_same_bucket(UINT64_MAX, UINT64_MAX / 4 * 3) &&
	      !sip_same_bucket(UINT64_MAX, UINT64_MAX / 2),
	      "bucket: no overflow at U64_MAX (x1, x0.75 in; x0.5 out)");

	/*
	 * No duration_ns in the event: the period's duration is predicted_ns.
	 * Prediction 2 ms, period 1.5 ms: |duration - actual| 500 us. With
	 * duration_ns 1 ms traced and source history: 500 us again, and the
	 * C2 period of 1.5 ms is correct.
	 */
	feed(m, (struct sip_event){ .type = SIP_EV_PREDICT, .ts_ns = 100, .cpu = 0,
		.pred = { .cpu = 0, .next_timer_ns = 2000000, .latency_req_ns = SIP_NO_LIMIT,
			  .predicted_ns = 2000000, .state = 2 } });
	feed(m, idle(1000, 0, 2));
	feed(m, idle(1501000, 0, SIP_IDLE_EXIT));
	feed(m, (struct sip_event){ .type = SIP_EV_PREDICT, .ts_ns = 1600000, .cpu = 0,
		.pred = { .cpu = 0, .next_timer_ns = 2000000, .latency_req_ns = SIP_NO_LIMIT,
			  .predicted_ns = 2000000, .duration_ns = 1000000, .has_duration = true,
			  .has_source = true, .source = SIP_SRC_HISTORY, .state = 2 } });
	feed(m, idle(1700000, 0, 2));
	feed(m, idle(3200000, 0, SIP_IDLE_EXIT));
	/* sleeps: one predicted and in the bucket, one woken elsewhere */
	feed(m, (struct sip_event){ .type = SIP_EV_SLEEP, .ts_ns = 3300000, .cpu = 1,
		.sleep = { .pid = 7, .block_cpu = 0, .wake_cpu = 0, .predicted_ns = 100, .slept_ns = 120 } });
	feed(m, (struct sip_event){ .type = SIP_EV_SLEEP, .ts_ns = 3400000, .cpu = 1,
		.sleep = { .pid = 8, .block_cpu = 0, .wake_cpu = 1, .slept_ns = 900 } });
	r = sip_model_report(m);
	CHECK(r->src[SIP_SRC_TIMER].periods == 1 && r->src[SIP_SRC_TIMER].derived == 1 &&
	      r->src[SIP_SRC_TIMER].dur_abs_err.p50 == 500000,
	      "no duration_ns: timer (derived), |predicted - actual| 500 us");
	CHECK(r->src[SIP_SRC_HISTORY].periods == 1 && !r->src[SIP_SRC_HISTORY].derived &&
	      r->src[SIP_SRC_HISTORY].dur_abs_err.p50 == 500000 &&
	      r->pred_abs_err[SIP_SRC_HISTORY].p50 == 500000 &&
	      r->src[SIP_SRC_HISTORY].correct == 1,
	      "history: |duration - actual| 500 us, correct");
	CHECK(fabs(r->src[SIP_SRC_HISTORY].share_pct - 50.0) < 1e-9 &&
	      fabs(r->src[SIP_SRC_HISTORY].correct_pct - 100.0) < 1e-9, "history: 50%% share, 100%% correct");
	CHECK(r->has_sleep_predict && r->sleep.sleeps == 2 && r->sleep.predicted == 1 &&
	      r->sleep.in_bucket == 1 && r->sleep.elsewhere == 1 &&
	      r->sleep.slept_elsewhere.p50 == 900 && r->sleep.abs_err.p50 == 20,
	      "sleeps: 2, predicted 1 in the bucket (120 vs 100 ns), 1 woken elsewhere (900 ns)");
	CHECK(r->nr_cpus == 2, "a sleep event counts its buffer's CPU only");
	sip_model_free(m);
}

static void test_block(void)
{
	struct sip_model *m = sip_model_new(NULL);
	const struct sip_report *r;
	int i;

	/* Two devices, the same sectors, completions in reverse order. */
	for (i = 0; i < 1000; i++)
		for (uint32_t dev = 1; dev <= 2; dev++)
			feed(m, (struct sip_event){ .type = SIP_EV_RQ_ISSUE, .ts_ns = i * 10 + dev,
						    .cpu = 0, .rq = { dev, (uint64_t)i * 8 } });
	for (i = 999; i >= 0; i--)
		for (uint32_t dev = 1; dev <= 2; dev++)
			feed(m, (struct sip_event){ .type = SIP_EV_RQ_COMPLETE,
						    .ts_ns = 100000 + (999 - i) * 10 + dev,
						    .cpu = 0, .rq = { dev, (uint64_t)i * 8 } });
	/* A completion never issued is ignored. */
	feed(m, (struct sip_event){ .type = SIP_EV_RQ_COMPLETE, .ts_ns = 200000, .cpu = 0,
				    .rq = { 1, 123456789 } });
	r = sip_model_report(m);
	CHECK_EQ(2, r->nr_devs, "two devices");
	/* latency = 100000 + (999 - i) * 10 - i * 10 = 109990 - 20 i */
	CHECK(r->nr_devs == 2 && r->devs[0].lat.count == 1000 && r->devs[1].lat.count == 1000,
	      "1000 completions per device");
	CHECK(r->nr_devs == 2 && r->devs[0].lat.min == 90010 && r->devs[0].lat.max == 109990,
	      "latency range 90.01..109.99 us");
	CHECK(!r->plat->present, "no platform: nothing judged");
	sip_model_free(m);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void test_platform_file(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "", "empty" },
		{ "platform x\n", "not a platform description" },
		{ "sip-platform 1\nlatency_limit_us none\nstate 1 C1 2 2 400 1 enabled\n", "out of order" },
		{ "sip-platform 1\nlatency_limit_us none\nstate 0 C1 2 x 400 1 enabled\n", "expected index" },
		{ "sip-platform 1\nlatency_limit_us none\nstate 0 C1 2 2 -4 1 enabled\n", "expected index" },
		{ "sip-platform 1\nlatency_limit_us none\nstate 0 C1 2 2 4 1 maybe\n", "enabled or disabled" },
		{ "sip-platform 1\nstate 0 POLL 0 0 1000 0 enabled\n", "no latency_limit_us" },
		{ "sip-platform 1\nlatency_limit_us 18446744073709551615\nstate 0 P 0 0 1 0 enabled\n",
		  "latency_limit_us" },
		{ "sip-platform 1\nlatency_limit_us none\n", "no state lines" },
		{ "sip-platform 1\nlatency_limit_us none\nfrobnicate 3\n", "unknown or malformed" },
		{ "sip-platform 1\nlatency_limit_us none\nstate 0 a,b 0 0 1 0 enabled\n", "only letters" },
	};
	char path[] = "/tmp/sip-plat-XXXXXX";
	struct sip_platform p;
	char err[256];
	size_t i;
	int fd = mkstemp(path);

	close(fd);
	write_file(path, "sip-platform 1\n# comment\nplatform x86-client\nlatency_limit_us 150\n"
		   "tick_us 4000\nstate 0 POLL 0 0 1000 0 enabled\n"
		   "state 1 C1 2 2 400 1.2 enabled  # trailing comment\n"
		   "state 2 C6 85 200 30 33.2 disabled\n");
	CHECK(!sip_platform_load(path, &p, err, sizeof(err)) && p.nr_states == 3 &&
	      p.latency_limit_ns == 150000 && p.tick_ns == 4000000 &&
	      p.states[2].exit_latency_ns == 85000 && p.states[2].target_residency_ns == 200000 &&
	      p.states[2].disabled && fabs(p.states[1].transition_uj - 1.2) < 1e-12 &&
	      !strcmp(p.name, "x86-client"), "a valid platform file is read");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret;

		memset(&p, 0x5a, sizeof(p));
		write_file(path, bad[i].text);
		err[0] = 0;
		ret = sip_platform_load(path, &p, err, sizeof(err));
		CHECK(ret == -1 && errno == EINVAL && strstr(err, bad[i].err) &&
		      ((unsigned char *)&p)[0] == 0x5a,
		      "bad platform file %zu refused, untouched: %s", i, err);
	}
	unlink(path);
	CHECK(sip_platform_load(path, &p, err, sizeof(err)) == -1 && errno == ENOENT,
	      "missing platform file: ENOENT (%s)", err);
}

static void test_outputs(void)
{
	struct sip_platform p = ka();
	struct sip_model *m = sip_model_new(&p);
	struct sip_report *r;
	const struct sip_output *o[] = { &sip_output_text, &sip_output_csv, &sip_output_json };
	struct sip_output_opts oo = { .color = true };
	size_t i;

	feed(m, idle(1000, 0, 2));
	feed(m, idle(1001000, 0, SIP_IDLE_EXIT));
	r = (struct sip_report *)sip_model_report(m);
	r->trace_name = "quote\"back\\slash";
	for (i = 0; i < 3; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		o[i]->emit(r, f, &oo);
		fclose(f);
		CHECK(len > 0 && (i != 2 || strstr(buf, "\"quote\\\"back\\\\slash\"")) &&
		      (i != 1 || !strncmp(buf, "section,cpu,state,name,metric,value\n", 36)) &&
		      (i != 0 || strstr(buf, "\033[1m")),
		      "%s output: %zu bytes, escaped and well-formed", o[i]->name, len);
		free(buf);
	}
	sip_model_free(m);
}

int main(void)
{
	test_rules();
	test_dist();
	test_wakeups();
	test_periods();
	test_woken_inside();
	test_predictions();
	test_sources();
	test_block();
	test_platform_file();
	test_outputs();
	printf("1..%d\n", t);
	return 0;
}
