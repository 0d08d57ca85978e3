// SPDX-License-Identifier: GPL-2.0
/*
 * KernelShark plugin "sip_idle", drawing side. On each CPU graph:
 *
 *   - a short green bar where an idle period ended (the power/cpu_idle
 *     exit);
 *   - a magenta triangle where its prediction said it would end (entry
 *     time + predicted_ns of the last sched_idle_predict on that CPU
 *     before the entry);
 *   - a line from one to the other: red when the CPU woke before the
 *     prediction (something else woke it), blue when it slept past it.
 *
 * Pairing follows sip-idle-report (design/analysis.md): a prediction
 * belongs to the next idle entry on the CPU that recorded it (the event
 * fires on the CPU going idle); an entry is closed by the next exit on the
 * same CPU. Periods are built once per loaded trace, on the first draw.
 */
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "sip_idle.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"

using namespace KsPlot;

struct SipPeriod {
	int64_t enterTs;
	int64_t exitTs;
	int64_t predictedEndTs;	/* -1: no prediction */
};

typedef std::unordered_map<int, std::vector<SipPeriod>> SipCpuPeriods;

/* Per data stream: the idle periods of each CPU. */
static std::unordered_map<int, SipCpuPeriods> sipPeriods;

/* Forget a stream's periods when the plugin is unloaded from it. */
void sip_idle_forget(int sd)
{
	sipPeriods.erase(sd);
}

static void pairPeriods(int sd, plugin_sip_idle_context *ctx)
{
	struct Pending {
		bool open = false;
		int64_t enterTs = 0;
		int64_t predictedNs = -1;	/* of the open period */
		int64_t lastPredNs = -1;	/* not yet used */
	};
	std::unordered_map<int, Pending> cpu;
	SipCpuPeriods &out = sipPeriods[sd];
	ssize_t i = 0, j = 0;

	out.clear();
	kshark_data_container_sort(ctx->idle);
	kshark_data_container_sort(ctx->predict);

	/* Merge the two time-sorted containers. */
	while (i < ctx->idle->size) {
		kshark_data_field_int64 *ev = ctx->idle->data[i];

		if (j < ctx->predict->size &&
		    ctx->predict->data[j]->entry->ts <= ev->entry->ts) {
			kshark_data_field_int64 *p = ctx->predict->data[j++];

			cpu[p->entry->cpu].lastPredNs = p->field;
			continue;
		}
		i++;

		Pending &c = cpu[ev->entry->cpu];

		if (ev->field != SIP_IDLE_EXIT) {
			c.open = true;
			c.enterTs = ev->entry->ts;
			c.predictedNs = c.lastPredNs;
			c.lastPredNs = -1;
		} else if (c.open) {
			int64_t pred = c.predictedNs >= 0 ? c.enterTs + c.predictedNs : -1;

			out[ev->entry->cpu].push_back({c.enterTs, ev->entry->ts, pred});
			c.open = false;
		}
	}
}

/* The bin holding time @ts, or -1 outside the visible range. */
static int binOf(const kshark_trace_histo *histo, const Graph *graph, int64_t ts)
{
	int64_t bin;

	if (ts < histo->min || ts > histo->max || histo->bin_size <= 0)
		return -1;
	bin = (ts - histo->min) / histo->bin_size;
	return std::min<int64_t>(bin, graph->size() - 1);
}

static Line *vline(const Graph *graph, int bin, int height, const Color &col)
{
	Point base = graph->bin(bin)._base, top = base;
	Line *l;

	base.setY(base.y() - 1);
	top.setY(top.y() - height);
	l = new Line(base, top);
	l->_color = col;
	l->_size = 2;
	return l;
}

static Triangle *downTriangle(const Graph *graph, int bin, int height, const Color &col)
{
	Point p = graph->bin(bin)._base;
	Triangle *t = new Triangle;
	int y = p.y() - height;

	t->setPoint(0, p.x() - 4, y);
	t->setPoint(1, p.x() + 4, y);
	t->setPoint(2, p.x(), y + 7);
	t->setFill(true);
	t->_color = col;
	return t;
}

static Line *hline(const Graph *graph, int binA, int binB, int height, const Color &col)
{
	Point a = graph->bin(binA)._base, b = graph->bin(binB)._base;
	Line *l;

	a.setY(a.y() - height);
	b.setY(b.y() - height);
	l = new Line(a, b);
	l->_color = col;
	l->_size = 1;
	return l;
}

/**
 * draw_sip_idle() - the plugin's draw handler
 * @argv_c: KernelShark's C++ arguments (model, graph, shape list)
 * @sd: data stream
 * @val: the CPU (or task) of the graph
 * @draw_action: KSHARK_CPU_DRAW for CPU graphs; nothing else is drawn
 */
__hidden void draw_sip_idle(struct kshark_cpp_argv *argv_c, int sd, int val,
			    int draw_action)
{
	plugin_sip_idle_context *ctx = __get_context(sd);
	const Color actualCol(0, 255, 0), predCol(255, 0, 255);
	const Color earlyCol(255, 0, 0), lateCol(0, 0, 255);
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	const Graph *graph = argv->_graph;
	kshark_trace_histo *histo = argv->_histo;
	int h;

	if (!ctx || !(draw_action & KSHARK_CPU_DRAW) || graph->size() == 0)
		return;
	if (!ctx->paired) {
		pairPeriods(sd, ctx);
		ctx->paired = true;
	}
	auto it = sipPeriods[sd].find(val);
	if (it == sipPeriods[sd].end())
		return;

	/*
	 * Zoomed out, many periods share a bin: one mark per bin and kind
	 * is all the screen can show. The end ticks are short so that the
	 * task colours of the CPU graph stay visible above them.
	 */
	std::vector<bool> markedA(graph->size()), markedP(graph->size());

	h = graph->height();
	for (const SipPeriod &p : it->second) {
		int bA = binOf(histo, graph, p.exitTs);
		int bP = p.predictedEndTs >= 0 ? binOf(histo, graph, p.predictedEndTs) : -1;

		if (bA >= 0 && !markedA[bA]) {
			markedA[bA] = true;
			argv->_shapes->push_front(vline(graph, bA, h * 0.4, actualCol));
		}
		if (bP >= 0 && !markedP[bP]) {
			markedP[bP] = true;
			argv->_shapes->push_front(downTriangle(graph, bP, h, predCol));
		}
		if (bA >= 0 && bP >= 0 && bA != bP)
			argv->_shapes->push_front(hline(graph, bA, bP, h * 0.6,
							p.exitTs < p.predictedEndTs ?
							earlyCol : lateCol));
	}
}
