/* sandbox.c: start a child process under limits (native backend only).
 *
 * What it promises on Linux, without root: the child and everything it starts
 * share one new process group that is killed as a whole; rlimits cap its CPU
 * time, address space, stack, file size and core dumps; with `confine` it
 * gets an empty environment and a seccomp filter (after no_new_privs) lets it
 * compute, allocate, print and exit, checks the arguments of the calls that
 * name a process (itself only), and makes every other system call (open,
 * stat, socket, fork, ptrace, kill of anyone else, ...) fail with EPERM. It is
 * not a container: the child still runs as the learner's user. On other
 * systems only the rlimits and the process group remain (README, "The native
 * sandbox"). */
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
 * startup included. Anything absent from a given architecture is skipped.
 * None takes a path: a path-taking stat (newfstatat, statx) would let the
 * child look through /proc/PID/fd for the judge holding its pipe, so glibc's
 * fstat (newfstatat on fd 1, "", AT_EMPTY_PATH) fails too, and stdio simply
 * picks its default buffer size. */
static const int allowed[] = {
    SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_close, SYS_fstat,
    SYS_lseek, SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect,
    SYS_madvise, SYS_exit, SYS_exit_group, SYS_rt_sigreturn, SYS_rt_sigaction,
    SYS_rt_sigprocmask, SYS_sigaltstack, SYS_clock_gettime, SYS_clock_getres,
    SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday, SYS_futex,
    SYS_getpid, SYS_gettid, SYS_getrandom, SYS_set_tid_address,
    SYS_set_robust_list, SYS_getrlimit, SYS_uname,
    SYS_sched_yield, SYS_execve,
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

/* The filter is written with symbolic jump targets, resolved once it is
 * complete (classic BPF jumps are forward offsets of at most 255). Room for
 * the list and the 22 instructions confine() adds to it. */
enum { TO_NEXT, TO_ALLOW, TO_DENY, TO_KILL, TO_SELF, TO_READ_LIMIT, N_TARGETS };

typedef struct {
    struct sock_filter f[N_ALLOWED + 32];
    unsigned char jt[N_ALLOWED + 32], jf[N_ALLOWED + 32];   /* TO_* of each jump */
    int at[N_TARGETS];
    int n;
} filter;

static void emit(filter *p, struct sock_filter op, int jt, int jf)
{
    p->jt[p->n] = (unsigned char)jt;
    p->jf[p->n] = (unsigned char)jf;
    p->f[p->n++] = op;
}
static void load(filter *p, unsigned offset)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset), TO_NEXT, TO_NEXT);
}
static void jump_if(filter *p, unsigned value, int yes, int no)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 0), yes, no);
}
static void ret(filter *p, unsigned action)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action), TO_NEXT, TO_NEXT);
}
static int resolve(filter *p)
{
    for (int i = 0; i < p->n; i++) {
        if (BPF_CLASS(p->f[i].code) != BPF_JMP) continue;
        int t = p->at[p->jt[i]] - i - 1, e = p->at[p->jf[i]] - i - 1;
        if (p->jt[i] == TO_NEXT) t = 0;
        if (p->jf[i] == TO_NEXT) e = 0;
        if (t < 0 || t > 255 || e < 0 || e > 255) return -1;
        p->f[i].jt = (unsigned char)t;
        p->f[i].jf = (unsigned char)e;
    }
    return 0;
}

/* Arguments are 64-bit; on these little-endian machines the high word is 4
 * bytes in. A pid argument must be exactly `value`, high word 0. */
static void arg_is(filter *p, int i, unsigned value, int yes, int no)
{
    load(p, (unsigned)offsetof(struct seccomp_data, args[i]) + 4);
    jump_if(p, 0, TO_NEXT, no);
    load(p, (unsigned)offsetof(struct seccomp_data, args[i]));
    jump_if(p, value, yes, no);
}

/* Beyond the list: kill, tkill and tgkill only at the child itself (abort()
 * and raise() use them), so it can neither stop the judge nor signal anything
 * else; prlimit64 only to read its own limits (pid 0 or its own, no new
 * value: glibc reads RLIMIT_STACK), so it can neither lower the limits of the
 * judge or of a neighbour judged in parallel nor raise its own (as root it
 * could). Everything else (open, stat, socket, fork, ptrace,
 * process_vm_readv, pidfd_open, setrlimit, ...) fails with EPERM. */
static int confine(pid_t self)
{
#ifdef ARCH_NR
    filter p = { .n = 0 };
    const unsigned deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    load(&p, offsetof(struct seccomp_data, arch));
    jump_if(&p, ARCH_NR, TO_NEXT, TO_KILL);
    load(&p, offsetof(struct seccomp_data, nr));
    for (int i = 0; i < N_ALLOWED; i++) jump_if(&p, (unsigned)allowed[i], TO_ALLOW, TO_NEXT);
    jump_if(&p, SYS_kill, TO_SELF, TO_NEXT);
    jump_if(&p, SYS_tgkill, TO_SELF, TO_NEXT);
    jump_if(&p, SYS_tkill, TO_SELF, TO_NEXT);
    jump_if(&p, SYS_prlimit64, TO_READ_LIMIT, TO_DENY);
    p.at[TO_READ_LIMIT] = p.n;
    arg_is(&p, 2, 0, TO_NEXT, TO_DENY);   /* new limit: NULL */
    arg_is(&p, 0, 0, TO_ALLOW, TO_NEXT);
    p.at[TO_SELF] = p.n;
    arg_is(&p, 0, (unsigned)self, TO_ALLOW, TO_DENY);
    p.at[TO_DENY] = p.n;
    ret(&p, deny);
    p.at[TO_ALLOW] = p.n;
    ret(&p, SECCOMP_RET_ALLOW);
    p.at[TO_KILL] = p.n;   /* another architecture's numbers mean other calls */
    ret(&p, SECCOMP_RET_KILL_PROCESS);
    if (resolve(&p)) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog prog = { .len = (unsigned short)p.n, .filter = p.f };
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

/* Landlock (Linux 5.13 on): the compiler may read and run files only beneath
 * o->readable and write only in its temp folder, so neither `#include` nor the
 * assembler's `.incbin` can pull the grader's files into a program that then
 * prints them. Only the rights of Landlock's first version are handled, so
 * any kernel that has it applies the same rules; one without it (ENOSYS,
 * EOPNOTSUPP) leaves the compiler unrestricted, as the README says. */
#if defined(__linux__) && defined(SYS_landlock_create_ruleset)
#include <linux/landlock.h>
#include <sys/stat.h>

enum {
    FS_FILE = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
              LANDLOCK_ACCESS_FS_WRITE_FILE,
    FS_READ = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |
              LANDLOCK_ACCESS_FS_READ_DIR,
    FS_ALL = FS_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
             LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
             LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
             LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
             LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM,
};

/* A path that does not exist on this system grants nothing and is fine. */
static int allow_beneath(int ruleset, const char *path, unsigned long long access)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : -1;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) access &= FS_FILE;   /* a file's rights */
    struct landlock_path_beneath_attr rule = { .allowed_access = access, .parent_fd = fd };
    int r = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(fd);
    return r;
}

static int restrict_files(const judge_spawn *o)
{
    struct landlock_ruleset_attr attr = { .handled_access_fs = FS_ALL };
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return errno == ENOSYS || errno == EOPNOTSUPP ? 0 : -1;
    int failed = 0;
    for (const char *const *p = o->readable; *p && !failed; p++)
        failed = allow_beneath(ruleset, *p, FS_READ) != 0;
    if (!failed) failed = allow_beneath(ruleset, o->tmpdir, FS_ALL) ||
                          allow_beneath(ruleset, "/dev/null", FS_FILE) ||
                          prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
                          syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return failed ? -1 : 0;
}
#else
static int restrict_files(const judge_spawn *o) { (void)o; return 0; }
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
    /* A confined program gets no environment of the judge's: a grader's or
     * CI's secrets must not be one printf away from the report. */
    if (o->confine) clearenv();
    if ((o->cwd && chdir(o->cwd)) || (o->tmpdir && setenv("TMPDIR", o->tmpdir, 1))) _exit(127);
    signal(SIGPIPE, SIG_DFL);
    limit(RLIMIT_CPU, (rlim_t)o->cpu_seconds);
    if (o->memory_bytes) limit(RLIMIT_AS, (rlim_t)o->memory_bytes);
    if (o->stack_bytes) limit(RLIMIT_STACK, (rlim_t)o->stack_bytes);
    limit(RLIMIT_FSIZE, (rlim_t)o->file_bytes);
    limit(RLIMIT_CORE, 0);
    if (o->readable && o->tmpdir && restrict_files(o)) {
        dprintf(1, "judge: cannot restrict the files the compiler sees: %s\n", strerror(errno));
        _exit(127);
    }
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
    for (int waited = 0; done == 0 && waited < grace_ms && !judge_stop; waited++) {
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
