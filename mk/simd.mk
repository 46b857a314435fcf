# mk/simd.mk: the SIMD core's flags, and the three builds its tests run in.
#
# SIMDe: Debian's libsimde-dev installs it as /usr/include/simde, which the
# native compiler finds by itself. Emscripten's sysroot hides /usr/include, so
# wasm builds get $(SIMDE_WASM_INC), a directory holding only a simde/ link
# (wasm builds elsewhere in the tree can use it too: -I$(SIMDE_WASM_INC)).
#
# Dispatch: the kernels (core/att_kern.h) are compiled three times, at 16, 8
# and 4 float lanes (core/att_kern_{avx512,avx2,v128}.c). On x86-64 the wide
# two get their -m flags here, per object, so everything else stays baseline
# x86-64 and the binary runs on any x86-64 CPU; core/att_fast.c picks at run
# time the widest the CPU runs (__builtin_cpu_supports), else the 128-bit one.
# Elsewhere (Arm, wasm) no -m flags: SIMDe emulates the wide APIs and the
# 128-bit one is native (NEON, SIMD128). att_simd_select() forces a level.
#
# Test builds (tests/kernels.test.mjs runs each):
#   build/core_test, build/kernels_test          native
#   build/ktest/nonative/{core,kernels}_test     -DSIMDE_NO_NATIVE: SIMDe's
#                                                portable C for every op
#   build/ktest/wasm/{core,kernels}_test.cjs      emcc -O3 -msimd128, in Node
EMCC ?= emcc
# Debian's emscripten tools need Debian's acorn; -sSINGLE_FILE embeds the
# .wasm in the .js, since the glue's fetch() fails on file paths in Node 20.
EMCC_RUN := NODE_PATH=/usr/share/nodejs $(EMCC)
EMFLAGS := -O3 -msimd128
EMLDFLAGS := -sSINGLE_FILE=1 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1
SIMDE_WASM_INC := $(BUILD)/simde-inc

ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
ATT_AVX512_FLAGS := -mavx512f -mavx2 -mfma
ATT_AVX2_FLAGS := -mavx2 -mfma
endif
# The _simd kernels may run on several threads (core/att_threads.c).
LDLIBS += -pthread

KERN_DEPS := core/att_kern.h core/att_simd.h core/att_fast.h core/att.h

$(BUILD)/core/att_kern_avx512.o: core/att_kern_avx512.c $(KERN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ATT_AVX512_FLAGS) $(WARN) -c -o $@ $<
$(BUILD)/core/att_kern_avx2.o: core/att_kern_avx2.c $(KERN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ATT_AVX2_FLAGS) $(WARN) -c -o $@ $<
$(BUILD)/core/att_kern_v128.o: core/att_kern_v128.c $(KERN_DEPS)
# The machine's ceilings (core/att_ceil.h) at each width, with the kernels' flags.
$(BUILD)/core/att_ceil_avx512.o: core/att_ceil_avx512.c core/att_ceil.h $(KERN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ATT_AVX512_FLAGS) $(WARN) -c -o $@ $<
$(BUILD)/core/att_ceil_avx2.o: core/att_ceil_avx2.c core/att_ceil.h $(KERN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ATT_AVX2_FLAGS) $(WARN) -c -o $@ $<
$(BUILD)/core/att_ceil_v128.o: core/att_ceil_v128.c core/att_ceil.h $(KERN_DEPS)
$(patsubst %.c,$(BUILD)/%.o,$(wildcard core/att_fast*.c)) $(BUILD)/core/att_threads.o: core/att_fast.h

$(BUILD)/kernels_test: tests/kernels_test.c tests/check.h $(CORE_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $(filter-out %.h,$^) $(LDLIBS)

# SIMDE_NO_NATIVE: no -m flags either, so the compiler cannot slip in an
# instruction this CPU lacks while SIMDe's C stands in for every intrinsic.
KT := $(BUILD)/ktest
NN_OBJ := $(CORE_SRC:core/%.c=$(KT)/nonative/%.o)
$(KT)/nonative/%.o: core/%.c $(KERN_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DSIMDE_NO_NATIVE $(CFLAGS) $(WARN) -Wno-psabi -c -o $@ $<
$(KT)/nonative/%_test: tests/%_test.c tests/check.h $(NN_OBJ)
	$(CC) $(CPPFLAGS) -DSIMDE_NO_NATIVE $(CFLAGS) $(WARN) -o $@ $(filter-out %.h,$^) $(LDLIBS)

$(SIMDE_WASM_INC)/simde:
	@mkdir -p $(dir $@)
	ln -sfn /usr/include/simde $@

WASM_OBJ := $(CORE_SRC:core/%.c=$(KT)/wasm/%.o)
$(KT)/wasm/%.o: core/%.c $(KERN_DEPS) | $(SIMDE_WASM_INC)/simde
	@mkdir -p $(dir $@)
	$(EMCC_RUN) -Icore -I$(SIMDE_WASM_INC) $(EMFLAGS) $(WARN) -c -o $@ $<
# Linked under a name of this process's own, then renamed: emcc writes a
# .wasm beside its output before embedding it, and two makes running at once
# in one tree (npm test from two shells) must not embed each other's halves.
$(KT)/wasm/%_test.cjs: tests/%_test.c tests/check.h $(WASM_OBJ)
	$(EMCC_RUN) -Icore $(EMFLAGS) $(WARN) $(EMLDFLAGS) -o $@.$$$$.cjs $(filter-out %.h,$^) && mv $@.$$$$.cjs $@

KTESTS := $(BUILD)/kernels_test $(KT)/nonative/core_test $(KT)/nonative/kernels_test
# The wasm builds need Emscripten (.ci/run installs it); without it `make`
# still builds the rest and tests/kernels.test.mjs reports what is missing.
ifneq ($(shell command -v $(EMCC) 2>/dev/null),)
KTESTS += $(KT)/wasm/core_test.cjs $(KT)/wasm/kernels_test.cjs
endif
ALL += $(KTESTS)
# Keep the objects of the test builds: later builds only redo what changed.
.SECONDARY: $(NN_OBJ) $(WASM_OBJ)
.PHONY: kernels-test
kernels-test: $(KTESTS)
