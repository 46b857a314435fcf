# mk/class.mk: grading a class (libjudge/class.c). Its HTML page carries the
# page's own report drawing (web/src/results.js and pictures.js), bundled at
# build time by libjudge/gen_class_page.mjs with esbuild (Vite's) into a C
# file both judges link: ./judge and, through JUDGE_SRC, judge.wasm.
CLASS_PAGE := $(BUILD)/gen/class_page.c
# Every file of web/src: the page's modules may move code between files.
CLASS_PAGE_SRC := libjudge/gen_class_page.mjs libjudge/c_string.mjs libjudge/class_page.js libjudge/class_page.css \
                  $(wildcard web/src/*)

JUDGE_SRC += libjudge/class.c $(CLASS_PAGE)
JUDGE_OBJ += $(BUILD)/libjudge/class.o $(BUILD)/gen/class_page.o

$(CLASS_PAGE): $(CLASS_PAGE_SRC)
	@[ -d node_modules/esbuild ] || { echo "the class page needs esbuild: run npm ci first" >&2; exit 1; }
	$(NODE) libjudge/gen_class_page.mjs $@

$(BUILD)/gen/class_page.o: $(CLASS_PAGE)
	$(CC) $(CFLAGS) $(WARN) -c -o $@ $<
