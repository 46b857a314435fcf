# Makefile: `make` builds everything; `make test` runs everything (npm test);
# `make bench` measures; `make clean` removes every build output.
# Each part beyond the native judge has its own fragment in mk/ (wasm, web,
# simd, bench): it adds to ALL, CLEAN and its own targets.
.DEFAULT_GOAL := all
CC ?= cc
# -O2 -g: fast enough to judge, debuggable. No -ffast-math anywhere: it changes
# NaN and Inf behaviour, which the judge depends on (SIMDe says the same).
CFLAGS ?= -O2 -g
# Warnings are part of the build: the tree stays clean under them.
WARN := -Wall -Wextra
CPPFLAGS += -Icore -Ilibjudge
LDLIBS += -lm
NODE ?= node

BUILD := build
CORE_SRC := $(wildcard core/att_*.c)
JUDGE_SRC := libjudge/judge.c libjudge/report.c libjudge/lang.c libjudge/problems.c libjudge/form.c libjudge/speed.c libjudge/fresh.c \
             $(wildcard libjudge/problem_*.c)
NATIVE_SRC := libjudge/native.c libjudge/sandbox.c libjudge/main.c
GEN := $(BUILD)/gen/problems.c
# Beside the table in $(GEN): the message ids (libjudge/messages.json) and the
# knobs of the mistakes' form (libjudge/form.json).
GEN_H := $(BUILD)/gen/messages.h $(BUILD)/gen/form_knobs.h
CPPFLAGS += -I$(BUILD)/gen
PROBLEM_FILES := $(wildcard problems/*/*) problems/mistakes.json

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
JUDGE_OBJ := $(JUDGE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/problems.o
NATIVE_OBJ := $(NATIVE_SRC:%.c=$(BUILD)/%.o)

ALL := judge $(BUILD)/core_test $(BUILD)/judge_test
CLEAN := $(BUILD) judge
include $(sort $(wildcard mk/*.mk))

.PHONY: all test clean serve
all: $(ALL)
# The page's server (mk/web.mk) comes up with the terminal judge built too.
serve: all

judge: $(CORE_OBJ) $(JUDGE_OBJ) $(NATIVE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# The problem table is generated from problems/*/problem.json (one source),
# the message table from libjudge/messages.json and the knobs of the
# mistakes' form from libjudge/form.json, by one run.
$(GEN) $(GEN_H) &: libjudge/gen_problems.mjs libjudge/runner.c libjudge/wire.h libjudge/messages.json libjudge/form.json $(PROBLEM_FILES)
	$(NODE) libjudge/gen_problems.mjs $(GEN)

$(BUILD)/%.o: %.c core/att.h libjudge/judge.h libjudge/wire.h libjudge/session.h libjudge/native.h libjudge/form.h libjudge/heap.h $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

# The mistakes' simulations are the judge's hot loop (naming one tries
# thousands): vectorised, as in the wasm build (-O3 there too).
$(JUDGE_OBJ): CFLAGS += -O3

$(BUILD)/gen/problems.o: $(GEN) $(GEN_H) libjudge/judge.h libjudge/wire.h
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -c -o $@ $<

$(BUILD)/core_test: tests/core_test.c tests/check.h $(CORE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter-out %.h,$^) $(LDLIBS)

# The judge's diagnosis held to its data, with no learner code (tests/judge_test.c).
$(BUILD)/judge_test: tests/judge_test.c tests/check.h libjudge/heap.h $(CORE_OBJ) $(JUDGE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter-out %.h,$^) $(LDLIBS)

test:
	npm test

clean:
	rm -rf $(CLEAN)
