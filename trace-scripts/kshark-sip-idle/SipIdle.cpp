// SPDX-License-Identifier: GPL-2.0
/*
 * KernelShark plugin "sip_idle", drawing side. On each CPU graph:
 *
 *   - a short green bar where an idle period ended (the power/cpu_idle
 *     exit);
 *   - a triangle where its prediction said it would end (entry time +
 *     predicted_ns of the last sched_idle_predict on that CPU before the
 *     entry), coloured by the prediction's source, the input that set the
 *     duration the state was chosen for:
 *
 *	timer	magenta	(255,0,255)	the next timer, or the tick
 *	io	orange	(255,128,0)	the expected IO completion
 *	task	teal	(0,176,176)	a task's expected wake-up (next_task_ns)
 *	history	olive	(128,128,0)	the intercept history cut the choice
 *
 *     (pure colours KernelShark does not draw itself, so that the test
 *     can count them in a screenshot). Traces without the source field
 *     get it derived, as sip-idle-report does: io when next_io_ns is the
 *     prediction, else timer;
 *   - a line from one to the other: red when the CPU woke before the
 *     prediction (something else woke it), blue when it slept past it;
 *   - where there is room to the right of a triangle (zoomed in), a label
 *     in black: the source ("*" after it when derived) and, when the
 *     prediction had one, next_task_ns, e.g. "task nt=1000us".
 *
 * Pairing follows sip-idle-report (design/analysis.md): a prediction
 * belongs to the next idle entry on the CPU that recorded it (the event
 * fires on the CPU going idle); an entry is closed by the next exit on the
 * same CPU. Periods are built once per loaded trace, on the first draw.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
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
	int source;		/* enum sip_idle_src | SIP_SRC_DERIVED */
	int64_t nextTaskNs;
};

/* The triangle colour of each source (see the top of this file). */
static const Color &sourceColor(int source)
{
	static const Color cols[SIP_NR_SRC] = {
		Color(255, 0, 255), Color(255, 128, 0), Color(0, 176, 176), Color(128, 128, 0),
	};

	source &= ~SIP_SRC_DERIVED;
	return cols[source >= 0 && source < SIP_NR_SRC ? source : SIP_SRC_TIMER];
}

static std::string sourceLabel(int source, int64_t nextTaskNs)
{
	static const char *const names[SIP_NR_SRC] = { "timer", "io", "task", "history" };
	int s = source & ~SIP_SRC_DERIVED;
	std::string l = names[s >= 0 && s < SIP_NR_SRC ? s : SIP_SRC_TIMER];

	if (source & SIP_SRC_DERIVED)
		l += "*";
	if (nextTaskNs > 0) {
		char buf[40];

		snprintf(buf, sizeof(buf), " nt=%lldus", (long long)(nextTaskNs / 1000));
		l += buf;
	}
	return l;
}

/*
 * Text drawn with KernelShark's own font file (FreeSans), loaded on the
 * first label drawn: _draw() runs while KernelShark paints, with its GL
 * context current, which loading the font's texture needs. Without the
 * font no label is drawn.
 */
static ksplot_font *labelFont()
{
	static ksplot_font font;
	static bool tried;

	if (!tried) {
		char *file = ksplot_find_font_file("FreeSans", "FreeSans");

		tried = true;
		if (!file || !ksplot_init_font(&font, 10, file))
			font.texture_id = 0;
		free(file);
	}
	return ksplot_font_is_loaded(&font) ? &font : nullptr;
}

/* The width of @text in @font, in pixels. */
static int textWidth(const ksplot_font *font, const std::string &text)
{
	float w = 0;

	for (char c : text)
		if (c >= KS_SPACE_CHAR && c <= KS_TILDA_CHAR)
			w += font->cdata[c - KS_SPACE_CHAR].xadvance;
	return (int)(w + 0.5f);
}

class SipLabel : public PlotObject {
public:
	SipLabel(const std::string &text, int x, int y) : _text(text), _x(x), _y(y) {}

private:
	void _draw(const Color &col, float) const override
	{
		ksplot_font *font = labelFont();

		if (font)
			ksplot_print_text(font, col.color_c_ptr(), _x, _y, _text.c_str());
	}

	std::string _text;
	int _x, _y;
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
		const kshark_entry *pred = nullptr, *lastPred = nullptr;
	};
	std::unordered_map<int, Pending> cpu;
	struct Extra {
		int source = SIP_SRC_TIMER | SIP_SRC_DERIVED;
		int64_t nextTaskNs = 0;
	};
	std::unordered_map<const kshark_entry *, Extra> extra;
	SipCpuPeriods &out = sipPeriods[sd];
	ssize_t i = 0, j = 0;

	out.clear();
	/* Appended together with predict: matched by entry, any order. */
	for (i = 0; i < ctx->pred_source->size; i++)
		extra[ctx->pred_source->data[i]->entry].source = ctx->pred_source->data[i]->field;
	for (i = 0; i < ctx->pred_next_task->size; i++)
		extra[ctx->pred_next_task->data[i]->entry].nextTaskNs =
			ctx->pred_next_task->data[i]->field;
	i = 0;
	kshark_data_container_sort(ctx->idle);
	kshark_data_container_sort(ctx->predict);

	/* Merge the two time-sorted containers. */
	while (i < ctx->idle->size) {
		kshark_data_field_int64 *ev = ctx->idle->data[i];

		if (j < ctx->predict->size &&
		    ctx->predict->data[j]->entry->ts <= ev->entry->ts) {
			kshark_data_field_int64 *p = ctx->predict->data[j++];

			cpu[p->entry->cpu].lastPredNs = p->field;
			cpu[p->entry->cpu].lastPred = p->entry;
			continue;
		}
		i++;

		Pending &c = cpu[ev->entry->cpu];

		if (ev->field != SIP_IDLE_EXIT) {
			c.open = true;
			c.enterTs = ev->entry->ts;
			c.predictedNs = c.lastPredNs;
			c.pred = c.lastPred;
			c.lastPredNs = -1;
			c.lastPred = nullptr;
		} else if (c.open) {
			int64_t pred = c.predictedNs >= 0 ? c.enterTs + c.predictedNs : -1;
			Extra x = c.pred ? extra[c.pred] : Extra();

			out[ev->entry->cpu].push_back({c.enterTs, ev->entry->ts, pred,
							x.source, x.nextTaskNs});
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
	const Color actualCol(0, 255, 0), labelCol(0, 0, 0);
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
	ksplot_font *font = labelFont();
	int labelEnd = -1;	/* x where the last label ends */

	h = graph->height();
	for (const SipPeriod &p : it->second) {
		int bA = binOf(histo, graph, p.exitTs);
		int bP = p.predictedEndTs >= 0 ? binOf(histo, graph, p.predictedEndTs) : -1;

		if (bA >= 0 && !markedA[bA]) {
			markedA[bA] = true;
			argv->_shapes->push_front(vline(graph, bA, h * 0.4, actualCol));
		}
		if (bP >= 0 && !markedP[bP]) {
			std::string l = sourceLabel(p.source, p.nextTaskNs);
			Point at = graph->bin(bP)._base;

			markedP[bP] = true;
			argv->_shapes->push_front(downTriangle(graph, bP, h, sourceColor(p.source)));
			/*
			 * A label only when it fits before the next triangle
			 * drawn after it would start one: left to right, each
			 * label must start past the end of the previous one.
			 */
			if (font && at.x() + 6 > labelEnd + 4) {
				int w = textWidth(font, l);
				SipLabel *t = new SipLabel(l, at.x() + 6, at.y() - h + 8);

				t->_color = labelCol;
				argv->_shapes->push_front(t);
				labelEnd = at.x() + 6 + w;
			}
		}
		if (bA >= 0 && bP >= 0 && bA != bP)
			argv->_shapes->push_front(hline(graph, bA, bP, h * 0.6,
							p.exitTs < p.predictedEndTs ?
							earlyCol : lateCol));
	}
}
