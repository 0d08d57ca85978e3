/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sip-idle-report: the idle platform a trace was recorded on, its states
 * (exit latency, target residency, power and transition energy) and
 * limits, as record.sh describes it in platform.txt beside the trace
 * (platform.c reads it; design/analysis.md has the format).
 *
 * All times are nanoseconds; every quantity carries its unit in its name.
 */
#ifndef SIP_PLATFORM_H
#define SIP_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIP_MAX_STATES		10	/* CPUIDLE_STATE_MAX */
#define SIP_NO_LIMIT		UINT64_MAX

struct sip_state_desc {
	char name[32];
	uint64_t exit_latency_ns;
	uint64_t target_residency_ns;
	double power_mw;	/* power while resident in the state */
	double transition_uj;	/* energy of one entry + exit */
	bool disabled;
};

struct sip_platform {
	bool present;			/* false: no platform description */
	char name[64];
	int nr_states;
	struct sip_state_desc states[SIP_MAX_STATES];
	uint64_t latency_limit_ns;	/* SIP_NO_LIMIT when unconstrained */
	uint64_t tick_ns;		/* 0 when unknown */
};

int sip_platform_load(const char *path, struct sip_platform *plat,
		      char *err, size_t errlen);

#endif /* SIP_PLATFORM_H */
