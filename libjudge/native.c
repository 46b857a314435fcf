/* native.c: judge a learner's file natively. Compile it with the system C
 * compiler under limits, link it with runner.c into a program of its own, run
 * that program in the sandbox (sandbox.c) and carry requests, replies and
 * faults between it and the session (judge.c). Leaves no files behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "native.h"
#ifdef __linux__
#include <elf.h>
#endif

/* A child that died must not kill the judge with SIGPIPE: Linux says so per
 * send(), macOS per socket (SO_NOSIGPIPE, set where the socket is made). */
#ifdef MSG_NOSIGNAL
#define NO_SIGPIPE MSG_NOSIGNAL
#else
#define NO_SIGPIPE 0
#endif

enum {
    COMPILE_SECONDS = 10,        /* CPU and wall time for each compiler run */
    STARTUP_MS = 2000,           /* exec + the learner's constructors */
    DIAGNOSTICS_MAX = 64 << 10,  /* compiler output kept */
    RUNNER_SLACK_MB = 8,         /* the runner's code, stack and heap beyond the buffers */
};

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

volatile sig_atomic_t judge_native_stop;

/* ---- captured output, kept up to a cap ---- */
typedef struct {
    char *data;
    size_t len, cap;
    int over;        /* more arrived than the cap */
} capture;

/* data has cap + 1 bytes and stays NUL-terminated. */
static void capture_add(capture *c, const char *p, size_t n)
{
    size_t room = c->cap - c->len;
    if (n > room) {
        c->over = 1;
        n = room;
    }
    memcpy(c->data + c->len, p, n);
    c->len += n;
    c->data[c->len] = 0;
}

/* ---- the temp folder ---- */

/* dir/name into buf; the judge's own folder names are short, so truncation
 * only ever means a TMPDIR longer than any path. */
static char *join(char *buf, size_t n, const char *dir, const char *name)
{
    if (snprintf(buf, n, "%s/%s", dir, name) >= (int)n) buf[0] = 0;
    return buf;
}
static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        unlink(join(path, sizeof path, dir, e->d_name));
    }
    closedir(d);
    rmdir(dir);
}

static int write_file(const char *dir, const char *name, const char *a, const char *b)
{
    char path[4096];
    FILE *f = fopen(join(path, sizeof path, dir, name), "w");
    if (!f) return -1;
    fputs(a, f);
    if (b) fputs(b, f);
    return fclose(f);
}

/* ---- the compiler ---- */

/* Run one compiler command under limits; 0 when it succeeded. */
static int run_compiler(char *const *argv, const char *dir, capture *diag,
                        char *err, size_t n)
{
    judge_spawn o = { .argv = argv, .cwd = NULL, .tmpdir = dir, .cpu_seconds = COMPILE_SECONDS,
                      .memory_bytes = (size_t)2 << 30, .file_bytes = (size_t)64 << 20,
                      .confine = 0, .channel = -1 };
    judge_child c;
    if (judge_child_start(&c, &o, err, n)) return -1;
    long long deadline = now_ms() + COMPILE_SECONDS * 1000;
    char buf[4096];
    int timed_out = 0;
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0 || judge_native_stop) { timed_out = 1; break; }
        struct pollfd p = { c.out, POLLIN, 0 };
        if (poll(&p, 1, (int)left) <= 0) continue;
        ssize_t r = read(c.out, buf, sizeof buf);
        if (r <= 0) break;
        capture_add(diag, buf, (size_t)r);
    }
    int status;
    long rss;
    judge_child_end(&c, timed_out ? 0 : COMPILE_SECONDS * 1000, &status, &rss);
    if (judge_native_stop) {
        snprintf(err, n, "interrupted");
        return -1;
    }
    const char *why = NULL;
    char line[160];
    if (timed_out)
        why = "judge: the compiler ran out of time (a huge #include or a macro bomb?)\n";
    else if (WIFSIGNALED(status)) {
        snprintf(line, sizeof line, "judge: the compiler was killed by signal %d "
                 "(out of memory or time?)\n", WTERMSIG(status));
        why = line;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && strstr(diag->data, "judge: cannot run")) {
        snprintf(err, n, "cannot run the C compiler '%s': install one (cc, gcc or clang) "
                 "or set JUDGE_CC", argv[0]);
        return -1;
    }
    if (why) capture_add(diag, why, strlen(why));
    return timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* Explain the two link errors a learner meets, in the judge's words. */
static void explain_link_error(capture *diag, const judge_meta *m)
{
    char line[256];
    if (strstr(diag->data, "undefined reference") || strstr(diag->data, "Undefined symbols")) {
        snprintf(line, sizeof line, "judge: the file must define the function %s "
                 "(exactly that name, as declared in the starter)\n", m->function);
        capture_add(diag, line, strlen(line));
    }
    if (strstr(diag->data, "multiple definition of `main'") || strstr(diag->data, "duplicate symbol _main")) {
        snprintf(line, sizeof line, "judge: remove main(): a submission defines only %s; "
                 "the judge calls it\n", m->function);
        capture_add(diag, line, strlen(line));
    }
}

static int compile(const judge_meta *m, const char *file, const char *dir,
                   const judge_native_opts *o, capture *diag, char *err, size_t n)
{
    char proto[4096], harness[4096], obj[4096], exe[4096];
    join(proto, sizeof proto, dir, "judge_proto.h");
    join(harness, sizeof harness, dir, "runner.c");
    join(obj, sizeof obj, dir, "submission.o");
    join(exe, sizeof exe, dir, "run");
    if (write_file(dir, "judge_proto.h", m->prototype, NULL) ||
        write_file(dir, "runner.c", judge_runner_source, m->invoke)) {
        snprintf(err, n, "cannot write to %s: %s", dir, strerror(errno));
        return -1;
    }
    char *cc = (char *)o->cc;
    char *color = o->color ? "-fdiagnostics-color=always" : "-fdiagnostics-color=never";
    /* The prototype is force-included, so a different signature is an error;
     * -Wall, because its warnings point at real learner bugs. */
    char *cc1[] = { cc, "-O2", "-Wall", color, "-include", proto, "-c", (char *)file,
                    "-o", obj, NULL };
    int r = run_compiler(cc1, dir, diag, err, n);
    if (r) return r;
    /* Linux: a static runner can be confined before execve (sandbox.c), and
     * --wrap turns a failed malloc into MLE rather than a crash on NULL. */
    char *cc2[] = { cc, "-O2", color, "-o", exe, harness, obj, "-lm",
#ifdef __linux__
                    "-static", "-DJUDGE_WRAP_MALLOC",
                    "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc",
#endif
                    NULL };
    r = run_compiler(cc2, dir, diag, err, n);
    if (r > 0) explain_link_error(diag, m);
    return r;
}

/* The memory the program's segments take once loaded (code, data and the
 * zeroed bss of static arrays), or 0 when unknown. A static array larger than
 * the limit would kill the program before its first instruction, so the judge
 * tells that apart from a crash by looking first. */
static size_t static_bytes(const char *exe)
{
    size_t total = 0;
#ifdef __linux__
    FILE *f = fopen(exe, "rb");
    if (!f) return 0;
    Elf64_Ehdr eh;
    if (fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
        for (int i = 0; i < eh.e_phnum; i++) {
            Elf64_Phdr ph;
            if (fseek(f, (long)(eh.e_phoff + (size_t)i * sizeof ph), SEEK_SET) ||
                fread(&ph, sizeof ph, 1, f) != 1)
                break;
            if (ph.p_type == PT_LOAD) total += ph.p_memsz;
        }
    }
    fclose(f);
#else
    (void)exe;
#endif
    return total;
}

/* ---- the run ---- */
typedef struct {
    judge_child child;
    int chan;            /* our end of the socket on the child's fd 3 */
    capture out;         /* what the learner printed */
    long long deadline;  /* ms, CLOCK_MONOTONIC */
} run;

enum { PUMP_DONE, PUMP_TIME, PUMP_CLOSED, PUMP_FLOOD, PUMP_STOP };

/* Write wlen bytes to the child and/or read rlen bytes from it before the
 * deadline, draining its output all the while (so neither side can block the
 * other on a full pipe). */
static int pump(run *r, const unsigned char *w, size_t wlen, unsigned char *rd, size_t rlen)
{
    while (wlen > 0 || rlen > 0) {
        if (judge_native_stop) return PUMP_STOP;
        long long left = r->deadline - now_ms();
        if (left <= 0) return PUMP_TIME;
        struct pollfd p[2] = {
            { r->chan, (short)((wlen ? POLLOUT : 0) | (rlen ? POLLIN : 0)), 0 },
            { r->child.out, POLLIN, 0 },
        };
        int nfds = r->child.out >= 0 ? 2 : 1;
        if (poll(p, (nfds_t)nfds, (int)left) <= 0) continue;
        if (nfds == 2 && p[1].revents) {
            char buf[4096];
            ssize_t got = read(r->child.out, buf, sizeof buf);
            if (got > 0) {
                capture_add(&r->out, buf, (size_t)got);
                if (r->out.over) return PUMP_FLOOD;
            } else if (got == 0) {
                close(r->child.out);
                r->child.out = -1;
            }
        }
        if (p[0].revents & (POLLERR | POLLNVAL)) return PUMP_CLOSED;
        if (wlen && (p[0].revents & POLLOUT)) {
            ssize_t s = send(r->chan, w, wlen, NO_SIGPIPE | MSG_DONTWAIT);
            if (s < 0 && errno != EAGAIN) return PUMP_CLOSED;
            if (s > 0) { w += s; wlen -= (size_t)s; }
        }
        if (rlen && (p[0].revents & (POLLIN | POLLHUP))) {
            ssize_t g = recv(r->chan, rd, rlen, MSG_DONTWAIT);
            if (g == 0 || (g < 0 && errno != EAGAIN)) return PUMP_CLOSED;
            if (g > 0) { rd += g; rlen -= (size_t)g; }
        }
    }
    return PUMP_DONE;
}

/* What a signal means for a learner, and its name ("SIGSEGV"). */
static const char *signal_story(int sig, const char **name)
{
    *name = "a signal";
    switch (sig) {
#define NAMED(s) case s: *name = #s;
    NAMED(SIGSEGV) return "segmentation fault: memory the program does not own was read or "
                         "written (a bad index, a NULL pointer, or a stack overflow)";
    NAMED(SIGBUS) return "bus error: a misaligned or unmapped memory access";
    NAMED(SIGFPE) return "arithmetic exception (an integer division by zero?)";
    NAMED(SIGABRT) return "abort() was called (a failed assert, or the C library found the heap "
                         "corrupted by an out-of-bounds write)";
    NAMED(SIGILL) return "illegal instruction (undefined behaviour reached, e.g. a function "
                        "that should return a value fell off its end)";
    NAMED(SIGXFSZ) return "tried to write a file, which submissions may not do";
    NAMED(SIGSYS) return "made a system call the sandbox forbids";
    NAMED(SIGKILL) return "killed";
    NAMED(SIGTERM) return "terminated";
    NAMED(SIGTRAP) return "trace trap (__builtin_trap() reached?)";
#undef NAMED
    default: return strsignal(sig);
    }
}

/* The child is gone or must go: end it and record a fault on call k. With
 * detail NULL the verdict comes from how the child ended; otherwise it is
 * `verdict` (TLE, OLE, MLE) for the reason given. */
static void end_with_fault(run *r, judge_session *s, const judge_meta *m, int k,
                           int started, judge_verdict verdict, const char *detail)
{
    int status;
    long rss_kb;
    if (verdict != JUDGE_OLE) {   /* keep its last words: a message, a partial line */
        while (r->child.out >= 0 && !r->out.over) {
            char buf[4096];
            struct pollfd p = { r->child.out, POLLIN, 0 };
            if (poll(&p, 1, 200) <= 0) break;
            ssize_t got = read(r->child.out, buf, sizeof buf);
            if (got <= 0) break;
            capture_add(&r->out, buf, (size_t)got);
        }
    }
    judge_child_end(&r->child, detail ? 0 : 500, &status, &rss_kb);
    char why[512];
    const char *when = started ? "" : " before the first call (in a constructor?)";
    if (detail) {
        snprintf(why, sizeof why, "%s", detail);
    } else if (rss_kb > (long)m->memory_mb * 1024) {
        verdict = JUDGE_MLE;
        snprintf(why, sizeof why, "used %ld MiB, over the %d MiB limit", rss_kb / 1024, m->memory_mb);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
        verdict = JUDGE_TLE;
        snprintf(why, sizeof why, "used up its CPU time");
    } else if (WIFSIGNALED(status)) {
        verdict = JUDGE_RE;
        const char *name, *story = signal_story(WTERMSIG(status), &name);
        snprintf(why, sizeof why, "%s (%s)%s", story, name, when);
    } else {
        verdict = JUDGE_RE;
        snprintf(why, sizeof why, "the program exited with status %d%s instead of returning "
                 "from %s (exit() and abort() end the whole run)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, when, m->function);
    }
    judge_session_fault(s, k, verdict, why);
}

/* The runner holds one call's buffers at a time, as large as its request.
 * Counting them exactly (not a fixed allowance) keeps the learner's own share
 * near memory_mb, so a problem with a small limit (55: no T x S scores) can
 * rely on it. */
static size_t largest_request(judge_session *s)
{
    size_t most = 0;
    for (int k = 0; k < judge_session_calls(s); k++) {
        const unsigned char *req;
        size_t len;
        if (judge_session_request(s, k, &req, &len) == JUDGE_OK && len > most) most = len;
    }
    return most;
}

static int run_calls(judge_session *s, const judge_meta *m, const char *dir,
                     char *err, size_t n)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        snprintf(err, n, "cannot create a socket pair: %s", strerror(errno));
        return -1;
    }
    fcntl(sv[0], F_SETFD, FD_CLOEXEC);
    fcntl(sv[1], F_SETFD, FD_CLOEXEC);   /* the child's dup2 onto fd 3 clears it */
#ifdef SO_NOSIGPIPE
    setsockopt(sv[0], SOL_SOCKET, SO_NOSIGPIPE, &(int){ 1 }, sizeof(int));
#endif
    char exe[4096];
    char *argv[] = { join(exe, sizeof exe, dir, "run"), NULL };
    size_t need = static_bytes(exe);
    if (need > (size_t)m->memory_mb << 20) {
        char why[200];
        snprintf(why, sizeof why, "the program's static arrays and code need %zu MiB before it "
                 "starts, over the %d MiB limit", need >> 20, m->memory_mb);
        judge_session_fault(s, 0, JUDGE_MLE, why);
        close(sv[0]);
        close(sv[1]);
        return 0;
    }
    judge_spawn o = { .argv = argv, .cwd = dir, .tmpdir = dir,
                      .cpu_seconds = (m->time_ms + 999) / 1000 + 1,
                      .memory_bytes = (((size_t)m->memory_mb + RUNNER_SLACK_MB) << 20) +
                                      largest_request(s),
                      .file_bytes = 0, .confine = 1, .channel = sv[1] };
    run r = { .chan = sv[0] };
    size_t cap = (size_t)m->output_kb << 10;
    r.out.data = malloc(cap + 1);
    r.out.cap = cap;
    if (!r.out.data || judge_child_start(&r.child, &o, err, n)) {
        if (r.out.data) free(r.out.data);
        else snprintf(err, n, "out of memory");
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    close(sv[1]);
    unsigned char *reply = NULL;
    int k = 0, calls = judge_session_calls(s), started = 0;
    uint32_t hello = 0;
    r.deadline = now_ms() + STARTUP_MS;
    int got = pump(&r, NULL, 0, (unsigned char *)&hello, sizeof hello);
    if (got == PUMP_DONE && hello != JUDGE_WIRE_HELLO) got = PUMP_CLOSED;
    r.deadline = now_ms() + m->time_ms;
    for (; got == PUMP_DONE && k < calls; k++) {
        const unsigned char *req;
        size_t req_len, len = judge_session_reply_len(s, k);
        judge_session_request(s, k, &req, &req_len);
        started = 1;
        free(reply);
        reply = malloc(len);
        if (!reply) { got = PUMP_CLOSED; break; }
        got = pump(&r, req, req_len, reply, 16);
        if (got != PUMP_DONE) break;
        uint32_t magic;
        memcpy(&magic, reply, 4);
        if (magic == JUDGE_WIRE_OUT_OF_MEMORY) {   /* an allocation failed */
            uint64_t bytes;
            memcpy(&bytes, reply + 8, 8);
            char why[160];
            snprintf(why, sizeof why, "an allocation of %llu bytes failed: the limit is %d MiB",
                     (unsigned long long)bytes, m->memory_mb);
            end_with_fault(&r, s, m, k, 1, JUDGE_MLE, why);
            break;
        }
        got = pump(&r, NULL, 0, reply + 16, len - 16);
        if (got == PUMP_DONE) judge_session_reply(s, k, reply, len);
    }
    free(reply);
    if (got == PUMP_STOP) {
        snprintf(err, n, "interrupted");
        judge_child_end(&r.child, 0, &(int){ 0 }, &(long){ 0 });
        free(r.out.data);
        close(r.chan);
        return -1;
    }
    if (k < calls && got == PUMP_TIME) {
        char why[160];
        snprintf(why, sizeof why, started ? "still running after %d ms (all calls together)"
                 : "did not start within %d ms (a constructor that never returns?)",
                 started ? m->time_ms : STARTUP_MS);
        end_with_fault(&r, s, m, k, started, JUDGE_TLE, why);
    } else if (k < calls && got == PUMP_FLOOD) {
        char why[160];
        snprintf(why, sizeof why, "printed more than %d KiB", m->output_kb);
        end_with_fault(&r, s, m, k, started, JUDGE_OLE, why);
    } else if (k < calls && got == PUMP_CLOSED) {
        end_with_fault(&r, s, m, k, started, JUDGE_RE, NULL);
    } else if (k == calls) {
        /* All answered: let the runner see the end and go, keeping its last words. */
        shutdown(r.chan, SHUT_WR);
        r.deadline = now_ms() + 500;
        unsigned char more;
        if (pump(&r, NULL, 0, &more, 1) == PUMP_FLOOD) {
            char why[160];
            snprintf(why, sizeof why, "printed more than %d KiB", m->output_kb);
            judge_session_fault(s, calls - 1, JUDGE_OLE, why);
        }
        int status;
        long rss;
        judge_child_end(&r.child, 500, &status, &rss);
    }
    if (r.child.out >= 0) {
        int status;
        long rss;
        judge_child_end(&r.child, 0, &status, &rss);
    }
    judge_session_output(s, r.out.data, r.out.len);
    free(r.out.data);
    close(r.chan);
    return 0;
}

int judge_native_judge(judge_session *s, const judge_meta *m, const char *file,
                       const judge_native_opts *o, char *err, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(err, n, "cannot create a temporary folder in %s: %s",
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return -1;
    }
    capture diag = { .data = malloc(DIAGNOSTICS_MAX + 1), .cap = DIAGNOSTICS_MAX };
    int rc = -1;
    if (!diag.data) {
        snprintf(err, n, "out of memory");
        goto done;
    }
    diag.data[0] = 0;
    int c = compile(m, file, dir, o, &diag, err, n);
    if (c < 0) goto done;
    judge_session_compiled(s, c == 0, diag.data);
    rc = c == 0 ? run_calls(s, m, dir, err, n) : 0;
done:
    free(diag.data);
    remove_tree(dir);
    return rc;
}
