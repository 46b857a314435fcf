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
 * judge_native_stop is set), then kill its whole process group and reap it.
 * *status as from wait; *maxrss_kb its peak memory. Closes c->out. */
void judge_child_end(judge_child *c, int grace_ms, int *status, long *maxrss_kb);

/* ---- native.c ---- */
typedef struct {
    const char *cc;         /* C compiler, "cc" unless $JUDGE_CC says otherwise */
    int color;              /* ask the compiler for coloured diagnostics */
} judge_native_opts;

/* Set (by the caller's signal handler, say on Ctrl-C) to end a judging run
 * at once, wherever it waits (compiler, link, run, output): the child is
 * killed, the temp folder removed, and judge_native_judge returns -1 with
 * "interrupted". No wait lasts longer than 50 ms between looks at it. */
#include <signal.h>
extern volatile sig_atomic_t judge_native_stop;

/* Compile `file` and run every call of the session. Learner faults become
 * verdicts in the session; only a fault of the judge's own (no compiler, no
 * temp dir) returns -1, with a message in err. Leaves no files behind. */
int judge_native_judge(judge_session *s, const judge_meta *m, const char *file,
                       const judge_native_opts *o, char *err, size_t n);

#endif
