/* judge_wasm.c: the wasm front end of the judge (build/wasm/judge.wasm).
 *
 * A thin layer of plain integer-and-pointer functions over the session API of
 * libjudge/judge.h, so JavaScript can drive a session without out-parameters,
 * 64-bit integers or structs crossing the boundary; plus the problem list as
 * JSON, made from the same generated table the native CLI is built with. It
 * decides nothing: every verdict, check and report is judge.c's and report.c's.
 * Not here: running learner code (wasm/runner.mjs does that, in a worker). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "judge.h"

#define EXPORT(name) __attribute__((export_name(#name))) name

/* Every problem the judge knows (judge.h, judge_problems_json), and the
 * lines of `judge list`, so that both CLIs print the same. The caller frees
 * each string; NULL when out of memory. */
char *EXPORT(jw_problems_json)(void) { return judge_problems_json(); }
char *EXPORT(jw_list_text)(void) { return judge_list_text(); }
char *EXPORT(jw_usage_text)(const char *environment) { return judge_usage_text(environment); }

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

/* The index in jw_problems_json of the problem `key` names (judge_find), or
 * -1: the page and the CLI look problems up here, not on their own. */
int EXPORT(jw_find)(const char *key)
{
    const judge_meta *m = judge_find(key);
    return m ? (int)(m - judge_metas) : -1;
}

/* The wire format's constants (wire.h) and the verdict codes, so that the
 * JavaScript running learner modules copies none of them:
 *   {"magic":{"request":N,...},"types":[{"name":"int","size":0},...],
 *    "verdicts":["AC",...]}, types and verdicts in their C order.
 * A static string (not freed); NULL if it did not fit. */
const char *EXPORT(jw_wire_json)(void)
{
    static char json[512];
    size_t n = 0;
    const char *sep = "";
#define ADD(...) n += (size_t)snprintf(json + n, n < sizeof json ? sizeof json - n : 0, __VA_ARGS__)
    ADD("{\"magic\":{");
#define JUDGE_WIRE_M(name, key, value) ADD("%s\"" key "\":%u", sep, value), sep = ",";
    JUDGE_WIRE_MAGIC_LIST(JUDGE_WIRE_M)
#undef JUDGE_WIRE_M
    ADD("},\"types\":[");
    sep = "";
#define JUDGE_T(name, key, size) ADD("%s{\"name\":\"" key "\",\"size\":%d}", sep, size), sep = ",";
    JUDGE_TYPE_LIST(JUDGE_T)
#undef JUDGE_T
    ADD("],\"verdicts\":[");
    sep = "";
#define JUDGE_V(code, text) ADD("%s\"" #code "\"", sep), sep = ",";
    JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    ADD("]}");
#undef ADD
    return n < sizeof json ? json : NULL;
}

/* JavaScript moves strings and replies through the judge's own heap. */
void *EXPORT(jw_malloc)(size_t n) { return malloc(n); }
void EXPORT(jw_free)(void *p) { free(p); }
