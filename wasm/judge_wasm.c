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
 * lines of `judge list` and the usage (environment: a message id, see
 * jw_msg_find), so that both CLIs print the same. lang is a judge_lang. The
 * caller frees each string; NULL when out of memory. */
char *EXPORT(jw_problems_json)(void) { return judge_problems_json(); }
char *EXPORT(jw_list_text)(int lang) { return judge_list_text((judge_lang)lang); }
char *EXPORT(jw_usage_text)(int environment, int lang)
{
    if (environment < 0 || environment >= JUDGE_N_MSGS) return NULL;
    return judge_usage_text((judge_msg)environment, (judge_lang)lang);
}

/* Languages as the native CLI reads them (lang.c), so JavaScript keeps no
 * copy of the rules: a judge_lang for "en" or "zh", -1 for anything else;
 * the default from LC_ALL and LANG (NULL when unset). */
int EXPORT(jw_lang_parse)(const char *name)
{
    judge_lang lang;
    return judge_lang_parse(name, &lang) ? -1 : (int)lang;
}
int EXPORT(jw_lang_from_env)(const char *lc_all, const char *lang)
{
    return (int)judge_lang_from_env(lc_all, lang);
}

/* A message's id by its name in libjudge/messages.json, -1 if none. */
int EXPORT(jw_msg_find)(const char *name) { return judge_msg_find(name); }

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

/* A copy of a session never judged (judge_session_copy); NULL on failure,
 * see jw_last_error. */
judge_session *EXPORT(jw_session_copy)(const judge_session *blank)
{
    judge_session *s;
    last_status = judge_session_copy(&s, blank);
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
int EXPORT(jw_paced)(judge_session *s) { return judge_session_paced(s); }

/* The core's time in ms on a request of problem `key`'s speed runs, or -1
 * (judge.h, judge_time_speed_core: the run worker's). */
double EXPORT(jw_time_speed_core)(const char *key, const unsigned char *req, size_t len)
{
    const judge_meta *m = judge_find(key);
    double ms;
    return m && judge_time_speed_core(m, req, len, &ms) == JUDGE_OK ? ms : -1;
}
void EXPORT(jw_core_timed)(judge_session *s, int k, double ms) { judge_session_core_timed(s, k, ms); }

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

/* verdict is a judge_verdict code, as in jw_verdict_code; msg a detail_
 * message's id (jw_msg_find). Its n_args arguments come packed back to
 * back, each a kind byte, its content and a NUL: 't' and the text, or 'm'
 * and a message id in decimal (told in the session's language). 0, or -1
 * when the message or an argument is malformed (nothing is recorded). */
int EXPORT(jw_fault)(judge_session *s, int k, int verdict, int msg, const char *packed, int n_args)
{
    judge_arg args[JUDGE_MAX_ARGS];
    if (msg < 0 || msg >= JUDGE_N_MSGS || n_args < 0 || n_args > JUDGE_MAX_ARGS) return -1;
    for (int i = 0; i < n_args; i++) {
        char kind = *packed++;
        if (kind == 't') {
            args[i] = JUDGE_TEXT(packed);
        } else if (kind == 'm') {
            char *end;
            long id = strtol(packed, &end, 10);
            if (*end || end == packed || id < 0 || id >= JUDGE_N_MSGS) return -1;
            args[i] = JUDGE_MSG((int)id);
        } else {
            return -1;
        }
        packed += strlen(packed) + 1;
    }
    judge_session_fault(s, k, (judge_verdict)verdict, (judge_msg)msg, args, n_args);
    return 0;
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
void EXPORT(jw_set_lang)(judge_session *s, int lang) { judge_session_set_lang(s, (judge_lang)lang); }
int EXPORT(jw_verdict)(judge_session *s)
{
    judge_session_finish(s);
    return (int)judge_session_verdict(s);
}

/* The speed tier (judge.h, "speed"): ask for it; then, once the calls
 * are all run, the speed runs to run (a session owned by s, never freed on
 * its own; NULL: none, the report says why) and a session's time limit in
 * ms (the speed runs' budget). */
void EXPORT(jw_want_speed)(judge_session *s) { judge_session_want_speed(s); }
judge_session *EXPORT(jw_speed)(judge_session *s) { return judge_session_speed(s); }
int EXPORT(jw_time_ms)(judge_session *s) { return judge_session_meta(s)->time_ms; }
/* The fresh run (judge.h): once the calls are all run, a wrong case to run
 * again alone in a fresh module instance (owned by s; NULL: none). */
judge_session *EXPORT(jw_fresh)(judge_session *s) { return judge_session_fresh(s); }

/* "AC", "WA", ... for the verdict numbers JavaScript passes to jw_fault. */
const char *EXPORT(jw_verdict_code)(int v) { return judge_verdict_code((judge_verdict)v); }
/* The reports: NULL when the judge could not write one whole. */
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
#define JUDGE_V(code) ADD("%s\"" #code "\"", sep), sep = ",";
    JUDGE_VERDICT_LIST(JUDGE_V)
#undef JUDGE_V
    ADD("]}");
#undef ADD
    return n < sizeof json ? json : NULL;
}

/* JavaScript moves strings and replies through the judge's own heap. */
void *EXPORT(jw_malloc)(size_t n) { return malloc(n); }
void EXPORT(jw_free)(void *p) { free(p); }

/* ---- a class (judge.h, class.c): the wasm CLI's table, CSV, JSON Lines
 * and page are the native CLI's. n files of problem `key`; NULL when the
 * problem is unknown or memory is out. */
judge_class *EXPORT(jw_class_new)(const char *key, int n, int lang)
{
    const judge_meta *m = judge_find(key);
    judge_class *c;
    if (!m || judge_class_new(&c, m, n, (judge_lang)lang)) return NULL;
    return c;
}
void EXPORT(jw_class_free)(judge_class *c) { judge_class_free(c); }

/* Row i from a finished session and its JSON report; or, with no session,
 * a file not judged and why. 0, or -1 when out of memory or out of range. */
int EXPORT(jw_class_set)(judge_class *c, int i, const char *file, judge_session *s, const char *json,
                         const char *why)
{
    judge_class_row row = { .verdict = -1 };
    if (s) judge_class_row_of(s, &row);
    else snprintf(row.why, sizeof row.why, "%s", why);
    return judge_class_set(c, i, file, &row, s ? json : NULL) ? -1 : 0;
}
int EXPORT(jw_class_accepted)(judge_class *c) { return judge_class_accepted(c); }
/* The class told (the caller frees each; NULL when out of memory). */
char *EXPORT(jw_class_text)(judge_class *c, int color) { return judge_class_text(c, color); }
char *EXPORT(jw_class_csv)(judge_class *c) { return judge_class_csv(c); }
char *EXPORT(jw_class_jsonl)(judge_class *c) { return judge_class_jsonl(c); }
char *EXPORT(jw_class_html)(judge_class *c) { return judge_class_html(c); }

/* Hint k of problem `key` told (judge_hint_text); the caller frees it. */
char *EXPORT(jw_hint_text)(const char *key, int k, int lang)
{
    const judge_meta *m = judge_find(key);
    return m ? judge_hint_text(m, k, (judge_lang)lang) : NULL;
}

/* A message's text in lang (a printf format), for the CLI's own lines. */
const char *EXPORT(jw_msg_text)(int msg, int lang) { return judge_msg_text(msg, (judge_lang)lang); }

/* The version (package.json's) and the completion scripts, as ./judge prints them. */
const char *EXPORT(jw_version)(void) { return judge_version; }
const char *EXPORT(jw_completion)(int zsh) { return zsh ? judge_completion_zsh : judge_completion_bash; }
