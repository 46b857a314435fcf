/* main.c: the native CLI, ./judge. Parses arguments, finds the learner's
 * file, runs the native backend and prints the report. The only place that
 * turns outcomes into exit statuses: 0 accepted, 1 any other verdict, 2 bad
 * usage or input the judge cannot accept. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif
#include "judge.h"
#include "native.h"

/* Each CLI names its own environment in the shared usage (report.c). */
static void print_usage(FILE *to, judge_lang lang)
{
    char *text = judge_usage_text(JUDGE_MSG_USAGE_ENV_NATIVE, lang);
    if (text) fputs(text, to);
    free(text);
}

/* Ctrl-C, a closed terminal, kill: end the run cleanly (native.h), then die
 * of the same signal, as a Unix tool should. */
static volatile sig_atomic_t stopped_by;

static void on_signal(int sig)
{
    stopped_by = sig;
    judge_native_stop = 1;
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: poll() must wake up */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "judge: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

/* The folder this program lives in, so the workspace is found from anywhere. */
static int exe_dir(char *buf, size_t n)
{
    char path[PATH_MAX];
#ifdef __APPLE__
    uint32_t size = sizeof path;
    if (_NSGetExecutablePath(path, &size)) return -1;
    char real[PATH_MAX];
    if (!realpath(path, real)) return -1;
    snprintf(path, sizeof path, "%s", real);
#else
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    if (len < 0) return -1;
    path[len] = 0;
#endif
    char *slash = strrchr(path, '/');
    if (!slash) return -1;
    *slash = 0;
    snprintf(buf, n, "%s", path);
    return 0;
}

/* The learner's working copy: made from the starter with O_EXCL, so an
 * existing file is never touched. */
static int working_copy(const judge_meta *m, char *file, size_t n)
{
    char dir[PATH_MAX];
    const char *env = getenv("JUDGE_WORKSPACE");
    if (env && *env) snprintf(dir, sizeof dir, "%s", env);
    else if (exe_dir(dir, sizeof dir) == 0) strncat(dir, "/workspace", sizeof dir - strlen(dir) - 1);
    else return fail("cannot find where this program lives; pass FILE or set JUDGE_WORKSPACE%s", "", "");
    if (mkdir(dir, 0777) && errno != EEXIST) return fail("cannot create %s: %s", dir, strerror(errno));
    snprintf(file, n, "%s/%s.c", dir, m->dir);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST) {
        fprintf(stderr, "judge: judging your working copy %s\n", file);
        return 0;
    }
    if (fd < 0) return fail("cannot create %s: %s", file, strerror(errno));
    size_t len = strlen(m->starter);
    int ok = write(fd, m->starter, len) == (ssize_t)len;
    if (close(fd) || !ok) {
        unlink(file);
        return fail("cannot write %s: %s", file, strerror(errno));
    }
    fprintf(stderr, "judge: created your working copy %s from the starter: edit it, then run "
                    "this again\n", file);
    return 0;
}

int main(int argc, char **argv)
{
    const char *key = NULL, *file = NULL;
    int json = 0, help = 0;
    unsigned long long seed = JUDGE_DEFAULT_SEED;
    judge_lang lang = judge_lang_from_env(getenv("LC_ALL"), getenv("LANG"));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help = 1;   /* printed once --lang, wherever it is, is known */
        } else if (!strcmp(a, "--lang")) {
            if (++i == argc) return fail("--lang needs en or zh%s%s", "", "");
            if (judge_lang_parse(argv[i], &lang)) return fail("--lang needs en or zh, not '%s'%s", argv[i], "");
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--seed")) {
            char *end;
            if (++i == argc) return fail("--seed needs a number%s%s", "", "");
            errno = 0;
            seed = strtoull(argv[i], &end, 0);
            if (errno || *end || !*argv[i] || argv[i][0] == '-')
                return fail("--seed needs a non-negative integer, not '%s'%s", argv[i], "");
        } else if (a[0] == '-' && a[1]) {
            return fail("unknown option %s (see judge --help)%s", a, "");
        } else if (!key) {
            key = a;
        } else if (!file) {
            file = a;
        } else {
            return fail("too many arguments: '%s' (see judge --help)%s", a, "");
        }
    }
    if (help) {
        print_usage(stdout, lang);
        return 0;
    }
    if (!key) {
        print_usage(stderr, lang);
        return 2;
    }
    if (!strcmp(key, "list")) {
        if (file) return fail("list takes no FILE%s%s", "", "");
        char *text = judge_list_text(lang);
        if (!text) return fail("out of memory%s%s", "", "");
        fputs(text, stdout);
        free(text);
        return 0;
    }
    const judge_meta *m = judge_find(key);
    if (!m) return fail("no problem '%s' (judge list shows them)%s", key, "");
    char path[PATH_MAX];
    if (!file) {
        if (working_copy(m, path, sizeof path)) return 2;
        file = path;
    }
    struct stat st;
    if (stat(file, &st)) return fail("cannot read %s: %s", file, strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail("%s is not a regular file%s", file, "");
    if (access(file, R_OK)) return fail("cannot read %s: %s", file, strerror(errno));

    judge_session *s;
    judge_status status = judge_session_new(&s, m, seed);
    if (status) return fail("cannot judge problem %s: %s", m->slug, judge_strerror(status));
    judge_session_set_file(s, file);
    judge_session_set_lang(s, lang);
    int color = !json && isatty(1) && !getenv("NO_COLOR");
    const char *cc = getenv("JUDGE_CC");
    judge_native_opts o = { .cc = cc && *cc ? cc : "cc", .color = color };
    char err[512];
    catch_signals();
    int judged = judge_native_judge(s, m, file, &o, err, sizeof err);
    if (stopped_by) {   /* even when the run had just finished: no report */
        judge_session_free(s);
        signal(stopped_by, SIG_DFL);
        raise(stopped_by);
    }
    if (judged) {
        judge_session_free(s);
        return fail("%s%s", err, "");
    }
    const char *report = json ? judge_session_json(s) : judge_session_text(s, color);
    if (!report) {   /* never half a report: a program reading it would trust the half */
        judge_session_free(s);
        return fail("out of memory writing the report%s%s", "", "");
    }
    fputs(report, stdout);
    int rc = judge_session_verdict(s) == JUDGE_AC ? 0 : 1;
    judge_session_free(s);
    return rc;
}
