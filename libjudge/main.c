/* main.c: the native CLI, ./judge. Parses arguments, finds the learner's
 * file (or a class's files), runs the native backend and prints the report
 * (or the class's table, class.c). The only place that turns outcomes into
 * exit statuses: 0 accepted (a class: every file), 1 any other verdict, 2
 * bad usage or input the judge cannot accept. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <poll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif
#include "heap.h"
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
    judge_stop = 1;
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

/* A message of messages.json as fail()'s format (its conversions all %s). */
static judge_lang cli_lang;
static const char *M(judge_msg id) { return judge_msg_text(id, cli_lang); }

/* One line on stderr, "judge: " first. */
static void vsay(const char *fmt, va_list ap)
{
    fprintf(stderr, "judge: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
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

/* The workspace folder (made if missing): $JUDGE_WORKSPACE, or workspace/
 * beside this program. */
static int workspace(char *dir, size_t n)
{
    const char *env = getenv("JUDGE_WORKSPACE");
    if (env && *env) snprintf(dir, n, "%s", env);
    else if (exe_dir(dir, n) == 0) strncat(dir, "/workspace", n - strlen(dir) - 1);
    else return fail("%s", M(JUDGE_MSG_CLI_NO_WORKSPACE));
    if (mkdir(dir, 0777) && errno != EEXIST) return fail(M(JUDGE_MSG_CLI_CANNOT_CREATE), dir, judge_errno_text(errno, cli_lang));
    return 0;
}

/* The learner's working copy: made from the starter with O_EXCL, so an
 * existing file is never touched. */
static int working_copy(const judge_meta *m, char *file, size_t n)
{
    char dir[PATH_MAX];
    if (workspace(dir, sizeof dir)) return 2;
    if (snprintf(file, n, "%s/%s.c", dir, m->dir) >= (int)n) return fail(M(JUDGE_MSG_CLI_PATH_TOO_LONG), dir);
    int fd = open(file, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 && errno == EEXIST) {
        say(M(JUDGE_MSG_CLI_COPY_JUDGED), file);
        return 0;
    }
    if (fd < 0) return fail(M(JUDGE_MSG_CLI_CANNOT_CREATE), file, judge_errno_text(errno, cli_lang));
    size_t len = strlen(m->starter);
    int ok = write(fd, m->starter, len) == (ssize_t)len;
    if (close(fd) || !ok) {
        unlink(file);
        return fail(M(JUDGE_MSG_CLI_CANNOT_WRITE), file, judge_errno_text(errno, cli_lang));
    }
    say(M(JUDGE_MSG_CLI_COPY_MADE), file);
    return 0;
}


typedef struct {
    const char *key;
    const char **args;          /* FILE and FOLDER arguments, in order */
    int n_args;
    int json, csv, watch, help, version, jobs, speed;
    int hint, hint_n;           /* hint: 1 the next one, 2 hint_n */
    const char *html, *completion;
    unsigned long long seed;
} options;

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int all_digits(const char *a)
{
    if (!*a) return 0;
    for (; *a; a++)
        if (*a < '0' || *a > '9') return 0;
    return 1;
}

/* Whether the folder `path` would be written in can be (errno says why not). */
static int writable_folder(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    return access(dir, W_OK) == 0;
}

/* 0, or 2 after saying why on stderr. */
static int parse(int argc, char **argv, options *o)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (int)cores : 1;
    o->seed = JUDGE_DEFAULT_SEED;
    o->args = calloc((size_t)argc, sizeof *o->args);
    if (!o->args) return fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
    /* --lang first, wherever it is: every other complaint is told in it. */
    for (int i = 1; i + 1 < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--lang")) judge_lang_parse(argv[i + 1], &cli_lang);
    int rest = 0;   /* after "--" every argument is the problem or a file (a file may be named -x.c) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!rest && !strcmp(a, "--")) {
            rest = 1;
        } else if (rest) {
            if (!o->key) o->key = a;
            else o->args[o->n_args++] = a;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;   /* printed once --lang, wherever it is, is known */
        } else if (!strcmp(a, "--version")) {
            o->version = 1;
        } else if (!strcmp(a, "--lang")) {
            if (++i == argc) return fail("%s", M(JUDGE_MSG_CLI_LANG_MISSING));
            if (judge_lang_parse(argv[i], &cli_lang)) return fail(M(JUDGE_MSG_CLI_LANG), argv[i]);
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--csv")) {
            o->csv = 1;
        } else if (!strcmp(a, "--speed")) {
            o->speed = 1;
        } else if (!strcmp(a, "--watch")) {
            o->watch = 1;
        } else if (!strcmp(a, "--html") || !strcmp(a, "--completion")) {
            if (++i == argc) return fail(M(JUDGE_MSG_CLI_NEEDS_VALUE), a);
            *(a[2] == 'h' ? &o->html : &o->completion) = argv[i];
            size_t n = strlen(argv[i]);
            if (a[2] == 'h' && (n < 5 || (strcasecmp(argv[i] + n - 5, ".html") && strcasecmp(argv[i] + n - 4, ".htm"))))
                return fail(M(JUDGE_MSG_CLI_HTML_NAME), argv[i]);
            if (a[2] == 'h' && !writable_folder(argv[i]))   /* now, not after the class is judged */
                return fail(M(JUDGE_MSG_CLI_CANNOT_WRITE), argv[i], judge_errno_text(errno, cli_lang));
        } else if (!strcmp(a, "-j")) {
            if (++i == argc) return fail(M(JUDGE_MSG_CLI_NEEDS_VALUE), a);
            long v = all_digits(argv[i]) && strlen(argv[i]) < 6 ? strtol(argv[i], NULL, 10) : 0;
            if (v < 1) return fail(M(JUDGE_MSG_CLI_JOBS), argv[i]);
            o->jobs = (int)v;
        } else if (!strcmp(a, "--hint")) {
            o->hint = 1;   /* N, when it follows, is which one */
            if (i + 1 < argc && all_digits(argv[i + 1])) {
                o->hint = 2;
                o->hint_n = strlen(argv[++i]) < 6 ? atoi(argv[i]) : -1;
            }
        } else if (!strcmp(a, "--seed")) {
            char *end;
            if (++i == argc) return fail("%s", M(JUDGE_MSG_CLI_SEED_MISSING));
            errno = 0;
            o->seed = strtoull(argv[i], &end, 0);
            if (errno || *end || !*argv[i] || argv[i][0] == '-')
                return fail(M(JUDGE_MSG_CLI_SEED), argv[i]);
        } else if (a[0] == '-' && a[1]) {
            return fail(M(JUDGE_MSG_CLI_UNKNOWN_OPTION), a);
        } else if (!o->key) {
            o->key = a;
        } else {
            o->args[o->n_args++] = a;
        }
    }
    if (o->json && o->csv) return fail(M(JUDGE_MSG_CLI_ONE_FORMAT));
    if (o->completion && strcmp(o->completion, "bash") && strcmp(o->completion, "zsh"))
        return fail(M(JUDGE_MSG_CLI_COMPLETION), o->completion);
    return 0;
}

/* ---- the files of a class ---- */
typedef struct {
    char **v;
    int n, cap;
    int folder;     /* one of them came from a folder */
} file_list;

static int add_file(file_list *l, const char *dir, const char *name)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) return -1;
        l->v = v;
        l->cap = cap;
    }
    size_t d = dir ? strlen(dir) : 0;
    int slash = d && dir[d - 1] != '/';
    char *f = malloc(d + slash + strlen(name) + 1);
    if (!f) return -1;
    sprintf(f, "%s%s%s", dir ? dir : "", slash ? "/" : "", name);
    l->v[l->n++] = f;
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A folder's *.c files (regular files only), sorted by name. */
static int add_folder(file_list *l, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return fail(M(JUDGE_MSG_CLI_CANNOT_READ), dir, judge_errno_text(errno, cli_lang));
    int first = l->n;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".c") || e->d_name[0] == '.') continue;
        if (add_file(l, dir, e->d_name)) {
            closedir(d);
            return fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
        }
        struct stat st;
        if (stat(l->v[l->n - 1], &st) == 0 && !S_ISREG(st.st_mode)) free(l->v[--l->n]);
    }
    closedir(d);
    if (l->n == first) return fail(M(JUDGE_MSG_CLI_NO_C_FILES), dir);
    qsort(l->v + first, (size_t)(l->n - first), sizeof *l->v, by_name);
    l->folder = 1;
    return 0;
}

static void free_files(file_list *l)
{
    for (int i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
}

/* Why a file cannot be judged, or NULL: the same checks as one file's. */
static const char *unreadable(const char *file, char *why, size_t n)
{
    struct stat st;
    if (stat(file, &st) || (S_ISREG(st.st_mode) && access(file, R_OK)))
        snprintf(why, n, M(JUDGE_MSG_CLI_CANNOT_READ), file, judge_errno_text(errno, cli_lang));
    else if (!S_ISREG(st.st_mode))
        snprintf(why, n, M(JUDGE_MSG_CLI_NOT_A_FILE), file);
    else
        return NULL;
    return why;
}

/* Why a class does not judge a file: a symbolic link (a student's archive
 * may hold one to any file of the teacher's, whose text the compile errors
 * would then show in the class's report); NULL for a file itself. */
static const char *linked(const char *file, char *why, size_t n)
{
    struct stat st;
    if (lstat(file, &st) || !S_ISLNK(st.st_mode)) return NULL;
    snprintf(why, n, M(JUDGE_MSG_CLASS_SYMLINK), file);
    return why;
}

/* m:ss */
static void clock_text(char *buf, size_t n, long long ms)
{
    long long sec = ms / 1000;
    snprintf(buf, n, "%lld:%02lld", sec / 60, sec % 60);
}

static void progress(int done, int total, long long start)
{
    long long spent = now_ms() - start;
    char elapsed[24], left[24];
    clock_text(elapsed, sizeof elapsed, spent);
    if (done) clock_text(left, sizeof left, spent * (total - done) / done);
    else snprintf(left, sizeof left, "?");
    fprintf(stderr, M(JUDGE_MSG_CLASS_PROGRESS), done, total, elapsed, left);
    fputs("\033[K", stderr);
}

static int write_page(const char *path, const char *page)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(page, f) >= 0;
    if (f && fclose(f)) ok = 0;
    if (!ok) return fail(M(JUDGE_MSG_CLI_CANNOT_WRITE), path, judge_errno_text(errno, cli_lang));
    fprintf(stderr, M(JUDGE_MSG_CLASS_WROTE), path);
    return 0;
}

/* Every file in a worker of its own, o->jobs at a time, then the class told. */
static int judge_class_files(const judge_meta *m, const file_list *files, const options *o,
                             const judge_job_spec *spec)
{
    judge_class *c;
    if (judge_class_new(&c, m, files->n, cli_lang)) return fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
    int slots = o->jobs < files->n ? o->jobs : files->n;
    judge_job *jobs = calloc((size_t)slots, sizeof *jobs);
    int *of = calloc((size_t)slots, sizeof *of);   /* the file each slot judges, -1 none */
    struct pollfd *p = calloc((size_t)slots, sizeof *p);
    if (!jobs || !of || !p) {
        free(jobs); free(of); free(p);
        judge_class_free(c);
        return fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
    }
    int show = isatty(2), next = 0, done = 0, rc = 0;
    long long start = now_ms();
    for (int k = 0; k < slots; k++) of[k] = -1;
    while (done < files->n && !stopped_by) {
        for (int k = 0; k < slots && next < files->n; k++) {
            if (of[k] >= 0) continue;
            judge_class_row row = { .verdict = -1 };
            const char *file = files->v[next];
            if (linked(file, row.why, sizeof row.why) || unreadable(file, row.why, sizeof row.why) ||
                judge_job_start(&jobs[k], spec, file, row.why, sizeof row.why)) {
                rc |= judge_class_set(c, next++, file, &row, NULL) != JUDGE_OK;
                done++;
                k--;   /* the slot is still free */
                continue;
            }
            of[k] = next++;
        }
        int np = 0;
        for (int k = 0; k < slots; k++)
            if (of[k] >= 0) p[np++] = (struct pollfd){ .fd = jobs[k].fd, .events = POLLIN };
        if (show) progress(done, files->n, start);
        if (np && poll(p, (nfds_t)np, 500) <= 0) continue;
        for (int k = 0, q = 0; k < slots; k++) {
            if (of[k] < 0) continue;
            if (!(p[q++].revents & (POLLIN | POLLHUP | POLLERR)) || !judge_job_read(&jobs[k])) continue;
            judge_class_row row;
            char *report;
            judge_job_finish(&jobs[k], &row, &report);
            rc |= judge_class_set(c, of[k], files->v[of[k]], &row, report) != JUDGE_OK;
            free(report);
            of[k] = -1;
            done++;
        }
    }
    for (int k = 0; k < slots; k++)
        if (of[k] >= 0) judge_job_kill(&jobs[k]);
    free(jobs); free(of); free(p);
    if (show) fputs("\r\033[K", stderr);
    if (stopped_by || rc) {
        judge_class_free(c);
        return stopped_by ? 2 : fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
    }
    int color = !o->json && !o->csv && isatty(1) && !getenv("NO_COLOR");
    char *out = o->json ? judge_class_jsonl(c) : o->csv ? judge_class_csv(c) : judge_class_text(c, color);
    char *page = o->html ? judge_class_html(c) : NULL;
    rc = judge_class_accepted(c) ? 0 : 1;
    if (!out || (o->html && !page)) rc = fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY_REPORT));
    else fputs(out, stdout);
    if (rc != 2 && page && write_page(o->html, page)) rc = 2;
    free(out);
    free(page);
    judge_class_free(c);
    return rc;
}

/* ---- --watch ---- */
typedef struct {
    int ok;
    struct stat st;
} seen;

static seen look(const char *file)
{
    seen s;
    s.ok = stat(file, &s.st) == 0;
    return s;
}

static int changed(const seen *a, const seen *b)
{
    if (a->ok != b->ok) return 1;
    return a->ok && (a->st.st_mtim.tv_sec != b->st.st_mtim.tv_sec || a->st.st_mtim.tv_nsec != b->st.st_mtim.tv_nsec ||
                     a->st.st_size != b->st.st_size || a->st.st_ino != b->st.st_ino);
}

/* For the many runs of one problem (a class, or a watched file's every
 * save): a session the workers copy, set in spec, to free once they are
 * done; NULL if it cannot be made (each worker then makes its own, and
 * tells why it cannot). */
static judge_session *blank_for(judge_job_spec *spec)
{
    judge_session *s;
    if (judge_session_new(&s, spec->m, spec->seed) != JUDGE_OK) return NULL;
    spec->blank = s;
    return s;
}

enum { WATCH_POLL_MS = 200 };

/* Judge the file, and again after every save, until a signal. A save during
 * a run ends that run (its worker, with its files) and starts the next. */
static int watch(const char *file, const judge_job_spec *spec)
{
    int term = isatty(1);
    fprintf(stderr, M(JUDGE_MSG_WATCH_START), file);
    seen last = look(file);
    while (!stopped_by) {
        if (term) fputs("\033[H\033[2J", stdout);
        fflush(stdout);
        judge_class_row row = { .verdict = -1 };
        judge_job job = { 0 };
        int finished = 0;
        if (!unreadable(file, row.why, sizeof row.why) && !judge_job_start(&job, spec, file, row.why, sizeof row.why)) {
            while (!stopped_by && !finished) {
                struct pollfd p = { .fd = job.fd, .events = POLLIN };
                if (poll(&p, 1, WATCH_POLL_MS) > 0) finished = judge_job_read(&job);
                seen now = look(file);
                if (!finished && changed(&now, &last)) break;
            }
            if (!finished) {
                judge_job_kill(&job);
                last = look(file);
                continue;   /* saved mid-run, or stopped: no report for that run */
            }
            char *report;
            judge_job_finish(&job, &row, &report);
            if (report) fputs(report, stdout);
            free(report);
        }
        if (row.verdict < 0) fprintf(stderr, "judge: %s\n", row.why);
        fflush(stdout);
        for (seen now = look(file); !stopped_by && !changed(&now, &last); now = look(file))
            poll(NULL, 0, WATCH_POLL_MS);
        last = look(file);
    }
    return 2;
}

/* ---- --hint ---- */

/* The count of hints shown per problem, one "<id> <count>" line each, in
 * workspace/.hints; *count 0 when the problem has none there yet. */
static int hint_state(const char *path, int id, int *count)
{
    *count = 0;
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? 0 : -1;
    int a, b;
    while (fscanf(f, "%d %d", &a, &b) == 2)
        if (a == id) *count = b;
    fclose(f);
    return 0;
}

/* Rewrite the file with id's count set, through a temporary file and a
 * rename, so a crash never leaves half of it. */
static int save_hint_state(const char *path, int id, int count)
{
    char tmp[PATH_MAX + 16];
    if (snprintf(tmp, sizeof tmp, "%s.new", path) >= (int)sizeof tmp) return -1;
    FILE *in = fopen(path, "r"), *out = fopen(tmp, "w");
    if (!out) {
        if (in) fclose(in);
        return -1;
    }
    int a, b;
    while (in && fscanf(in, "%d %d", &a, &b) == 2)
        if (a != id) fprintf(out, "%d %d\n", a, b);
    if (in) fclose(in);
    fprintf(out, "%d %d\n", id, count);
    if (fclose(out) || rename(tmp, path)) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Hint n, or (n < 0) the learner's next one, whose count is kept. */
static int show_hint(const judge_meta *m, int n)
{
    char dir[PATH_MAX], path[PATH_MAX + 8] = "";
    int count = 0;
    if (n < 0) {   /* the next one: where this learner is is kept */
        if (workspace(dir, sizeof dir)) return 2;
        snprintf(path, sizeof path, "%s/.hints", dir);
        if (hint_state(path, m->id, &count)) return fail(M(JUDGE_MSG_HINT_STATE), path, judge_errno_text(errno, cli_lang));
        n = count < m->n_hints ? count + 1 : m->n_hints;
    }
    char *text = judge_hint_text(m, n, cli_lang);
    if (!text) return fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
    int bad = n < 1 || n > m->n_hints;
    if (bad) fprintf(stderr, "judge: %s\n", text);
    else fputs(text, stdout);
    free(text);
    if (bad) return 2;
    if (path[0] && n > count && save_hint_state(path, m->id, n))
        return fail(M(JUDGE_MSG_HINT_STATE), path, judge_errno_text(errno, cli_lang));
    return 0;
}

/* ---- one file, here ---- */
static int judge_one(const judge_meta *m, const char *file, const options *o, const judge_job_spec *spec)
{
    struct stat st;
    if (stat(file, &st)) return fail(M(JUDGE_MSG_CLI_CANNOT_READ), file, judge_errno_text(errno, cli_lang));
    if (!S_ISREG(st.st_mode)) return fail(M(JUDGE_MSG_CLI_NOT_A_FILE), file);
    if (access(file, R_OK)) return fail(M(JUDGE_MSG_CLI_CANNOT_READ), file, judge_errno_text(errno, cli_lang));

    judge_session *s;
    judge_status status = judge_session_new(&s, m, o->seed);
    if (status) return fail(M(JUDGE_MSG_CLI_CANNOT_JUDGE), m->slug, judge_strerror(status));
    judge_session_set_file(s, file);
    judge_session_set_lang(s, cli_lang);
    if (o->speed) judge_session_want_speed(s);
    char err[512];
    int judged = judge_native_judge(s, m, file, &spec->opts, err, sizeof err);
    if (stopped_by) {   /* even when the run had just finished: no report */
        judge_session_free(s);
        return 2;
    }
    if (judged) {
        judge_session_free(s);
        return fail("%s", err);
    }
    const char *report = o->json ? judge_session_json(s) : judge_session_text(s, spec->opts.color);
    if (!report) {   /* never half a report: a program reading it would trust the half */
        judge_session_free(s);
        return fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY_REPORT));
    }
    fputs(report, stdout);
    int rc = judge_session_verdict(s) == JUDGE_AC ? 0 : 1;
    judge_session_free(s);
    return rc;
}

static int run(int argc, char **argv)
{
    options o = { 0 };
    cli_lang = judge_lang_from_env(getenv("LC_ALL"), getenv("LANG"));
    int rc = parse(argc, argv, &o);
    if (rc) {
        free(o.args);
        return rc;
    }
    const char **args = o.args;
    file_list files = { 0 };
    if (o.help || o.version || o.completion) {
        if (o.help) print_usage(stdout, cli_lang);
        else if (o.version) printf("judge %s\n", judge_version);
        else fputs(!strcmp(o.completion, "bash") ? judge_completion_bash : judge_completion_zsh, stdout);
        rc = 0;
    } else if (!o.key) {
        print_usage(stderr, cli_lang);
        rc = 2;
    } else if (!strcmp(o.key, "list")) {
        char *text = o.n_args ? NULL : judge_list_text(cli_lang);
        if (o.n_args) rc = fail("%s", M(JUDGE_MSG_CLI_LIST_NO_FILE));
        else if (!text) rc = fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
        else fputs(text, stdout);
        free(text);
    } else {
        const judge_meta *m = judge_find(o.key);
        char path[PATH_MAX];
        struct stat st;
        int class = o.n_args > 1 || o.csv || o.html;
        for (int i = 0; i < o.n_args; i++) class |= stat(args[i], &st) == 0 && S_ISDIR(st.st_mode);
        const int color = !o.json && !o.csv && isatty(1) && !getenv("NO_COLOR");
        const char *cc = getenv("JUDGE_CC");
        judge_job_spec spec = { .m = m, .seed = o.seed, .lang = cli_lang, .json = o.json,
                                .opts = { .cc = cc && *cc ? cc : "cc", .color = color } };
        judge_session *blank = NULL;
        if (!m) rc = fail(M(JUDGE_MSG_CLI_NO_PROBLEM), o.key);
        else if (o.hint) rc = show_hint(m, o.hint == 2 ? o.hint_n : -1);
        else if (o.watch && class) rc = fail(M(JUDGE_MSG_CLI_WATCH_ONE));
        else if (o.speed && (class || o.watch)) rc = fail(M(JUDGE_MSG_CLI_SPEED_ONE));
        else if (!o.n_args && working_copy(m, path, sizeof path)) rc = 2;
        else if (!class) {
            catch_signals();
            const char *file = o.n_args ? args[0] : path;
            if (o.watch) blank = blank_for(&spec);
            rc = o.watch ? watch(file, &spec) : judge_one(m, file, &o, &spec);
        } else {
            for (int i = 0; i < o.n_args && !rc; i++) {
                if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) rc = add_folder(&files, args[i]);
                else if (add_file(&files, NULL, args[i])) rc = fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
            }
            if (!o.n_args && add_file(&files, NULL, path)) rc = fail("%s", M(JUDGE_MSG_CLI_OUT_OF_MEMORY));
            spec.json = 1;   /* a class keeps each file's JSON: --json, --html */
            if (!rc) {
                catch_signals();
                blank = blank_for(&spec);
                rc = judge_class_files(m, &files, &o, &spec);
            }
        }
        judge_session_free(blank);
    }
    free_files(&files);
    free(o.args);
    return rc;
}

int main(int argc, char **argv)
{
    judge_heap_keep();
    int rc = run(argc, argv);
    if (stopped_by) {   /* die of the signal that stopped us, as a Unix tool should */
        fflush(stdout);
        signal(stopped_by, SIG_DFL);
        raise(stopped_by);
    }
    return rc;
}
