/* report.c: a finished session told two ways: a table for people (coloured on
 * a terminal) and one JSON object for programs (DESIGN point 3). Both say the
 * same things, in the session's language (messages.json); neither decides
 * anything. What the learner controls (output, diagnostics, file name) never
 * reaches a terminal raw: control characters are shown escaped. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "form.h"
#include "session.h"

static void vput(str *b, const char *fmt, va_list args)
{
    va_list ap;
    va_copy(ap, args);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->failed) {   /* a report with a hole in it is no report */
        b->failed = 1;
        return;
    }
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_copy(ap, args);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void put(str *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(b, fmt, ap);
    va_end(ap);
}

/* Length of the well-formed UTF-8 sequence at s (n bytes left), 0 if none:
 * not overlong, no UTF-16 surrogate, nothing past U+10FFFF (what a JSON
 * reader and a browser's decoder accept). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > n || (len == 2 && s[0] < 0xc2)) return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90) || s[0] > 0xf4)
        return 0;
    return len;
}

/* U+202A-U+202E and U+2066-U+2069: the controls that reorder how a terminal
 * shows the text around them. */
static int bidi_control(const unsigned char *s, size_t len)
{
    return len == 3 && s[0] == 0xe2 &&
           ((s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae) || (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9));
}

/* A JSON string: learner output can hold any bytes, and the JSON must stay
 * valid, so control characters are escaped and bytes that are not UTF-8
 * become U+FFFD. */
static void put_json_str(str *b, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    put(b, "\"");
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t len = utf8_len(u + i, n - i);
        if (c == '"' || c == '\\') put(b, "\\%c", c);
        else if (c == '\n') put(b, "\\n");
        else if (c == '\t') put(b, "\\t");
        else if (c < 0x20 || c == 0x7f) put(b, "\\u%04x", c);
        else if (len == 0) put(b, "\\ufffd");
        else put(b, "%.*s", (int)len, s + i);
        i += len ? len : 1;
    }
    put(b, "\"");
}

/* Learner text for a terminal: the bytes of well-formed UTF-8 as they are,
 * and line breaks and tabs, but every other control character (C0, DEL, C1,
 * bidirectional) and every stray byte as \xNN (\r as itself), so no escape
 * sequence, carriage return or reordering can repaint the report. TEXT_SGR:
 * the colour sequences a compiler writes for a terminal (ESC [ digits and
 * ; m) pass: they change colours, never what is written where. TEXT_LINE: a
 * line break is shown as \n too (a file name is one line of the report). */
enum { TEXT_SGR = 1, TEXT_LINE = 2 };

static void put_text(str *b, const char *s, size_t n, int how)
{
    int sgr = how & TEXT_SGR;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned char c = u[i];
        size_t len = utf8_len(u + i, n - i);
        if (sgr && c == 0x1b && i + 1 < n && u[i + 1] == '[') {
            size_t j = i + 2;
            while (j < n && ((u[j] >= '0' && u[j] <= '9') || u[j] == ';')) j++;
            if (j < n && u[j] == 'm') {
                put(b, "%.*s", (int)(j + 1 - i), s + i);
                i = j + 1;
                continue;
            }
        }
        int c1 = len == 2 && c == 0xc2 && u[i + 1] < 0xa0;
        if (c == '\n' && (how & TEXT_LINE)) put(b, "\\n");
        else if (c == '\n' || c == '\t') put(b, "%c", c);
        else if (c == '\r') put(b, "\\r");
        else if (len == 0 || c1 || c < 0x20 || c == 0x7f || bidi_control(u + i, len)) {
            for (size_t k = 0; k < (len ? len : 1); k++) put(b, "\\x%02x", u[i + k]);
        } else put(b, "%.*s", (int)len, s + i);
        i += len ? len : 1;
    }
}

static void put_json_num(str *b, double v)
{
    if (isnan(v)) put(b, "\"NaN\"");
    else if (isinf(v)) put(b, v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    else put(b, "%.9g", v);
}

static const char *colour(judge_verdict v, int on)
{
    if (!on) return "";
    return v == JUDGE_AC ? "\033[32m" : v == JUDGE_SKIPPED ? "\033[2m" : "\033[31m";
}

static const char *plain(int on) { return on ? "\033[0m" : ""; }

/* A message in the session's language. */
static const char *T(const judge_session *s, judge_msg id) { return judge_msg_text(id, s->lang); }

static const char *title(const judge_meta *m, judge_lang lang)
{
    return lang == JUDGE_LANG_ZH ? m->title_zh : m->title_en;
}

/* Columns a UTF-8 text takes on a terminal: CJK and full-width forms take
 * two, so a Chinese header lines up with its column. */
static int columns(const char *t)
{
    int w = 0;
    for (const unsigned char *u = (const unsigned char *)t; *u; u++) {
        if ((*u & 0xc0) == 0x80) continue;
        w += *u >= 0xe3 && *u <= 0xef ? 2 : 1;   /* U+3000..U+FFFF: wide enough */
    }
    return w;
}

/* t in a cell `width` columns wide, to the left or (right) to the right. */
static void put_cell(str *b, const char *t, int width, int right)
{
    int pad = width - columns(t);
    if (pad < 0) pad = 0;
    if (right) put(b, "%*s%s", pad, "", t);
    else put(b, "%s%*s", t, pad, "");
}

/* Why a call faulted or a case failed, in the session's language, as text
 * (not escaped: the text and JSON reports each escape it their own way). A
 * detail_ message's only conversion is %s (gen_problems.mjs checks), so its
 * arguments are placed here without a va_list. */
static void tell(const judge_session *s, const told *t, str *out)
{
    const char *f = T(s, (judge_msg)t->msg);
    int a = 0;
    for (; f && *f; f++) {
        if (f[0] == '%' && f[1] == '%') {
            put(out, "%%");
            f++;
        } else if (f[0] == '%' && f[1] == 's') {
            const char *arg = a >= t->n_args ? ""
                            : t->text[a] ? t->text[a] : T(s, (judge_msg)t->arg_msg[a]);
            put(out, "%s", arg ? arg : "");
            a++;
            f++;
        } else {
            put(out, "%c", *f);
        }
    }
    if (t->mle_hint) put(out, T(s, JUDGE_MSG_DETAIL_MLE_HINT), s->m->mle_hint[s->lang]);
}

static const char *case_name(const judge_session *s, int ci) { return s->m->cases[ci].name; }

static void where(const judge_session *s, const case_result *r, char *buf, size_t n)
{
    const call *c = &s->calls[r->call];
    char at[160];
    if (s->ops->coords) s->ops->coords(at, sizeof at, &c->args, r->bad_param, r->bad_index, s->lang);
    else form_coords(at, sizeof at, &c->args, r->bad_param, r->bad_index, s->lang);
    snprintf(buf, n, "%s[%s]", s->m->params[r->bad_param].name, at);
}

static double expected_at(const judge_session *s, const case_result *r)
{
    return judge_elem_value(s->m->params[r->bad_param].type, s->calls[r->call].expect[r->bad_param],
                            r->bad_index);
}

static double got_at(const judge_session *s, const case_result *r)
{
    double v = judge_elem_value(s->m->params[r->bad_param].type, s->calls[r->call].got[r->bad_param],
                                r->bad_index);
    return isnan(v) ? fabs(v) : v;   /* "nan", as the table says, not the sign bit's "-nan" */
}

/* An integer output element exactly (a double holds only 53 bits of it). */
static long long int_at(const judge_session *s, const case_result *r, int expected)
{
    const call *c = &s->calls[r->call];
    const void *buf = expected ? c->expect[r->bad_param] : c->got[r->bad_param];
    switch (s->m->params[r->bad_param].type) {
    case JUDGE_I64: return ((const long long *)buf)[r->bad_index];
    case JUDGE_I32: return ((const int *)buf)[r->bad_index];
    case JUDGE_U8: return ((const unsigned char *)buf)[r->bad_index];
    case JUDGE_I8: return ((const signed char *)buf)[r->bad_index];
    default: return (long long)judge_elem_value(s->m->params[r->bad_param].type, buf, r->bad_index);
    }
}

/* The learner's and the reference's time over the cases that ran (the
 * same numbers as the JSON's time_ms and ref_ms); 0 when none ran. */
int judge_session_times(const judge_session *s, double *yours, double *ref)
{
    int ran = 0;
    *yours = *ref = 0;
    for (int ci = 0; s->compiled > 0 && ci < s->m->n_cases; ci++) {
        const case_result *r = &s->cases[ci];
        if (r->verdict != JUDGE_AC && r->verdict != JUDGE_WA) continue;
        *yours += r->ms;
        *ref += s->calls[r->call].ref_ms;
        ran++;
    }
    return ran > 0;
}

/* ---- for people ---- */
/* A case's name in the table, " (example)" after a visible one's. */
static void case_label(const judge_session *s, int ci, char *name, size_t n)
{
    snprintf(name, n, "%s%s", case_name(s, ci), s->m->cases[ci].visible ? T(s, JUDGE_MSG_REPORT_EXAMPLE) : "");
}

static void text_case_table(const judge_session *s, str *b, int on)
{
    static const struct { judge_msg word; int width, right; } cols[] = {
        { JUDGE_MSG_COL_CASE, 18, 0 }, { JUDGE_MSG_COL_VERDICT, 7, 0 }, { JUDGE_MSG_COL_TIME, 11, 1 },
        { JUDGE_MSG_COL_MAX_ABS, 12, 1 }, { JUDGE_MSG_COL_WRONG, 15, 1 },
    };
    char name[80];
    int first = cols[0].width;   /* widened to the longest name, so the columns stay in line */
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        case_label(s, ci, name, sizeof name);
        if (columns(name) > first) first = columns(name);
    }
    for (int i = 0; i < 5; i++) {
        put(b, i ? " " : "  ");
        put_cell(b, T(s, cols[i].word), i ? cols[i].width : first, cols[i].right);
    }
    put(b, "\n");
    for (int ci = 0; ci < s->m->n_cases; ci++) {
        const case_result *r = &s->cases[ci];
        char wrong[40] = "", time[24] = "", err[24] = "";
        case_label(s, ci, name, sizeof name);
        if (r->verdict == JUDGE_AC || r->verdict == JUDGE_WA) {
            snprintf(time, sizeof time, "%.3f ms", r->ms);
            snprintf(err, sizeof err, "%.2e", r->cmp.max_abs);
            snprintf(wrong, sizeof wrong, "%zu / %zu", r->cmp.n_bad, r->cmp.n);
        }
        put(b, "  ");
        put_cell(b, name, first, 0);
        put(b, " %s%-7s%s %11s %12s %15s\n", colour(r->verdict, on),
            judge_verdict_code(r->verdict), plain(on), time, err, wrong);
    }
}

static void text_probe(const judge_session *s, str *b, int on)
{
    const probe_picture *pp = &s->probe;
    int n = pp->n;
    put(b, "%s", T(s, JUDGE_MSG_PROBE_INTRO));
    put(b, "       ");
    put_cell(b, T(s, JUDGE_MSG_PROBE_YOURS), 2 * n - 1, 0);
    put(b, "    %s\n", T(s, JUDGE_MSG_PROBE_EXPECTED));
    /* Past ten keys, the tens on a line above the units: "%2d" ran them
     * together ("8 91011"). */
    if (n > 10) {
        put(b, "      ");
        for (int side = 0; side < 2; side++) {
            for (int j = 0; j < n; j++)
                if (j < 10) put(b, "  ");
                else put(b, " %d", j / 10 % 10);
            put(b, side ? "\n" : "    ");
        }
    }
    put(b, "  q\\k ");
    for (int side = 0; side < 2; side++) {
        for (int j = 0; j < n; j++) put(b, " %d", n > 10 ? j % 10 : j);
        put(b, side ? "\n" : "    ");
    }
    for (int i = 0; i < pp->rows; i++) {
        put(b, "  %3d ", i);
        for (int j = 0; j < n; j++) {
            int y = pp->yours[i][j], e = pp->expected[i][j];
            const char *mark = y == e ? (y ? " 1" : " .") : (y ? " !" : " o");
            put(b, "%s%s%s", y != e && on ? "\033[31;1m" : "", mark, y != e ? plain(on) : "");
        }
        put(b, "    ");
        for (int j = 0; j < n; j++) put(b, "%s", pp->expected[i][j] ? " 1" : " .");
        put(b, "\n");
    }
    int shown = 0;
    for (int i = 0; i < pp->rows; i++)
        for (int j = 0; j < n; j++) {
            if (pp->yours[i][j] == pp->expected[i][j]) continue;
            if (shown++ == 6) { put(b, "  ...\n"); return; }
            if (shown > 6) continue;
            put(b, T(s, pp->yours[i][j] ? JUDGE_MSG_PROBE_SEES : JUDGE_MSG_PROBE_MISSES), i, j);
        }
}

/* The wrong cases the named mistake explains (or does not), by name. */
static void cases_explained(const judge_session *s, char *buf, size_t n, int explained)
{
    size_t used = 0;
    buf[0] = 0;
    for (int ci = 0; ci < s->m->n_cases && used < n; ci++) {
        if (s->cases[ci].verdict != JUDGE_WA || s->cases[ci].explained != explained) continue;
        int w = snprintf(buf + used, n - used, "%s%s", !used ? "" : s->lang == JUDGE_LANG_ZH ? "、" : ", ",
                         case_name(s, ci));
        used += w > 0 ? (size_t)w : 0;
    }
}

/* Where the wrong outputs lie (SPREAD_*): its message, and its id in JSON. */
static const judge_msg spread_msg[] = { 0, JUDGE_MSG_SPREAD_BATCH, JUDGE_MSG_SPREAD_HEAD, JUDGE_MSG_SPREAD_SLICE };
static const char *const spread_id[] = { NULL, "batch", "head", "slice" };

static void text_mistake(const judge_session *s, str *b)
{
    const judge_mistake *m = s->named[0], *m2 = s->named[1];
    int l = s->lang == JUDGE_LANG_ZH;
    if (!m) {
        /* A speed case's wrong result is told in the speed part, undiagnosed;
         * outputs never set are told by their own note, which says what to do. */
        int unset = s->verdict_case >= 0 && s->cases[s->verdict_case].unwritten;
        if (s->verdict == JUDGE_WA && !judge_speed_failed_case(s) && !unset)
            put(b, "%s", T(s, s->search_cut ? JUDGE_MSG_MISTAKE_SEARCH_CUT : JUDGE_MSG_MISTAKE_NONE));
        if (s->spread) put(b, "  %s\n", T(s, spread_msg[s->spread]));
        return;
    }
    if (m2)
        put(b, T(s, JUDGE_MSG_MISTAKE_PAIR), m->title[l], m->id, m2->title[l], m2->id, m->hint[l], m2->hint[l]);
    else
        put(b, T(s, JUDGE_MSG_MISTAKE_ONE), m->title[l], m->id, m->hint[l]);
    if (m == &judge_state_kept) {
        put(b, T(s, JUDGE_MSG_MISTAKE_STATE), case_name(s, s->state_case), case_name(s, s->state_from));
    } else if (m == &judge_earlier_calls) {
        put(b, T(s, JUDGE_MSG_MISTAKE_FRESH), case_name(s, s->verdict_case));
    } else if (s->partial) {
        char yes[512], no[512];
        cases_explained(s, yes, sizeof yes, 1);
        cases_explained(s, no, sizeof no, 0);
        put(b, T(s, JUDGE_MSG_MISTAKE_PARTIAL), yes, no);
    }
}

const char *judge_session_text(judge_session *s, int on)
{
    judge_session_finish(s);
    str *b = &s->report;
    b->len = 0;
    b->failed = 0;
    put(b, "%d %s: %s\n", s->m->id, s->m->slug, title(s->m, s->lang));
    if (s->file) {
        str name = { 0 };
        put_text(&name, s->file, strlen(s->file), TEXT_LINE);
        put(b, T(s, JUDGE_MSG_REPORT_FILE), name.s ? name.s : "");
        b->failed |= name.failed;
        free(name.s);
    }
    put(b, "\n");
    const char *d = s->diagnostics ? s->diagnostics : "";
    if (s->compiled == 0) {
        if (*d) put_text(b, d, strlen(d), on ? TEXT_SGR : 0);
        else put(b, "%s", T(s, JUDGE_MSG_REPORT_COMPILER_SILENT));
        put(b, "\n");
    } else {
        if (*d) {
            put(b, "%s", T(s, JUDGE_MSG_REPORT_COMPILER_WARNS));
            put_text(b, d, strlen(d), on ? TEXT_SGR : 0);
            put(b, "\n");
        }
        text_case_table(s, b, on);
        if (s->verdict_case >= 0) {
            const case_result *r = &s->cases[s->verdict_case];
            put(b, "\n");
            put(b, T(s, JUDGE_MSG_REPORT_ON_CASE), colour(s->verdict, on), judge_verdict_code(s->verdict),
                plain(on), case_name(s, s->verdict_case));
            if (r->why) {
                str why = { 0 };
                tell(s, r->why, &why);
                if (why.s) put_text(b, why.s, why.len, 0);
                b->failed |= why.failed;
                free(why.s);
                put(b, "\n");
            }
            if (r->verdict == JUDGE_WA && r->bad_param >= 0) {
                char at[200];
                where(s, r, at, sizeof at);
                if (s->m->params[r->bad_param].type == JUDGE_F32) {
                    put(b, T(s, JUDGE_MSG_REPORT_FIRST_BAD_F32), at, expected_at(s, r), got_at(s, r));
                    put(b, T(s, JUDGE_MSG_REPORT_N_BAD_F32), r->cmp.n_bad, r->cmp.n,
                        r->cmp.max_abs, r->cmp.max_rel, s->m->atol, s->m->rtol);
                } else {   /* integers: every digit, and no tolerance to quote */
                    put(b, T(s, JUDGE_MSG_REPORT_FIRST_BAD_INT), at, int_at(s, r, 1), int_at(s, r, 0));
                    put(b, T(s, JUDGE_MSG_REPORT_N_BAD_INT), r->cmp.n_bad, r->cmp.n);
                }
            }
            if (r->unwritten) put(b, T(s, JUDGE_MSG_REPORT_UNWRITTEN), r->unwritten);
            if (r->read_outside) put(b, T(s, JUDGE_MSG_REPORT_READ_OUTSIDE), r->read_outside);
        }
        text_mistake(s, b);
        if (s->probe.differs) text_probe(s, b, on);
        if (s->output_len && s->output) {
            put(b, T(s, s->verdict == JUDGE_OLE ? JUDGE_MSG_REPORT_PRINTED_FLOOD : JUDGE_MSG_REPORT_PRINTED),
                s->output_len);
            /* Every byte, NULs too: each line behind its own "  | ". */
            const char *p = s->output, *end = s->output + s->output_len;
            while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
                put(b, "  | ");
                put_text(b, p, len, 0);
                put(b, "\n");
                p += len + (nl != NULL);
            }
        }
    }
    put(b, T(s, JUDGE_MSG_REPORT_VERDICT), colour(s->verdict, on), judge_verdict_code(s->verdict),
        plain(on), judge_verdict_text(s->verdict, s->lang));
    double yours, ref;
    if (s->verdict == JUDGE_AC && judge_session_times(s, &yours, &ref))
        put(b, T(s, JUDGE_MSG_REPORT_SPEED), yours, ref, ref > 0 ? yours / ref : INFINITY);
    if (s->want_speed) judge_speed_text(s, b);
    return s->lost || s->fault || b->failed ? NULL : b->s;
}

/* ---- for programs ---- */
static void json_grid(str *b, unsigned char g[][MAX_PROBE], int rows, int n)
{
    put(b, "[");
    for (int i = 0; i < rows; i++) {
        put(b, "%s\"", i ? "," : "");
        for (int j = 0; j < n; j++) put(b, "%c", g[i][j] ? '1' : '0');
        put(b, "\"");
    }
    put(b, "]");
}

static void json_values(str *b, judge_type t, const void *buf, size_t n)
{
    put(b, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) put(b, ",");
        put_json_num(b, judge_elem_value(t, buf, i));
    }
    put(b, "]");
}

static void json_case(const judge_session *s, str *b, int ci)
{
    const case_result *r = &s->cases[ci];
    put(b, "{\"name\":");
    put_json_str(b, case_name(s, ci), strlen(case_name(s, ci)));
    put(b, ",\"visible\":%s,\"verdict\":\"%s\"", s->m->cases[ci].visible ? "true" : "false",
        judge_verdict_code(r->verdict));
    if (r->verdict == JUDGE_SKIPPED) put(b, ",\"skipped\":true");
    if (r->verdict == JUDGE_AC || r->verdict == JUDGE_WA) {
        put(b, ",\"time_ms\":");
        put_json_num(b, r->ms);
        put(b, ",\"n\":%zu,\"n_bad\":%zu,\"unwritten\":%zu,\"read_outside\":%zu,\"max_abs\":", r->cmp.n,
            r->cmp.n_bad, r->unwritten, r->read_outside);
        put_json_num(b, r->cmp.max_abs);
        put(b, ",\"max_rel\":");
        put_json_num(b, r->cmp.max_rel);
        put(b, ",\"max_ratio\":");   /* worst err / tol: under 1 passes */
        put_json_num(b, r->cmp.max_ratio);
    }
    /* The case's sizes (its int params), so that a limit can be explained
     * with them (the page's TLE and MLE words). */
    put(b, ",\"sizes\":{");
    for (int p = 0, first = 1; p < s->m->n_params; p++)
        if (s->m->params[p].type == JUDGE_INT) {
            put(b, "%s\"%s\":%d", first ? "" : ",", s->m->params[p].name, s->m->cases[ci].ints[p]);
            first = 0;
        }
    put(b, "}");
    const call *c = &s->calls[r->call];
    put(b, ",\"ref_ms\":");
    put_json_num(b, c->ref_ms);
    put(b, ",\"input_hash\":\"%016llx\"", (unsigned long long)c->input_hash);
    if (r->verdict == JUDGE_WA && r->bad_param >= 0) {
        char at[200];
        where(s, r, at, sizeof at);
        put(b, ",\"first_bad\":{\"param\":");
        put_json_str(b, s->m->params[r->bad_param].name, strlen(s->m->params[r->bad_param].name));
        put(b, ",\"index\":%zu,\"where\":", r->bad_index);
        put_json_str(b, at, strlen(at));
        if (s->m->params[r->bad_param].type == JUDGE_F32) {
            put(b, ",\"expected\":");
            put_json_num(b, expected_at(s, r));
            put(b, ",\"got\":");
            put_json_num(b, got_at(s, r));
        } else {   /* every digit of an integer */
            put(b, ",\"expected\":%lld,\"got\":%lld", int_at(s, r, 1), int_at(s, r, 0));
        }
        put(b, "}");
    }
    if (s->m->cases[ci].visible && (r->verdict == JUDGE_AC || r->verdict == JUDGE_WA)) {
        /* The example is the statement's: its values are no secret, and a
         * learner (or the page) can set theirs beside them. */
        put(b, ",\"example\":{");
        for (int i = 0, first = 1; i < s->m->n_params; i++) {
            const judge_param *p = &s->m->params[i];
            if (!p->is_out) continue;
            put(b, "%s\"%s\":{\"shape\":[", first ? "" : ",", p->name);
            for (int d = 0; d < p->rank; d++) put(b, "%s%d", d ? "," : "", c->args.ints[p->dims[d]]);
            put(b, "],\"dims\":[");   /* the shape's names, as problem.json gives them */
            for (int d = 0; d < p->rank; d++) put(b, "%s\"%s\"", d ? "," : "", s->m->params[p->dims[d]].name);
            /* Integers are compared exactly, whatever the tolerance says. */
            put(b, "],\"exact\":%s,\"expected\":", p->type == JUDGE_F32 ? "false" : "true");
            json_values(b, p->type, c->expect[i], c->args.len[i]);
            put(b, ",\"got\":");
            json_values(b, p->type, c->got[i], c->args.len[i]);
            put(b, "}");
            first = 0;
        }
        put(b, "}");
    }
    if (r->why) {   /* the sentence in the session's language; its id in every one */
        str why = { 0 };
        tell(s, r->why, &why);
        put(b, ",\"detail\":");
        put_json_str(b, why.s ? why.s : "", why.len);
        put(b, ",\"detail_id\":\"%s\"", judge_msg_names[r->why->msg]);
        b->failed |= why.failed;
        free(why.s);
    }
    put(b, "}");
}

/* A mistake's id, title and hint, the object left open for more fields. */
static void json_mistake_open(str *b, const judge_mistake *m, judge_lang lang)
{
    int l = lang == JUDGE_LANG_ZH;
    put(b, "{\"id\":\"%s\",\"title\":", m->id);
    put_json_str(b, m->title[l], strlen(m->title[l]));
    put(b, ",\"hint\":");
    put_json_str(b, m->hint[l], strlen(m->hint[l]));
}

const char *judge_session_json(judge_session *s)
{
    judge_session_finish(s);
    str *b = &s->report;
    b->len = 0;
    b->failed = 0;
    put(b, "{\"problem\":{\"id\":%d,\"slug\":", s->m->id);
    put_json_str(b, s->m->slug, strlen(s->m->slug));
    put(b, ",\"title\":");
    put_json_str(b, title(s->m, s->lang), strlen(title(s->m, s->lang)));
    put(b, "},\"lang\":\"%s\",\"verdict\":\"%s\",\"verdict_text\":", s->lang == JUDGE_LANG_ZH ? "zh" : "en",
        judge_verdict_code(s->verdict));
    put_json_str(b, judge_verdict_text(s->verdict, s->lang), strlen(judge_verdict_text(s->verdict, s->lang)));
    put(b, ",\"seed\":%llu", (unsigned long long)s->seed);
    put(b, ",\"tolerance\":{\"atol\":%.9g,\"rtol\":%.9g}", s->m->atol, s->m->rtol);
    if (s->file) {
        put(b, ",\"file\":");
        put_json_str(b, s->file, strlen(s->file));
    }
    put(b, ",\"compile\":{\"ok\":%s,\"diagnostics\":", s->compiled == 0 ? "false" : "true");
    const char *d = s->diagnostics ? s->diagnostics : "";
    put_json_str(b, d, strlen(d));
    put(b, "},\"cases\":[");
    for (int ci = 0; s->compiled != 0 && ci < s->m->n_cases; ci++) {
        if (ci) put(b, ",");
        json_case(s, b, ci);
    }
    put(b, "],\"failed_case\":");
    const char *speed_case = judge_speed_failed_case(s);
    if (s->verdict_case >= 0) put_json_str(b, case_name(s, s->verdict_case), strlen(case_name(s, s->verdict_case)));
    else if (speed_case) put_json_str(b, speed_case, strlen(speed_case));
    else put(b, "null");
    put(b, ",\"mistake\":");
    if (s->named[0]) {
        json_mistake_open(b, s->named[0], s->lang);
        put(b, ",\"also\":");
        if (s->named[1]) {
            json_mistake_open(b, s->named[1], s->lang);
            put(b, "}");
        } else {
            put(b, "null");
        }
        put(b, ",\"partial\":%s,\"cases\":[", s->partial ? "true" : "false");
        for (int ci = 0, first = 1; ci < s->m->n_cases; ci++) {
            if (!s->cases[ci].explained) continue;
            put(b, first ? "" : ",");
            put_json_str(b, case_name(s, ci), strlen(case_name(s, ci)));
            first = 0;
        }
        put(b, "]}");
    } else {
        put(b, "null");
    }
    put(b, ",\"search_cut\":%s,\"spread\":", s->search_cut ? "true" : "false");
    if (s->spread) {
        put(b, "{\"id\":\"%s\",\"text\":", spread_id[s->spread]);
        put_json_str(b, T(s, spread_msg[s->spread]), strlen(T(s, spread_msg[s->spread])));
        put(b, "}");
    } else {
        put(b, "null");
    }
    put(b, ",\"mask\":");
    if (s->probe.n) {
        put(b, "{\"differs\":%s,\"yours\":", s->probe.differs ? "true" : "false");
        json_grid(b, s->probe.yours, s->probe.rows, s->probe.n);
        put(b, ",\"expected\":");
        json_grid(b, s->probe.expected, s->probe.rows, s->probe.n);
        put(b, "}");
    } else {
        put(b, "null");
    }
    put(b, ",\"output\":");
    put_json_str(b, s->output ? s->output : "", s->output ? s->output_len : 0);
    if (s->want_speed) {
        put(b, ",\"speed\":");
        judge_speed_json(s, b);
    }
    put(b, "}\n");
    return s->lost || s->fault || b->failed ? NULL : b->s;
}

/* ---- the problem table, told ---- */

/* A string built here, handed to the caller, who frees it. */
static char *take(str *b)
{
    char *s = b->s;
    if (b->failed) {
        free(s);
        s = NULL;
    } else if (!s) {
        s = calloc(1, 1);
    }
    b->s = NULL;
    return s;
}

/* "easy", "medium" or "hard" in lang (the generator holds every problem's
 * difficulty to a message difficulty_<it>). */
static const char *difficulty(const judge_meta *m, judge_lang lang)
{
    char name[64];
    snprintf(name, sizeof name, "difficulty_%s", m->difficulty);
    int id = judge_msg_find(name);
    return id < 0 ? m->difficulty : judge_msg_text((judge_msg)id, lang);
}

char *judge_list_text(judge_lang lang)
{
    str b = { 0 };
    int width = 0;
    for (int i = 0; i < judge_n_metas; i++) {
        int w = (int)strlen(judge_metas[i].slug);
        if (w > width) width = w;
    }
    for (int i = 0; i < judge_n_metas; i++) {
        const judge_meta *m = &judge_metas[i];
        put(&b, "%4d  %-*s  %-8s %s\n", m->id, width, m->slug, difficulty(m, lang), title(m, lang));
    }
    return take(&b);
}

char *judge_usage_text(judge_msg environment, judge_lang lang)
{
    str b = { 0 };
    put(&b, judge_msg_text(JUDGE_MSG_USAGE, lang), (unsigned long long)JUDGE_DEFAULT_SEED,
        judge_msg_text(environment, lang));
    return take(&b);
}

char *judge_hint_text(const judge_meta *m, int k, judge_lang lang)
{
    str b = { 0 };
    char number[24];
    snprintf(number, sizeof number, "%d", k);
    if (k < 1 || k > m->n_hints) {
        put(&b, judge_msg_text(JUDGE_MSG_HINT_RANGE, lang), m->id, m->n_hints, number);
    } else {
        put(&b, judge_msg_text(JUDGE_MSG_HINT_SHOW, lang), k, m->n_hints, m->id, m->slug, m->hints[k - 1][lang]);
        if (k == m->n_hints) put(&b, judge_msg_text(JUDGE_MSG_HINT_LAST, lang), m->id);
    }
    return take(&b);
}

static void json_field(str *b, const char *sep, const char *key, const char *value)
{
    put(b, "%s\"%s\":", sep, key);
    put_json_str(b, value, strlen(value));
}

char *judge_problems_json(void)
{
    static const char *const type_names[] = {
#define JUDGE_T(name, json, size) json,
        JUDGE_TYPE_LIST(JUDGE_T)
#undef JUDGE_T
    };
    str b = { 0 };
    put(&b, "[");
    for (int i = 0; i < judge_n_metas; i++) {
        const judge_meta *m = &judge_metas[i];
        put(&b, "%s{\"id\":%d", i ? "," : "", m->id);
        json_field(&b, ",", "slug", m->slug);
        json_field(&b, ",", "dir", m->dir);
        json_field(&b, ",\"title\":{", "en", m->title_en);
        json_field(&b, ",", "zh", m->title_zh);
        json_field(&b, "},", "difficulty", m->difficulty);
        json_field(&b, ",\"difficulty_text\":{", "en", difficulty(m, JUDGE_LANG_EN));
        json_field(&b, ",", "zh", difficulty(m, JUDGE_LANG_ZH));
        put(&b, "}");
        json_field(&b, ",", "function", m->function);
        json_field(&b, ",", "prototype", m->prototype);
        json_field(&b, ",", "starter", m->starter);
        put(&b, ",\"hints\":[");
        for (int h = 0; h < m->n_hints; h++) {
            json_field(&b, h ? ",{" : "{", "en", m->hints[h][JUDGE_LANG_EN]);
            json_field(&b, ",", "zh", m->hints[h][JUDGE_LANG_ZH]);
            put(&b, "}");
        }
        put(&b, "]");
        put(&b, ",\"speed\":[");   /* the speed cases' names: a page offers a speed run when any */
        for (int k = 0; k < m->n_speed; k++) json_field(&b, k ? ",{" : "{", "name", m->speed[k].c.name), put(&b, "}");
        put(&b, "]");
        put(&b, ",\"limits\":{\"time_ms\":%d,\"memory_mb\":%d,\"output_kb\":%d},\"params\":[",
            m->time_ms, m->memory_mb, m->output_kb);
        for (int p = 0; p < m->n_params; p++) {
            const judge_param *pa = &m->params[p];
            json_field(&b, p ? ",{" : "{", "name", pa->name);
            put(&b, ",\"type\":\"%s\",\"out\":%s,\"in\":%s,\"nullable\":%s}",
                type_names[pa->type], pa->is_out ? "true" : "false", pa->is_in ? "true" : "false",
                pa->nullable ? "true" : "false");
        }
        put(&b, "]}");
    }
    put(&b, "]");
    return take(&b);
}

/* ---- the helpers above, for the other reports (class.c) ---- */
void judge_str_put(str *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(b, fmt, ap);
    va_end(ap);
}

void judge_str_json(str *b, const char *s) { put_json_str(b, s, strlen(s)); }
void judge_str_json_num(str *b, double v) { put_json_num(b, v); }
void judge_str_line(str *b, const char *s) { put_text(b, s, strlen(s), TEXT_LINE); }
void judge_str_cell(str *b, const char *t, int width, int right) { put_cell(b, t, width, right); }
int judge_str_columns(const char *t) { return columns(t); }
char *judge_str_take(str *b) { return take(b); }
const char *judge_str_colour(judge_verdict v, int on) { return colour(v, on); }
const char *judge_str_plain(int on) { return plain(on); }
