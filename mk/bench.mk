# mk/bench.mk: `make bench` measures the SIMD attention core beside its
# peers, natively and as wasm under Node, in one run (bench/run.mjs prints
# the table and the RESULT lines). Figures are printed, never asserted.
#
# OpenBLAS (Debian: apt-get install libopenblas-dev) is a bench-only
# dependency: without it the OpenBLAS baseline reports itself skipped. The
# wasm half needs Emscripten. bench/run.mjs sets OPENBLAS_CORETYPE=SKYLAKEX
# on CPUs with AVX-512: Debian's OpenBLAS 0.3.21 otherwise picks slow SSE3
# kernels on a KVM guest of Skylake-X.
#
# `make bench-peers` installs and runs the issue's peers, one thread each:
# onnxruntime-node (MLAS), onnxruntime-web (wasm) and tfjs-backend-wasm
# (XNNPACK), an npm package of their own in bench/peers (~500 MB, not part
# of the root package, so `npm ci` and `npm test` never fetch it). Once
# installed, `make bench` measures them in the same run and table.
BENCH := $(BUILD)/bench
HAVE_OPENBLAS := $(shell printf '\043include <cblas.h>\nint main(void){return 0;}' | \
    $(CC) -x c - -o /dev/null -lopenblas 2>/dev/null && echo yes)
BENCH_BLAS_FLAGS := $(if $(HAVE_OPENBLAS),-DATT_BENCH_OPENBLAS)
BENCH_BLAS_LIBS := $(if $(HAVE_OPENBLAS),-lopenblas)
BENCH_DEPS := bench/att_bench.h core/att.h core/att_simd.h

$(BENCH)/%.o: bench/%.c $(BENCH_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ibench $(CFLAGS) $(WARN) -c -o $@ $<
# The scalar baseline stays scalar: no auto-vectorisation.
$(BENCH)/att_bench_scalar.o: CFLAGS += -fno-tree-vectorize
$(BENCH)/att_bench_blas.o: CFLAGS += $(BENCH_BLAS_FLAGS)

# The ceilings (core/att_ceil*.c) come with the core's objects.
BENCH_OBJ := $(addprefix $(BENCH)/,att_bench.o att_bench_blas.o att_bench_scalar.o)
$(BENCH)/att_bench: $(BENCH_OBJ) $(CORE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(BENCH_BLAS_LIBS) $(LDLIBS)

# wasm: the same program, core objects of the wasm test build (mk/simd.mk);
# -fno-vectorize -fno-slp-vectorize keep the scalar baseline scalar. $$(..)
# in prerequisites: simd.mk, which defines them, is read after this file.
.SECONDEXPANSION:
BENCH_WASM_SRC := bench/att_bench.c bench/att_bench_blas.c
$(BENCH)/wasm/att_bench_scalar.o: bench/att_bench_scalar.c bench/att_bench.h
	@mkdir -p $(dir $@)
	$(EMCC_RUN) -Ibench $(EMFLAGS) -fno-vectorize -fno-slp-vectorize $(WARN) -c -o $@ $<
$(BENCH)/att_bench.cjs: $(BENCH_WASM_SRC) $(BENCH_DEPS) $(BENCH)/wasm/att_bench_scalar.o $$(WASM_OBJ) \
    | $$(SIMDE_WASM_INC)/simde
	$(EMCC_RUN) -Icore -Ibench -I$(SIMDE_WASM_INC) $(EMFLAGS) $(WARN) $(EMLDFLAGS) -o $@.$$$$.cjs \
	    $(BENCH_WASM_SRC) $(BENCH)/wasm/att_bench_scalar.o $(WASM_OBJ) && mv $@.$$$$.cjs $@

.PHONY: bench
# The core first, then the speed tier of 49's solution on both backends
# (bench/tier.mjs), the wasm backend (mk/wasm.mk) and the page (mk/web.mk).
bench: $(BENCH)/att_bench $(if $(shell command -v emcc 2>/dev/null),$(BENCH)/att_bench.cjs)
	$(NODE) bench/run.mjs
	$(MAKE) -s judge wasm
	$(NODE) bench/tier.mjs
	$(MAKE) -s bench-wasm
	$(MAKE) -s bench-web

.PHONY: bench-peers
# npm writes node_modules/.package-lock.json at the end of an install, so an
# interrupted one is redone. ONNXRUNTIME_NODE_INSTALL=skip: onnxruntime-node's
# install script fetches CUDA libraries from nuget; the CPU library it needs
# is in its npm tarball already.
PEERS_INSTALLED := bench/peers/node_modules/.package-lock.json
$(PEERS_INSTALLED):
	cd bench/peers && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
bench-peers: | $(PEERS_INSTALLED)
	$(NODE) bench/peers/peers.mjs
