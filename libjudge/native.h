/* native.h: running a judge session natively (the CLI's backend).
 * Compiles the learner's file with the system C compiler and runs it in a
 * sandboxed child process (sandbox.c); the judging itself is judge.c's. */
#ifndef JUDGE_NATIVE_H
#define JUDGE_NATIVE_H

#include <stddef.h>
#include <sys/types.h>
#include "judge.h"

/* ---- sandbox.c: a child process under limits ---- */
typedef struct {
    char *const *argv;      /* argv[0] is looked up in PATH */
    const char *cwd;        /* where the child starts, or NULL for here */
    const char *tmpdir;     /* its TMPDIR: where a compiler leaves temp files */
    int cpu_seconds;        /* RLIMIT_CPU */
    size_t memory_bytes;    /* RLIMIT_AS; 0 for none */
    size_t stack_bytes;     /* RLIMIT_STACK; 0 to keep the judge's */
    size_t file_bytes;      /* RLIMIT_FSIZE: largest file it may write */
    int confine;            /* seccomp: no files, network, processes, signals to others */
    const char *const *readable;  /* Landlock: read and run only beneath these (NULL-ended),
                                     write only in tmpdir; NULL for no such rule */
    int channel;            /* a socket placed on the child's fd 3, or -1 */
} judge_spawn;

typedef struct {
    pid_t pid;              /* also the child's process group */
    int out;                /* read end of the child's stdout + stderr */
} judge_child;

/* Start the child; on failure returns -1 with a message in err. */
int judge_child_start(judge_child *c, const judge_spawn *o, char *err, size_t n);
/* Give the child up to grace_ms to exit by itself (no time at all once
 * judge_stop is set), then kill its whole process group and reap it.
 * *status as from wait; *maxrss_kb its peak memory. Closes c->out. */
void judge_child_end(judge_child *c, int grace_ms, int *status, long *maxrss_kb);

/* ---- native.c ---- */
typedef struct {
    const char *cc;         /* C compiler, "cc" unless $JUDGE_CC says otherwise */
    int color;              /* ask the compiler for coloured diagnostics */
} judge_native_opts;

/* judge_stop (judge.h), set by the caller's signal handler (say on
 * Ctrl-C), ends a judging run at once, wherever it waits (compiler, link,
 * run, output, the mistake search): the child is killed, the temp folder
 * removed, and judge_native_judge returns -1 with "interrupted". No wait
 * lasts longer than 50 ms between looks at it; the search looks between
 * two simulations (a fraction of a second on the largest cases). */

/* Compile `file` and run every call of the session. Learner faults become
 * verdicts in the session; only a fault of the judge's own (no compiler, no
 * temp dir) returns -1, with a message in err. Leaves no files behind. */
int judge_native_judge(judge_session *s, const judge_meta *m, const char *file,
                       const judge_native_opts *o, char *err, size_t n);

/* ---- jobs.c: one file judged in a worker process of its own ----
 * So that a class is judged N files at a time, each in its own sandbox (the
 * worker's children), and a watched file's run can be dropped the moment
 * the file is saved again: the worker judges, sends back its row
 * (judge_class_row) and one report, and exits; killing it (SIGTERM) ends its
 * run cleanly (judge_stop), leaving nothing behind. */
typedef struct {
    const judge_meta *m;
    unsigned long long seed;
    judge_lang lang;
    judge_native_opts opts;
    int json;               /* the report sent back: JSON (1) or text (0) */
    /* A session of m and seed made once, never judged, that each worker
     * copies (judge_session_copy) instead of running the reference on every
     * case again; NULL: each makes its own. */
    const judge_session *blank;
} judge_job_spec;

typedef struct {
    pid_t pid;              /* the worker, 0 when none */
    int fd;                 /* the read end of what it sends */
    char *data;             /* what it sent so far */
    size_t len, cap;
    judge_lang lang;        /* the spec's, for a row the worker never sent */
} judge_job;

/* Start judging `file` in a worker; -1 with a message in err if it cannot. */
int judge_job_start(judge_job *j, const judge_job_spec *spec, const char *file, char *err, size_t n);
/* Read what the worker has sent: 1 once it has sent everything, else 0. */
int judge_job_read(judge_job *j);
/* Reap the worker and take its row and its report (malloc'd, the caller
 * frees it; NULL when none). A worker that ended without a row gives a row
 * not judged (verdict -1) saying so. */
void judge_job_finish(judge_job *j, judge_class_row *row, char **report);
/* End the worker's run now (its temp files go with it) and reap it. */
void judge_job_kill(judge_job *j);

#endif
