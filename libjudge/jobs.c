/* jobs.c: one file judged in a worker process (native.h). The worker is a
 * fork of the CLI: it judges with native.c as a single run would, writes its
 * row and its report to a pipe, and exits; the CLI reads many such pipes at
 * once. Nothing of the worker's outlives it: native.c removes its folder,
 * sandbox.c kills its children. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "native.h"

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The worker: never returns. */
static void work(int fd, const judge_job_spec *spec, const char *file)
{
    judge_class_row row;
    memset(&row, 0, sizeof row);
    row.verdict = -1;
    judge_session *s = NULL;
    const char *report = NULL;
    judge_status st = spec->blank ? judge_session_copy(&s, spec->blank) : judge_session_new(&s, spec->m, spec->seed);
    if (st) {
        snprintf(row.why, sizeof row.why, judge_msg_text(JUDGE_MSG_CLI_CANNOT_JUDGE, spec->lang), spec->m->slug,
                 judge_strerror(st));
    } else {
        judge_session_set_file(s, file);
        judge_session_set_lang(s, spec->lang);
        if (judge_native_judge(s, spec->m, file, &spec->opts, row.why, sizeof row.why) == 0) {
            report = spec->json ? judge_session_json(s) : judge_session_text(s, spec->opts.color);
            if (report) judge_class_row_of(s, &row);
            else snprintf(row.why, sizeof row.why, "%s", judge_msg_text(JUDGE_MSG_CLI_OUT_OF_MEMORY_REPORT, spec->lang));
        }
    }
    if (judge_stop) _exit(1);   /* an interrupted run sends nothing */
    int bad = write_all(fd, &row, sizeof row) || (report && write_all(fd, report, strlen(report)));
    judge_session_free(s);
    _exit(bad);
}

int judge_job_start(judge_job *j, const judge_job_spec *spec, const char *file, char *err, size_t n)
{
    int p[2];
    memset(j, 0, sizeof *j);
    j->fd = -1;
    j->lang = spec->lang;
    if (pipe2(p, O_CLOEXEC)) {
        snprintf(err, n, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);   /* the worker exits with _exit: nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, n, "cannot fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        work(p[1], spec, file);
    }
    close(p[1]);
    j->pid = pid;
    j->fd = p[0];
    return 0;
}

int judge_job_read(judge_job *j)
{
    if (j->len + 4096 > j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 65536;
        char *d = realloc(j->data, cap);
        if (!d) return 1;   /* what came is all we keep; finish says what is missing */
        j->data = d;
        j->cap = cap;
    }
    /* One read: the caller polls, so it never blocks here. */
    ssize_t r = read(j->fd, j->data + j->len, j->cap - j->len - 1);
    if (r < 0 && errno == EINTR) return 0;
    if (r <= 0) return 1;
    j->len += (size_t)r;
    return 0;
}

static void reap(judge_job *j)
{
    if (j->fd >= 0) close(j->fd);
    j->fd = -1;
    while (j->pid > 0 && waitpid(j->pid, NULL, 0) < 0 && errno == EINTR) {}
    j->pid = 0;
}

void judge_job_finish(judge_job *j, judge_class_row *row, char **report)
{
    reap(j);
    *report = NULL;
    if (j->len < sizeof *row) {
        memset(row, 0, sizeof *row);
        row->verdict = -1;
        snprintf(row->why, sizeof row->why, "%s", judge_msg_text(JUDGE_MSG_CLI_NO_REPORT, j->lang));
    } else {
        memcpy(row, j->data, sizeof *row);
        if (j->len > sizeof *row) {
            j->data[j->len] = 0;
            *report = strdup(j->data + sizeof *row);
        }
    }
    free(j->data);
    j->data = NULL;
    j->len = j->cap = 0;
}

void judge_job_kill(judge_job *j)
{
    if (j->pid > 0) kill(j->pid, SIGTERM);
    reap(j);
    free(j->data);
    j->data = NULL;
    j->len = j->cap = 0;
}
