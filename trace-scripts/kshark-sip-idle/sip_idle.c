// SPDX-License-Identifier: GPL-2.0
/*
 * KernelShark plugin "sip_idle", loading side: finds power/cpu_idle and the
 * series' sched_idle_predict (by name, in whatever system it is in) and,
 * while KernelShark loads the trace, keeps each cpu_idle record's state
 * and each prediction's predicted_ns, source and next_task_ns beside its
 * entry. SipIdle.cpp pairs them into idle periods and draws. Traces of
 * kernels whose event has no source or next_task_ns field still load:
 * the source is derived as sip-idle-report derives it, next_task_ns is 0.
 *
 * Load: kernelshark -p plugin-sip_idle.so trace.dat
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sip_idle.h"

static void sip_idle_free_context(struct plugin_sip_idle_context *ctx)
{
	if (!ctx)
		return;
	kshark_free_data_container(ctx->idle);
	kshark_free_data_container(ctx->predict);
	kshark_free_data_container(ctx->pred_source);
	kshark_free_data_container(ctx->pred_next_task);
}

KS_DEFINE_PLUGIN_CONTEXT(struct plugin_sip_idle_context, sip_idle_free_context);

/* The id of the first event called @name in any system, or -1. */
static int find_event_any_system(struct kshark_data_stream *stream, const char *name)
{
	int *ids = kshark_get_all_event_ids(stream);
	size_t len = strlen(name);
	int i, id = -1;

	if (!ids)
		return -1;
	for (i = 0; i < stream->n_events && id < 0; i++) {
		char *full = kshark_event_from_id(stream->stream_id, ids[i]);
		size_t flen = full ? strlen(full) : 0;

		/* "system/name" */
		if (flen > len && full[flen - len - 1] == '/' &&
		    !strcmp(full + flen - len, name))
			id = ids[i];
		free(full);
	}
	free(ids);
	return id;
}

static void on_idle(struct kshark_data_stream *stream, void *rec,
		    struct kshark_entry *entry)
{
	struct plugin_sip_idle_context *ctx = __get_context(stream->stream_id);
	int64_t state;

	if (!ctx || kshark_read_record_field_int(stream, rec, "state", &state))
		return;
	kshark_data_container_append(ctx->idle, entry, state);
}

static void on_predict(struct kshark_data_stream *stream, void *rec,
		       struct kshark_entry *entry)
{
	struct plugin_sip_idle_context *ctx = __get_context(stream->stream_id);
	int64_t predicted_ns, source, next_io_ns, next_task_ns;

	if (!ctx || kshark_read_record_field_int(stream, rec, "predicted_ns", &predicted_ns))
		return;
	if (kshark_read_record_field_int(stream, rec, "source", &source) ||
	    source < 0 || source >= SIP_NR_SRC) {
		if (kshark_read_record_field_int(stream, rec, "next_io_ns", &next_io_ns))
			next_io_ns = 0;
		source = (next_io_ns > 0 && next_io_ns == predicted_ns ?
			  SIP_SRC_IO : SIP_SRC_TIMER) | SIP_SRC_DERIVED;
	}
	if (kshark_read_record_field_int(stream, rec, "next_task_ns", &next_task_ns))
		next_task_ns = 0;
	kshark_data_container_append(ctx->predict, entry, predicted_ns);
	kshark_data_container_append(ctx->pred_source, entry, source);
	kshark_data_container_append(ctx->pred_next_task, entry, next_task_ns);
}

/** Load this plugin. */
int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_sip_idle_context *ctx = __init(stream->stream_id);

	if (!ctx)
		goto fail;
	ctx->idle_id = kshark_find_event_id(stream, "power/cpu_idle");
	if (ctx->idle_id < 0) {
		fprintf(stderr, "sip_idle: no power/cpu_idle in %s: plugin not loaded\n",
			stream->file);
		goto fail;
	}
	ctx->predict_id = find_event_any_system(stream, "sched_idle_predict");
	ctx->idle = kshark_init_data_container();
	ctx->predict = kshark_init_data_container();
	ctx->pred_source = kshark_init_data_container();
	ctx->pred_next_task = kshark_init_data_container();
	if (!ctx->idle || !ctx->predict || !ctx->pred_source || !ctx->pred_next_task)
		goto fail;

	kshark_register_event_handler(stream, ctx->idle_id, on_idle);
	if (ctx->predict_id >= 0)
		kshark_register_event_handler(stream, ctx->predict_id, on_predict);
	kshark_register_draw_handler(stream, draw_sip_idle);
	return 1;
fail:
	__close(stream->stream_id);
	return 0;
}

/** Unload this plugin. */
int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_sip_idle_context *ctx = __get_context(stream->stream_id);
	int ret = 0;

	if (ctx) {
		kshark_unregister_event_handler(stream, ctx->idle_id, on_idle);
		if (ctx->predict_id >= 0)
			kshark_unregister_event_handler(stream, ctx->predict_id, on_predict);
		kshark_unregister_draw_handler(stream, draw_sip_idle);
		ret = 1;
	}
	sip_idle_forget(stream->stream_id);
	__close(stream->stream_id);
	return ret;
}
