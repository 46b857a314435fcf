/* lang.c: which language a report speaks, and its sentences by id. The
 * sentences themselves are data (libjudge/messages.json, turned into a table
 * by gen_problems.mjs); both CLIs ask here, so they agree on names and on
 * the environment's default. */
#include <errno.h>
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
    static const struct { int err; judge_msg msg; } told[] = {
        { ENOENT, JUDGE_MSG_ERRNO_ENOENT }, { EACCES, JUDGE_MSG_ERRNO_EACCES }, { EISDIR, JUDGE_MSG_ERRNO_EISDIR },
        { ENOTDIR, JUDGE_MSG_ERRNO_ENOTDIR }, { EEXIST, JUDGE_MSG_ERRNO_EEXIST }, { ENOSPC, JUDGE_MSG_ERRNO_ENOSPC },
        { EROFS, JUDGE_MSG_ERRNO_EROFS },
    };
    for (size_t i = 0; i < sizeof told / sizeof told[0]; i++)
        if (told[i].err == err) return judge_msg_text(told[i].msg, lang);
    return strerror(err);
}
