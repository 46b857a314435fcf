/* lang.c: which language a report speaks, and its sentences by id. The
 * sentences themselves are data (libjudge/messages.json, turned into a table
 * by gen_problems.mjs); both CLIs ask here, so they agree on names and on
 * the environment's default. */
#define _GNU_SOURCE   /* strerrorname_np */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "judge.h"

int judge_lang_parse(const char *name, judge_lang *lang)
{
    if (!strcmp(name, "en")) *lang = JUDGE_LANG_EN;
    else if (!strcmp(name, "zh")) *lang = JUDGE_LANG_ZH;
    else return -1;
    return 0;
}

/* POSIX's order: LC_ALL overrides LANG. Only the language part matters, so
 * zh_CN.UTF-8, zh_TW and plain zh all mean Chinese. */
judge_lang judge_lang_from_env(const char *lc_all, const char *lang)
{
    const char *v = lc_all && *lc_all ? lc_all : lang;
    return v && !strncmp(v, "zh", 2) ? JUDGE_LANG_ZH : JUDGE_LANG_EN;
}

int judge_msg_find(const char *name)
{
    for (int i = 0; i < JUDGE_N_MSGS; i++)
        if (!strcmp(judge_msg_names[i], name)) return i;
    return -1;
}

const char *judge_msg_text(int msg, judge_lang lang)
{
    if (msg < 0 || msg >= JUDGE_N_MSGS) return NULL;
    return judge_msg_texts[msg][lang == JUDGE_LANG_ZH];
}

const char *judge_errno_text(int err, judge_lang lang)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
    /* messages.json's errno_<name> for the error named <NAME>, if it has one. */
    const char *name = strerrorname_np(err);
    char id[32];
    if (name && snprintf(id, sizeof id, "errno_%s", name) < (int)sizeof id) {
        for (char *c = id; *c; c++) *c = (char)tolower((unsigned char)*c);
        int msg = judge_msg_find(id);
        if (msg >= 0) return judge_msg_text(msg, lang);
    }
#else
    (void)lang;
#endif
    return strerror(err);
}
