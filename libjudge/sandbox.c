/* sandbox.c: start a child process under limits (native backend only).
 *
 * What it promises on Linux, without root: the child and everything it starts
 * share one new process group that is killed as a whole; rlimits cap its CPU
 * time, address space, file size and core dumps; with `confine` a seccomp
 * filter (after no_new_privs) lets it compute, allocate, print and exit, and
 * makes every other system call (open, socket, fork, kill of anyone else, ...)
 * fail with EPERM. It is not a container: the child still runs as the
 * learner's user and can read what a stat(2) shows. On other systems only the
 * rlimits and the process group remain (README, "The native sandbox"). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "native.h"

#ifdef __linux__
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define ARCH_NR AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_NR AUDIT_ARCH_AARCH64
#endif

/* The system calls a computing, allocating, printing program needs; glibc's
 * startup included. Anything absent from a given architecture is skipped. */
static const int allowed[] = {
    SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_close, SYS_fstat,
    SYS_lseek, SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect,
    SYS_madvise, SYS_exit, SYS_exit_group, SYS_rt_sigreturn, SYS_rt_sigaction,
    SYS_rt_sigprocmask, SYS_sigaltstack, SYS_clock_gettime, SYS_clock_getres,
    SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday, SYS_futex,
    SYS_getpid, SYS_gettid, SYS_getrandom, SYS_set_tid_address,
    SYS_set_robust_list, SYS_prlimit64, SYS_getrlimit, SYS_uname,
    SYS_sched_yield, SYS_execve,
#ifdef SYS_newfstatat
    SYS_newfstatat,
#endif
#ifdef SYS_arch_prctl
    SYS_arch_prctl,
#endif
#ifdef SYS_rseq
    SYS_rseq,
#endif
#ifdef SYS_pause
    SYS_pause,
#endif
#ifdef SYS_time
    SYS_time,
#endif
};

#define N_ALLOWED ((int)(sizeof allowed / sizeof allowed[0]))

/* kill and tgkill are allowed only at the child itself (abort() and raise()
 * use them), so it can neither stop the judge nor signal anything else. */
static int confine(pid_t self)
{
#ifdef ARCH_NR
    enum { HEAD = 4, SIGNALS = 8 };
    struct sock_filter f[HEAD + N_ALLOWED + SIGNALS + 1];
    const unsigned nr = offsetof(struct seccomp_data, nr);
    const unsigned arch = offsetof(struct seccomp_data, arch);
    const unsigned arg0 = offsetof(struct seccomp_data, args[0]);
    const unsigned deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    int n = 0;
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arch);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH_NR, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, nr);
    /* Each allowed number jumps to the ALLOW at the very end. */
    const int allow_at = HEAD + N_ALLOWED + SIGNALS;
    for (int i = 0; i < N_ALLOWED; i++, n++)
        f[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                            (unsigned)allowed[i], allow_at - n - 1, 0);
    /* kill(pid, sig) and tgkill(tgid, tid, sig): arg0 must be the child. */
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 2, 0);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deny);
    /* little-endian: the high word of arg0 is 4 bytes in; it must be 0 */
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg0 + 4);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg0);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)self, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deny);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
#else
    (void)self;
    return 0;
#endif
}
#else
static int confine(pid_t self) { (void)self; return 0; }
#endif

static void limit(int resource, rlim_t value)
{
    struct rlimit r = { value, value };
    setrlimit(resource, &r);
}

/* In the child, after fork: anything that fails here ends it with status 127
 * and a line on its stdout, which the judge shows. */
static void child(const judge_spawn *o, int out_fd)
{
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the judge's death ends the run */
#endif
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
        _exit(127);
    if (o->channel >= 0 && dup2(o->channel, 3) < 0) _exit(127);
    int keep = o->channel >= 0 ? 4 : 3;
    for (int fd = keep; fd < 1024; fd++) close(fd);
    if ((o->cwd && chdir(o->cwd)) || (o->tmpdir && setenv("TMPDIR", o->tmpdir, 1))) _exit(127);
    signal(SIGPIPE, SIG_DFL);
    limit(RLIMIT_CPU, (rlim_t)o->cpu_seconds);
    if (o->memory_bytes) limit(RLIMIT_AS, (rlim_t)o->memory_bytes);
    limit(RLIMIT_FSIZE, (rlim_t)o->file_bytes);
    limit(RLIMIT_CORE, 0);
    if (o->confine) {
        limit(RLIMIT_NPROC, 0);   /* ignored for root; seccomp covers that */
        if (confine(getpid())) {
            dprintf(1, "judge: cannot install the sandbox filter: %s\n", strerror(errno));
            _exit(127);
        }
    }
    execvp(o->argv[0], o->argv);
    dprintf(1, "judge: cannot run %s: %s\n", o->argv[0], strerror(errno));
    _exit(127);
}

int judge_child_start(judge_child *c, const judge_spawn *o, char *err, size_t n)
{
    int p[2];
    if (pipe(p)) {
        snprintf(err, n, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, n, "cannot fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        child(o, p[1]);
    }
    setpgid(pid, pid);   /* also here, so a kill right away finds the group */
    close(p[1]);
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    c->pid = pid;
    c->out = p[0];
    return 0;
}

void judge_child_end(judge_child *c, int grace_ms, int *status, long *maxrss_kb)
{
    struct rusage ru;
    pid_t done = 0;
    for (int waited = 0; done == 0 && waited < grace_ms; waited++) {
        done = wait4(c->pid, status, WNOHANG, &ru);
        if (done == 0) usleep(1000);
    }
    kill(-c->pid, SIGKILL);   /* the group: whatever the child started too */
    if (done <= 0) {
        kill(c->pid, SIGKILL);
        while (wait4(c->pid, status, 0, &ru) < 0 && errno == EINTR)
            ;
    }
    *maxrss_kb = ru.ru_maxrss;
    close(c->out);
    c->out = -1;
}
