/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KernelShark plugin "sip_idle": on each CPU graph, where the idle period
 * ended and where the prediction (the series' sched_idle_predict event)
 * said it would end. Shared between the C part (loading, event handlers)
 * and the C++ part (drawing).
 */
#ifndef _KS_PLUGIN_SIP_IDLE_H
#define _KS_PLUGIN_SIP_IDLE_H

#include "libkshark.h"
#include "libkshark-plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* power:cpu_idle state value of an idle exit (PWR_EVENT_EXIT) */
#define SIP_IDLE_EXIT	4294967295LL

/*
 * sched_idle_predict's source field: the input that set the duration the
 * state was chosen for. SIP_SRC_DERIVED is or'ed in when the trace has no
 * source field and the plugin derived it (io when next_io_ns is non-zero
 * and is the prediction, else timer), as sip-idle-report does.
 */
enum sip_idle_src {
	SIP_SRC_TIMER,
	SIP_SRC_IO,
	SIP_SRC_TASK,
	SIP_SRC_HISTORY,
	SIP_NR_SRC,
};
#define SIP_SRC_DERIVED	0x100

struct plugin_sip_idle_context {
	int idle_id;		/* power/cpu_idle */
	int predict_id;		/* <any system>/sched_idle_predict, or -1 */
	/* cpu_idle records: the state field (SIP_IDLE_EXIT on exit) */
	struct kshark_data_container *idle;
	/* sched_idle_predict records: the predicted_ns field */
	struct kshark_data_container *predict;
	/*
	 * The same records, in the same order as appended: the source
	 * (enum sip_idle_src, maybe | SIP_SRC_DERIVED) and next_task_ns (0
	 * when the trace has no such field). Matched to predict by entry.
	 */
	struct kshark_data_container *pred_source;
	struct kshark_data_container *pred_next_task;
	bool paired;		/* the periods have been built */
};

KS_DECLARE_PLUGIN_CONTEXT_METHODS(struct plugin_sip_idle_context)

void draw_sip_idle(struct kshark_cpp_argv *argv, int sd, int val, int draw_action);
void sip_idle_forget(int sd);

#ifdef __cplusplus
}
#endif

#endif
