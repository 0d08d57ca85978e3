// SPDX-License-Identifier: GPL-2.0
/*
 * KernelShark plugin "sip_idle", loading side: finds power/cpu_idle and the
 * series' sched_idle_predict (by name, in whatever system it is in) and,
 * while KernelShark loads the trace, keeps each cpu_idle record's state
 * and each prediction's predicted_ns beside its entry. SipIdle.cpp pairs
 * them into idle periods and draws.
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
	int64_t predicted_ns;

	if (!ctx || kshark_read_record_field_int(stream, rec, "predicted_ns", &predicted_ns))
		return;
	kshark_data_container_append(ctx->predict, entry, predicted_ns);
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
	if (!ctx->idle || !ctx->predict)
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
