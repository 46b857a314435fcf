# mk/web.mk: the page (web/). `make web` builds the static site into
# build/web/ with Vite (npm packages only), then web/site.mjs copies in the
# wasm runtime (build/wasm/, wasm/*.mjs, @yowasp/clang) under rt/<hash>/, the
# statements, Brotli/gzip variants and the service worker. `make serve` serves
# it on localhost; `make bench-web` times it in headless Chromium.
#
# Not in ALL: it needs the Emscripten judge, and its first build compresses the
# 105 MB compiler (~30 s, cached in build/web-compress/ after that). The
# browser tests (tests/e2e.test.mjs) run `make web` themselves.
WEB_DIR := $(BUILD)/web
WEB_SRC := $(shell find web -type f 2>/dev/null) $(wildcard problems/*/statement.*.md problems/*/solution.c) \
           $(wildcard wasm/*.mjs) $(wildcard $(WASM_DIR)/*) package-lock.json
VITE := node_modules/.bin/vite
# A port people rarely use; PORT=... overrides.
PORT ?= 8049
CLEAN += $(WEB_DIR) $(BUILD)/web-compress

.PHONY: web serve bench-web
web: $(WEB_DIR)/sw.js

# sw.js is written last, so its presence means a whole site. The wasm target
# is order-only: its files are listed above, so only a change rebuilds.
$(WEB_DIR)/sw.js: $(WEB_SRC) | wasm
	@[ -x $(VITE) ] || { echo "make web: run npm ci first (needs vite and the other npm packages)" >&2; exit 1; }
	$(VITE) build --config web/vite.config.mjs

# Any static host can serve build/web as it is; this server adds the
# precompressed variants and long caching (see web/serve.mjs).
serve: web
	PORT=$(PORT) $(NODE) web/serve.mjs $(WEB_DIR)

# Cold page-to-first-verdict (compiler download included) and warm re-run,
# in headless Chromium with a fresh profile. Prints RESULT lines.
bench-web: web
	$(NODE) web/bench.mjs
