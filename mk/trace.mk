# SPDX-License-Identifier: GPL-2.0
#
# Trace analysis: sip-idle-report (C, libtracecmd), its test programs, the
# plots, and `make run`. Binaries go to $(SIP_TOOLS), never the checkout.
# design/analysis.md describes the tools and their formats.

TRACE_DIR    := trace-scripts/sip-idle-report
# events.c (the event table) is the only file that calls the trace
# libraries, and only in the decoder process of sandbox.c.
TRACE_SRCS   := $(TRACE_DIR)/main.c $(TRACE_DIR)/sandbox.c $(TRACE_DIR)/events.c \
		$(TRACE_DIR)/model.c $(TRACE_DIR)/platform.c $(TRACE_DIR)/output.c
TRACE_HDRS   := $(wildcard $(TRACE_DIR)/*.h)
# The library flags are asked of pkg-config when a recipe runs ($$ is the
# shell's $), after `deps` has installed the library: computed when make
# reads this file, they would be empty on a machine that does not have it
# yet.
TRACE_CFLAGS  = -O2 -g -Wall -Wextra -Werror -std=gnu11 $$(pkg-config --cflags libtracecmd)
TRACE_LIBS    = $$(pkg-config --libs libtracecmd) -lm
TRACE_SAN    := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=undefined

REPORT_SAN   := $(SIP_TOOLS)/sip-idle-report-san
MODEL_TEST   := $(SIP_TOOLS)/analyser-model-test

# `make run`: the patched kernel once the series exists.
RUN_KERNEL   ?= $(if $(wildcard series/*.patch),patched,base)
RUN_DISKS    ?= 100us 2ms
RUN_PLATFORM ?= x86-client
RUN_SECONDS  ?= 10
RUN_RESULTS  ?= results/run

HELP += \
	"analyser     build sip-idle-report into $(SIP_TOOLS)" \
	"report       analyse TRACE=dir/trace.dat (platform.txt beside it) [FORMAT=text|csv|json], plot into its dir" \
	"             (make run takes [RUN_KERNEL=$(RUN_KERNEL)] [RUN_DISKS='$(RUN_DISKS)'] [RUN_SECONDS=$(RUN_SECONDS)] [RUN_RESULTS=$(RUN_RESULTS)])"

.PHONY: analyser analyser-tests report run

$(REPORT): $(TRACE_SRCS) $(TRACE_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) -o $@ $(TRACE_SRCS) $(TRACE_LIBS)

$(REPORT_SAN): $(TRACE_SRCS) $(TRACE_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) $(TRACE_SAN) -o $@ $(TRACE_SRCS) $(TRACE_LIBS)

$(MODEL_TEST): tests/host/analyser-model-test.c $(TRACE_DIR)/model.c $(TRACE_DIR)/platform.c \
		$(TRACE_DIR)/output.c $(TRACE_HDRS) | deps
	@mkdir -p $(@D)
	$(CC) $(TRACE_CFLAGS) $(TRACE_SAN) -I$(TRACE_DIR) -o $@ $(filter %.c,$^) -lm

analyser: $(REPORT)

analyser-tests: $(REPORT) $(REPORT_SAN) $(MODEL_TEST)

TRACE  ?= $(RUN_RESULTS)/trace.dat
FORMAT ?= text

report: $(REPORT)
	@$(REPORT) -f $(FORMAT) $(TRACE)
	@./trace-scripts/sip-idle-plot.sh $(REPORT) $(TRACE) $(dir $(TRACE))

run: $(REPORT)
	@$(MAKE) --no-print-directory boot KERNEL=$(RUN_KERNEL) PLATFORM=$(RUN_PLATFORM) \
		DISKS='$(RUN_DISKS)' RESULTS=$(RUN_RESULTS) \
		TIMEOUT=$$(( $(RUN_SECONDS) * 20 + 120 )) \
		CMD='/sip/trace-scripts/guest/record.sh -t $(RUN_SECONDS) -w mixed'
	@$(REPORT) $(RUN_RESULTS)/trace.dat | tee $(RUN_RESULTS)/report.txt
	@$(REPORT) -f json -o $(RUN_RESULTS)/report.json $(RUN_RESULTS)/trace.dat
	@./trace-scripts/sip-idle-plot.sh $(REPORT) $(RUN_RESULTS)/trace.dat $(RUN_RESULTS)

# KernelShark plugin (trace-scripts/kshark-sip-idle/): -isystem keeps the
# library headers' own warnings out of -Werror.
KSHARK_DIR    := trace-scripts/kshark-sip-idle
KSHARK_PLUGIN := $(SIP_TOOLS)/kshark/plugin-sip_idle.so
KSHARK_FLAGS  := -O2 -g -fPIC -Wall -Wextra -Werror -isystem /usr/include/kernelshark \
		 -isystem /usr/include/json-c

$(KSHARK_PLUGIN): $(KSHARK_DIR)/sip_idle.c $(KSHARK_DIR)/SipIdle.cpp $(KSHARK_DIR)/sip_idle.h | deps
	@mkdir -p $(@D)
	$(CC) $(KSHARK_FLAGS) -std=gnu11 -c -o $(@D)/sip_idle.o $(KSHARK_DIR)/sip_idle.c
	$(CXX) $(KSHARK_FLAGS) -std=c++17 -c -o $(@D)/SipIdle.o $(KSHARK_DIR)/SipIdle.cpp
	$(CXX) -shared -Wl,--no-undefined -o $@ $(@D)/sip_idle.o $(@D)/SipIdle.o \
		-lkshark -lkshark-plot -lkshark-gui

.PHONY: kshark-plugin
kshark-plugin: $(KSHARK_PLUGIN)

HELP += \
	"kshark-plugin build the KernelShark plugin (predicted vs actual idle end): kernelshark -p $(KSHARK_PLUGIN) trace.dat"
