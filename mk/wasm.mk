# mk/wasm.mk: the WebAssembly backend (wasm/). `make wasm` builds the C judge
# (core + libjudge, the same sources as ./judge, minus the native sandbox and
# CLI) into build/wasm/judge.wasm with Emscripten, and puts beside it the
# files the page serves. `make bench-wasm` measures it (make bench can call it).
WASM_DIR := $(BUILD)/wasm
# -O3: the judge's reference kernels run on every case. -msimd128: the core's
# SIMD kernels (SIMDe) become wasm SIMD128. STANDALONE_WASM --no-entry: a plain
# module with a handful of imports that wasm/judge_core.mjs provides, so no
# Emscripten JS glue (which fetches its .wasm by URL and fails on a file path
# under Node). Memory grows: a session's tensors depend on the problem.
WASM_CFLAGS := -O3 -msimd128
WASM_LDFLAGS := -sSTANDALONE_WASM --no-entry -sALLOW_MEMORY_GROWTH=1
# Emscripten, its NODE_PATH and SIMDe's include folder (Emscripten's sysroot
# hides /usr/include) are mk/simd.mk's: EMCC_RUN, SIMDE_WASM_INC.
WASM_JUDGE_SRC := $(CORE_SRC) $(JUDGE_SRC) $(GEN) wasm/judge_wasm.c
WASM_OUT := $(WASM_DIR)/judge.wasm $(WASM_DIR)/learner_shim.o $(WASM_DIR)/guard.wasm

ALL += $(WASM_OUT)
.PHONY: wasm bench-wasm
wasm: $(WASM_OUT)

$(WASM_DIR)/judge.wasm: $(WASM_JUDGE_SRC) core/att.h libjudge/judge.h libjudge/wire.h libjudge/session.h \
    libjudge/form.h $(GEN_H) \
    | $(SIMDE_WASM_INC)/simde
	@command -v $(EMCC) >/dev/null || { echo "make wasm: needs Emscripten's emcc (Debian: apt-get install emscripten)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	$(EMCC_RUN) $(WASM_CFLAGS) $(CPPFLAGS) -I$(SIMDE_WASM_INC) $(WARN) \
	    $(WASM_LDFLAGS) -o $@ $(WASM_JUDGE_SRC)

# Linked into every learner module (wasm/compile.mjs); served with judge.wasm.
# Compiled by the toolchain the learner's code is (npm's @yowasp/clang), so a
# new one rebuilds it.
$(WASM_DIR)/learner_shim.o: wasm/learner_shim.c wasm/build_shim.mjs wasm/compile.mjs \
    $(wildcard node_modules/@yowasp/clang/package.json)
	@mkdir -p $(dir $@)
	$(NODE) wasm/build_shim.mjs $< $@

# The run worker's guard check (wasm/guard.wat); wasm-as is binaryen's,
# which Emscripten depends on.
$(WASM_DIR)/guard.wasm: wasm/guard.wat
	@command -v wasm-as >/dev/null || { echo "make wasm: needs binaryen's wasm-as (Debian: apt-get install binaryen)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	wasm-as --enable-simd -o $@ $<

# Compile time (first and warm), end-to-end judge time, wasm/native ratio.
bench-wasm: $(WASM_OUT) judge
	$(NODE) wasm/bench.mjs
