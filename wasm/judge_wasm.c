/* judge_wasm.c: the wasm front end of the judge (build/wasm/judge.wasm).
 *
 * A thin layer of plain integer-and-pointer functions over the session API of
 * libjudge/judge.h, so JavaScript can drive a session without out-parameters,
 * 64-bit integers or structs crossing the boundary; plus the problem list as
 * JSON, made from the same generated table the native CLI is built with. It
 * decides nothing: every verdict, check and report is judge.c's and report.c's.
 * Not here: running learner code (wasm/runner.mjs does that, in a worker). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge.h"

#define EXPORT(name) __attribute__((export_name(#name))) name

/* ---- a growing string for the problem list ---- */
typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->failed) return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *s = realloc(b->s, cap);
        if (!s) { b->failed = 1; return; }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* A JSON string; the table's texts are UTF-8 already, so only quotes,
 * backslashes and control characters need escaping. */
static void put_str(buf *b, const char *s)
{
    put(b, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') put(b, "\\%c", c);
        else if (c == '\n') put(b, "\\n");
        else if (c == '\t') put(b, "\\t");
        else if (c < 0x20) put(b, "\\u%04x", c);
        else put(b, "%c", c);
    }
    put(b, "\"");
}

static const char *param_type(judge_type t)
{
    static const char *const names[] = { "int", "f32", "u8", "i32", "i64" };
    return (unsigned)t < 5 ? names[t] : "?";
}

/* Every problem the judge knows, as the page and the compile step need it:
 * [{ id, slug, dir, title: { en, zh }, difficulty, function, prototype,
 *    starter, limits: { time_ms, memory_mb, output_kb },
 *    params: [{ name, type, out, in, nullable }] }]
 * The caller frees the string; NULL when out of memory. */
char *EXPORT(jw_problems_json)(void)
{
    buf b = { 0 };
    put(&b, "[");
    for (int i = 0; i < judge_n_metas; i++) {
        const judge_meta *m = &judge_metas[i];
        put(&b, "%s{\"id\":%d,\"slug\":", i ? "," : "", m->id);
        put_str(&b, m->slug);
        put(&b, ",\"dir\":");
        put_str(&b, m->dir);
        put(&b, ",\"title\":{\"en\":");
        put_str(&b, m->title_en);
        put(&b, ",\"zh\":");
        put_str(&b, m->title_zh);
        put(&b, "},\"difficulty\":");
        put_str(&b, m->difficulty);
        put(&b, ",\"function\":");
        put_str(&b, m->function);
        put(&b, ",\"prototype\":");
        put_str(&b, m->prototype);
        put(&b, ",\"starter\":");
        put_str(&b, m->starter);
        put(&b, ",\"limits\":{\"time_ms\":%d,\"memory_mb\":%d,\"output_kb\":%d},\"params\":[",
            m->time_ms, m->memory_mb, m->output_kb);
        for (int p = 0; p < m->n_params; p++) {
            put(&b, "%s{\"name\":", p ? "," : "");
            put_str(&b, m->params[p].name);
            put(&b, ",\"type\":\"%s\",\"out\":%s,\"in\":%s,\"nullable\":%s}",
                param_type(m->params[p].type), m->params[p].is_out ? "true" : "false",
                m->params[p].is_in ? "true" : "false", m->params[p].nullable ? "true" : "false");
        }
        put(&b, "]}");
    }
    put(&b, "]");
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* The status of the last jw_session_new, for its message. */
static judge_status last_status;

/* A session for problem `key` (id or slug) with the seed written in decimal
 * (a u64 does not fit a JS number); NULL on failure, see jw_last_error. */
judge_session *EXPORT(jw_session_new)(const char *key, const char *seed)
{
    const judge_meta *m = judge_find(key);
    if (!m) {
        last_status = JUDGE_ENOPROBLEM;
        return NULL;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(seed, &end, 10);
    if (errno || *end || !*seed || *seed == '-') {
        last_status = JUDGE_EBADCASE;
        return NULL;
    }
    judge_session *s;
    last_status = judge_session_new(&s, m, v);
    return last_status == JUDGE_OK ? s : NULL;
}

/* JUDGE_DEFAULT_SEED in decimal, so both CLIs default to the same inputs. */
const char *EXPORT(jw_default_seed)(void)
{
    static char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)JUDGE_DEFAULT_SEED);
    return text;
}

const char *EXPORT(jw_last_error)(void) { return judge_strerror(last_status); }

void EXPORT(jw_session_free)(judge_session *s) { judge_session_free(s); }
int EXPORT(jw_calls)(judge_session *s) { return judge_session_calls(s); }

/* Call k's request: its address, with its length in *len. */
const unsigned char *EXPORT(jw_request)(judge_session *s, int k, size_t *len)
{
    const unsigned char *bytes;
    if (judge_session_request(s, k, &bytes, len)) return NULL;
    return bytes;
}

size_t EXPORT(jw_reply_len)(judge_session *s, int k) { return judge_session_reply_len(s, k); }

int EXPORT(jw_reply)(judge_session *s, int k, const unsigned char *bytes, size_t len)
{
    return (int)judge_session_reply(s, k, bytes, len);
}

/* verdict is a judge_verdict code, as in jw_verdict_code. */
void EXPORT(jw_fault)(judge_session *s, int k, int verdict, const char *detail)
{
    judge_session_fault(s, k, (judge_verdict)verdict, detail);
}

void EXPORT(jw_compiled)(judge_session *s, int ok, const char *diagnostics)
{
    judge_session_compiled(s, ok, diagnostics);
}

void EXPORT(jw_output)(judge_session *s, const char *text, size_t len)
{
    judge_session_output(s, text, len);
}

void EXPORT(jw_set_file)(judge_session *s, const char *path) { judge_session_set_file(s, path); }
int EXPORT(jw_verdict)(judge_session *s)
{
    judge_session_finish(s);
    return (int)judge_session_verdict(s);
}

/* "AC", "WA", ... for the verdict numbers JavaScript passes to jw_fault. */
const char *EXPORT(jw_verdict_code)(int v) { return judge_verdict_code((judge_verdict)v); }
const char *EXPORT(jw_json)(judge_session *s) { return judge_session_json(s); }
const char *EXPORT(jw_text)(judge_session *s, int color) { return judge_session_text(s, color); }

/* JavaScript moves strings and replies through the judge's own heap. */
void *EXPORT(jw_malloc)(size_t n) { return malloc(n); }
void EXPORT(jw_free)(void *p) { free(p); }
