/* native.c: judge a learner's file natively. Compile it with the system C
 * compiler under limits, link it with runner.c into a program of its own, run
 * that program in the sandbox (sandbox.c) and carry requests, replies and
 * faults between it and the session (judge.c). Leaves no files behind. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
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
    STACK_MB = 8,                /* the run's RLIMIT_STACK, whatever the judge's shell had */
    STACK_SLACK_KB = 1024,       /* above main: environment, arguments, the runner's frame */
    LAST_WORDS_MS = 300,         /* output still read after a fault, however it trickles */
    STOP_CHECK_MS = 50,          /* longest sleep between looks at judge_stop */
};

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* poll() for at most `left` ms, but in slices: a signal that lands just
 * before poll() starts sets judge_stop without waking it. */
static int poll_slice(struct pollfd *p, int nfds, long long left)
{
    return poll(p, (nfds_t)nfds, (int)(left < STOP_CHECK_MS ? left : STOP_CHECK_MS));
}

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

/* Every `from` in the capture becomes `to`, within the same cap: the compiler
 * names the file by the absolute path it was given, the learner knows it by
 * the path they typed. Left as it is when memory runs out. */
static void capture_rename(capture *c, const char *from, const char *to)
{
    size_t from_len = strlen(from), to_len = strlen(to);
    char *old = malloc(c->len + 1);
    if (!old || !from_len) {
        free(old);
        return;
    }
    memcpy(old, c->data, c->len + 1);
    c->len = 0;
    c->data[0] = 0;
    for (const char *p = old; *p;) {
        const char *hit = strstr(p, from);
        size_t keep = hit ? (size_t)(hit - p) : strlen(p);
        capture_add(c, p, keep);
        if (!hit) break;
        capture_add(c, to, to_len);
        p = hit + from_len;
    }
    free(old);
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

/* One line of the judge's own among the compiler's, in the learner's
 * language: "judge: " and message msg of messages.json. */
static void judge_says(capture *diag, judge_lang lang, judge_msg msg, ...)
{
    char line[512];
    int at = snprintf(line, sizeof line, "judge: ");
    va_list ap;
    va_start(ap, msg);
    vsnprintf(line + at, sizeof line - (size_t)at - 1, judge_msg_text(msg, lang), ap);
    va_end(ap);
    strcat(line, "\n");
    capture_add(diag, line, strlen(line));
}

/* The largest file a compile may write (an object, an assembler's temporary). */
enum { COMPILE_FILE_MIB = 64 };

/* Run one compiler command under limits, in the temp folder (its working
 * folder and its TMPDIR); 0 when it succeeded. */
static int run_compiler(char *const *argv, const char *dir, const char *const *readable,
                        judge_lang lang, capture *diag, char *err, size_t n)
{
    judge_spawn o = { .argv = argv, .cwd = dir, .tmpdir = dir, .cpu_seconds = COMPILE_SECONDS,
                      .memory_bytes = (size_t)2 << 30, .file_bytes = (size_t)COMPILE_FILE_MIB << 20,
                      .confine = 0, .channel = -1, .readable = readable };
    judge_child c;
    if (judge_child_start(&c, &o, err, n)) return -1;
    long long deadline = now_ms() + COMPILE_SECONDS * 1000;
    char buf[4096];
    int timed_out = 0;
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0 || judge_stop) { timed_out = 1; break; }
        struct pollfd p = { c.out, POLLIN, 0 };
        if (poll_slice(&p, 1, left) <= 0) continue;
        ssize_t r = read(c.out, buf, sizeof buf);
        if (r <= 0) break;
        capture_add(diag, buf, (size_t)r);
    }
    int status;
    long rss;
    long long left = deadline - now_ms();   /* its output closed: what remains of its time */
    judge_child_end(&c, timed_out || left < 0 ? 0 : (int)left, &status, &rss);
    if (judge_stop) {
        snprintf(err, n, "interrupted");
        return -1;
    }
    if (timed_out)
        judge_says(diag, lang, JUDGE_MSG_COMPILE_OUT_OF_TIME);
    else if ((WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ) || strstr(diag->data, "File size limit exceeded"))
        judge_says(diag, lang, JUDGE_MSG_COMPILE_FILE_TOO_BIG, COMPILE_FILE_MIB);   /* gcc: as's, as an ICE */
    else if (WIFSIGNALED(status))
        judge_says(diag, lang, JUDGE_MSG_COMPILE_KILLED, WTERMSIG(status));
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && strstr(diag->data, "judge: cannot ")) {
        /* The child never became the compiler (sandbox.c's last line says
         * why): the judge's fault or its setup's, never the learner's CE. */
        if (strstr(diag->data, "judge: cannot run "))
            snprintf(err, n, judge_msg_text(JUDGE_MSG_CLI_NO_COMPILER, lang), argv[0]);
        else {
            const char *why = strstr(diag->data, "judge: cannot ") + 7;
            snprintf(err, n, "%.*s", (int)strcspn(why, "\n"), why);
        }
        return -1;
    }
    return timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* The first few symbols a link error says are undefined, as GNU ld
 * ("undefined reference to `f'"), lld ("undefined symbol: f") and Apple's ld
 * ("\"_f\", referenced from") write them, each once; their count. */
enum { MAX_UNDEFINED = 4, SYMBOL_CHARS = 64 };
static int undefined_symbols(const char *text, char names[MAX_UNDEFINED][SYMBOL_CHARS])
{
    static const struct { const char *before, *end; } forms[] = {
        { "undefined reference to `", "'" }, { "undefined symbol: ", " \n" }, { "\"_", "\"" },
    };
    int n = 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (const char *p = text; n < MAX_UNDEFINED && (p = strstr(p, forms[f].before)); ) {
            p += strlen(forms[f].before);
            size_t len = strcspn(p, forms[f].end);
            if (f == 2 && strncmp(p + len, "\", referenced from", 17)) continue;
            if (!len || len >= SYMBOL_CHARS) continue;
            int seen = 0;
            for (int i = 0; i < n; i++) seen |= strlen(names[i]) == len && !strncmp(names[i], p, len);
            if (!seen) snprintf(names[n++], SYMBOL_CHARS, "%.*s", (int)len, p);
        }
    return n;
}

/* Explain the link errors a learner meets, in the judge's words: the
 * problem's function not defined, another function used but defined
 * nowhere (a misspelt helper), a main of their own. */
static void explain_link_error(capture *diag, const judge_meta *m, judge_lang lang)
{
    char names[MAX_UNDEFINED][SYMBOL_CHARS];
    int n = undefined_symbols(diag->data, names);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], m->function)) judge_says(diag, lang, JUDGE_MSG_COMPILE_UNDEFINED_SYMBOL, names[i]);
    int function = !n && (strstr(diag->data, "undefined reference") || strstr(diag->data, "Undefined symbols"));
    for (int i = 0; i < n; i++) function |= !strcmp(names[i], m->function);
    if (function) judge_says(diag, lang, JUDGE_MSG_COMPILE_DEFINE_FUNCTION, m->function);
    if (strstr(diag->data, "multiple definition of `main'") || strstr(diag->data, "duplicate symbol _main"))
        judge_says(diag, lang, JUDGE_MSG_COMPILE_REMOVE_MAIN, m->function);
}

/* A section a linker plugin would take over: GCC's LTO bytecode, LLVM's
 * bitcode. The plugin reruns the compiler with options recorded in the
 * object, and __asm__ can write those sections by hand, so an object that has
 * one is refused; `name` gets the first such section's name. */
static int plugin_section(const char *obj, char *name, size_t n)
{
#ifdef __linux__
    static const char *const prefixes[] = { ".gnu.lto_", ".gnu.debuglto_", ".gnu.offload_lto_",
                                            ".llvmbc", ".llvm.lto" };
    int found = 1;   /* an object that cannot be read whole is refused too */
    snprintf(name, n, "(unreadable object)");
    FILE *f = fopen(obj, "rb");
    if (!f) return found;
    Elf64_Ehdr eh;
    Elf64_Shdr names;
    char *table = NULL;
    if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shstrndx >= eh.e_shnum ||
        fseek(f, (long)(eh.e_shoff + (size_t)eh.e_shstrndx * sizeof names), SEEK_SET) ||
        fread(&names, sizeof names, 1, f) != 1 || names.sh_size > (16 << 20) ||
        !(table = calloc(names.sh_size + 1, 1)) || fseek(f, (long)names.sh_offset, SEEK_SET) ||
        fread(table, 1, names.sh_size, f) != names.sh_size)
        goto done;
    found = 0;
    for (int i = 0; i < eh.e_shnum && !found; i++) {
        Elf64_Shdr sh;
        if (fseek(f, (long)(eh.e_shoff + (size_t)i * sizeof sh), SEEK_SET) ||
            fread(&sh, sizeof sh, 1, f) != 1 || sh.sh_name >= names.sh_size) {
            found = 1;
            break;
        }
        for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++)
            if (!strncmp(table + sh.sh_name, prefixes[p], strlen(prefixes[p]))) {
                snprintf(name, n, "%s", table + sh.sh_name);
                found = 1;
            }
    }
done:
    free(table);
    fclose(f);
    return found;
#else
    (void)obj;
    (void)name;
    (void)n;
    return 0;
#endif
}

/* Where the compiler `cc` is installed: two levels above its resolved path
 * (/usr/bin/gcc-12 gives /usr, /opt/llvm/bin/clang /opt/llvm), or its own
 * folder when that would be the root. Empty when it is not found. */
static void compiler_home(const char *cc, char *home, size_t n)
{
    char found[PATH_MAX] = "", real[PATH_MAX];
    const char *path = strchr(cc, '/') ? "" : getenv("PATH");
    if (!path) path = "/usr/bin:/bin";
    if (!*path) snprintf(found, sizeof found, "%s", cc);
    for (const char *p = path; *p && !found[0];) {
        size_t len = strcspn(p, ":");
        char candidate[PATH_MAX];
        int fits = snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, p, cc) <
                   (int)sizeof candidate;
        if (fits && access(candidate, X_OK) == 0)
            snprintf(found, sizeof found, "%s", candidate);
        p += len + (p[len] == ':');
    }
    home[0] = 0;
    if (!found[0] || !realpath(found, real)) return;
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(real, '/');
        if (!slash || slash == real) break;
        *slash = 0;
    }
    snprintf(home, n, "%s", real);
}

#define STR_(x) #x
#define STR(x) STR_(x)
/* The guards after the learner's statics (wire.h), zero: one in the data
 * section, one in the zeroed (bss). */
static const char guard_source[] =
    "__attribute__((section(\".data.judge_guard\"))) unsigned char judge_guard_data[" STR(JUDGE_GUARD_BYTES) "];\n"
    "unsigned char judge_guard_bss[" STR(JUDGE_GUARD_BYTES) "];\n";

static int compile(const judge_meta *m, const char *file, const char *dir,
                   const judge_native_opts *o, judge_lang lang, capture *diag, char *err, size_t n)
{
    /* What the compiler and the linker may read: the system's toolchain and
     * libraries, the compiler's own installation, and the one file judged
     * (not its folder: a classmate's file may lie beside it). */
    char home[PATH_MAX];
    compiler_home(o->cc, home, sizeof home);
    const char *readable[] = { "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin",
                               "/etc/ld.so.cache", file, home[0] ? home : "/usr", NULL };
    char proto[4096], harness[4096], guard[4096], obj[4096], exe[4096];
    join(proto, sizeof proto, dir, "judge_proto.h");
    join(harness, sizeof harness, dir, "runner.c");
    join(guard, sizeof guard, dir, "judge_guard.c");
    join(obj, sizeof obj, dir, "submission.o");
    join(exe, sizeof exe, dir, "run");
    if (write_file(dir, "judge_proto.h", m->prototype, NULL) ||
        write_file(dir, "runner.c", judge_runner_source, m->invoke) ||
        write_file(dir, "judge_guard.c", guard_source, NULL)) {
        snprintf(err, n, "cannot write to %s: %s", dir, strerror(errno));
        return -1;
    }
    char *cc = (char *)o->cc;
    char *color = o->color ? "-fdiagnostics-color=always" : "-fdiagnostics-color=never";
    /* The prototype is force-included, so a different signature is an error;
     * -Wall, because its warnings point at real learner bugs. -march=native:
     * the learner may use this CPU's vector extensions (immintrin.h), in the
     * correctness and the speed runs alike; -ffp-contract=off: no fused
     * multiply-add the source did not ask for, so the same C computes the
     * same floats here and as wasm, which has none; -x c: C whatever the
     * name ends in (a link's target may end in none). */
    char *cc1[] = { cc, "-O2", "-march=native", "-ffp-contract=off", "-Wall", color, "-include", proto,
                    "-c", "-x", "c", (char *)file, "-o", obj, NULL };
    int r = run_compiler(cc1, dir, readable, lang, diag, err, n);
    if (r) return r;
    char section[128];
    if (plugin_section(obj, section, sizeof section)) {
        judge_says(diag, lang, JUDGE_MSG_COMPILE_LINK_SECTION, section);
        return 1;
    }
    /* Linux: a static runner can be confined before execve (sandbox.c), and
     * --wrap turns a failed malloc into MLE rather than a crash on NULL. No
     * linker plugin and no LTO, however the compiler was configured. The
     * learner's object first, the guards next (wire.h): input order is
     * the order of each section's contents. */
    char *cc2[] = { cc, "-O2", color, "-o", exe, obj,
#ifdef __linux__
                    guard,   /* its section names are ELF's */
#endif
                    harness, "-lm",
#ifdef __linux__
                    "-fno-lto", "-fno-use-linker-plugin", "-static", "-DJUDGE_WRAP_MALLOC", "-DJUDGE_STATIC_GUARD",
                    "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray",
                    "-Wl,--wrap=aligned_alloc,--wrap=posix_memalign,--wrap=memalign,--wrap=valloc",
#endif
                    NULL };
    r = run_compiler(cc2, dir, readable, lang, diag, err, n);
    if (r > 0) explain_link_error(diag, m, lang);
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
        if (judge_stop) return PUMP_STOP;
        long long left = r->deadline - now_ms();
        if (left <= 0) return PUMP_TIME;
        struct pollfd p[2] = {
            { r->chan, (short)((wlen ? POLLOUT : 0) | (rlen ? POLLIN : 0)), 0 },
            { r->child.out, POLLIN, 0 },
        };
        int nfds = r->child.out >= 0 ? 2 : 1;
        if (poll_slice(p, nfds, left) <= 0) continue;
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

/* What a signal means for a learner (a message), and its name ("SIGSEGV"). */
static judge_arg signal_story(int sig, const char **name)
{
    static char other[32];
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev) snprintf(other, sizeof other, "SIG%s", abbrev);
    else
#endif
        snprintf(other, sizeof other, "%d", sig);
    *name = other;
    switch (sig) {
#define NAMED(s, msg) case s: *name = #s; return JUDGE_MSG(msg);
    NAMED(SIGSEGV, JUDGE_MSG_DETAIL_SIGSEGV)
    NAMED(SIGBUS, JUDGE_MSG_DETAIL_SIGBUS)
    NAMED(SIGFPE, JUDGE_MSG_DETAIL_SIGFPE)
    NAMED(SIGABRT, JUDGE_MSG_DETAIL_SIGABRT)
    NAMED(SIGILL, JUDGE_MSG_DETAIL_SIGILL)
    NAMED(SIGXFSZ, JUDGE_MSG_DETAIL_SIGXFSZ)
    NAMED(SIGSYS, JUDGE_MSG_DETAIL_SIGSYS)
    NAMED(SIGKILL, JUDGE_MSG_DETAIL_SIGKILL)
    NAMED(SIGTERM, JUDGE_MSG_DETAIL_SIGTERM)
    NAMED(SIGTRAP, JUDGE_MSG_DETAIL_SIGTRAP)
#undef NAMED
    default: return JUDGE_MSG(JUDGE_MSG_DETAIL_SIGNAL_OTHER);
    }
}

/* What the child printed still to be read (a message, a partial line), for
 * a short while only: a child that goes on printing would keep us reading. */
static void last_words(run *r)
{
    long long until = now_ms() + LAST_WORDS_MS;
    while (r->child.out >= 0 && !r->out.over && !judge_stop) {
        char buf[4096];
        struct pollfd p = { r->child.out, POLLIN, 0 };
        long long left = until - now_ms();
        if (left <= 0) break;
        int ready = poll_slice(&p, 1, left);
        if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        if (ready < 0) break;
        ssize_t got = read(r->child.out, buf, sizeof buf);
        if (got <= 0) break;
        capture_add(&r->out, buf, (size_t)got);
    }
}

/* The child is gone or must go: end it and record a fault on call k. With
 * msg -1 the verdict comes from how the child ended; otherwise it is
 * `verdict` (TLE, OLE, MLE) for the reason given (msg and its n args). */
static void end_with_fault(run *r, judge_session *s, const judge_meta *m, int k, int started,
                           judge_verdict verdict, int msg, const judge_arg *args, int n)
{
    int status;
    long rss_kb;
    if (verdict != JUDGE_OLE) last_words(r);
    judge_child_end(&r->child, msg >= 0 ? 0 : 500, &status, &rss_kb);
    char a[24], b[24];
    judge_arg when = started ? JUDGE_TEXT("") : JUDGE_MSG(JUDGE_MSG_DETAIL_BEFORE_START);
    if (msg >= 0) {
        judge_session_fault(s, k, verdict, (judge_msg)msg, args, n);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
               rss_kb > (long)m->memory_mb * 1024) {
        /* killed from outside (the kernel out of memory): its peak tells why.
         * A crash of its own stays RE whatever the peak: the judge's buffers
         * count in it, and a wrecked heap aborts at any size. */
        snprintf(a, sizeof a, "%ld", rss_kb / 1024);
        snprintf(b, sizeof b, "%d", m->memory_mb);
        judge_arg why[] = { JUDGE_TEXT(a), JUDGE_TEXT(b) };
        judge_session_fault(s, k, JUDGE_MLE, JUDGE_MSG_DETAIL_MLE_USED, why, 2);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU) {
        judge_session_fault(s, k, JUDGE_TLE, JUDGE_MSG_DETAIL_CPU_TIME, NULL, 0);
    } else if (WIFSIGNALED(status)) {
        const char *name;
        judge_arg why[] = { signal_story(WTERMSIG(status), &name), JUDGE_TEXT(name), when };
        judge_session_fault(s, k, JUDGE_RE, JUDGE_MSG_DETAIL_SIGNAL, why, 3);
    } else {
        snprintf(a, sizeof a, "%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        judge_arg why[] = { JUDGE_TEXT(a), when, JUDGE_TEXT(m->function) };
        judge_session_fault(s, k, JUDGE_RE, JUDGE_MSG_DETAIL_EXIT, why, 3);
    }
}

/* The runner's SIGSEGV handler found the fault `depth` bytes below the top
 * of its stack. Near the stack's limit or past it, that is a stack overflow
 * (RE); well inside it, the stack had room left but the address space was
 * full: the memory limit (MLE). */
static void stack_fault(run *r, judge_session *s, const judge_meta *m, int k, uint64_t depth)
{
    char a[24], b[24];
    if (depth + (STACK_SLACK_KB << 10) >= (uint64_t)STACK_MB << 20) {
        snprintf(a, sizeof a, "%d", STACK_MB);
        judge_arg why[] = { JUDGE_TEXT(a) };
        end_with_fault(r, s, m, k, 1, JUDGE_RE, JUDGE_MSG_DETAIL_STACK_OVERFLOW, why, 1);
    } else {
        snprintf(a, sizeof a, "%llu", (unsigned long long)(depth >> 10));
        snprintf(b, sizeof b, "%d", m->memory_mb);
        judge_arg why[] = { JUDGE_TEXT(a), JUDGE_TEXT(b) };
        end_with_fault(r, s, m, k, 1, JUDGE_MLE, JUDGE_MSG_DETAIL_STACK_NO_ROOM, why, 2);
    }
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

/* The speed runs on the CPU the judge is on, the child's calls and the core's
 * timings here alike (the child inherits the mask): they alternate, so one
 * CPU is enough, and two CPUs of one machine need not run at one speed. On
 * this VM the same file, unpinned, read 0.58x to 1.46x the core in
 * successive runs, its calls and the core's each steady on their own CPU
 * (15 and 23 ms); pinned, 1.0x to 1.1x. 1 when pinned, the old mask in was. */
static int pin_to_this_cpu(cpu_set_t *was)
{
    int cpu = sched_getcpu();
    if (cpu < 0 || sched_getaffinity(0, sizeof *was, was)) return 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one) == 0;
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
        char a[24], b[24];
        snprintf(a, sizeof a, "%zu", need >> 20);
        snprintf(b, sizeof b, "%d", m->memory_mb);
        judge_arg why[] = { JUDGE_TEXT(a), JUDGE_TEXT(b) };
        judge_session_fault(s, 0, JUDGE_MLE, JUDGE_MSG_DETAIL_STATIC_TOO_BIG, why, 2);
        close(sv[0]);
        close(sv[1]);
        return 0;
    }
    judge_spawn o = { .argv = argv, .cwd = dir, .tmpdir = dir,
                      .cpu_seconds = (m->time_ms + 999) / 1000 + 1,
                      .memory_bytes = (((size_t)m->memory_mb + RUNNER_SLACK_MB) << 20) +
                                      largest_request(s),
                      .stack_bytes = (size_t)STACK_MB << 20,
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
        /* A paced session (the speed runs) makes each call's inputs and
         * times the core on them here: the judge's time, not the learner's
         * (52's speed case makes a 134 MB cache a call). */
        long long made = now_ms();
        judge_session_request(s, k, &req, &req_len);
        r.deadline += now_ms() - made;
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
            char a[24], b[24];
            snprintf(a, sizeof a, "%llu", (unsigned long long)bytes);
            snprintf(b, sizeof b, "%d", m->memory_mb);
            judge_arg why[] = { JUDGE_TEXT(a), JUDGE_TEXT(b) };
            end_with_fault(&r, s, m, k, 1, JUDGE_MLE, JUDGE_MSG_DETAIL_ALLOC_FAILED, why, 2);
            break;
        }
        if (magic == JUDGE_WIRE_STATIC_OVERRUN) {
            end_with_fault(&r, s, m, k, 1, JUDGE_RE, JUDGE_MSG_DETAIL_STATIC_OVERRUN, NULL, 0);
            break;
        }
        if (magic == JUDGE_WIRE_STACK_FAULT) {
            uint64_t depth;
            memcpy(&depth, reply + 8, 8);
            stack_fault(&r, s, m, k, depth);
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
        char ms[24];
        snprintf(ms, sizeof ms, "%d", started ? m->time_ms : STARTUP_MS);
        end_with_fault(&r, s, m, k, started, JUDGE_TLE, started ? JUDGE_MSG_DETAIL_STILL_RUNNING
                       : JUDGE_MSG_DETAIL_NO_START, &JUDGE_TEXT(ms), 1);
    } else if (k < calls && got == PUMP_FLOOD) {
        char kib[24];
        snprintf(kib, sizeof kib, "%d", m->output_kb);
        end_with_fault(&r, s, m, k, started, JUDGE_OLE, JUDGE_MSG_DETAIL_PRINTED_TOO_MUCH,
                       &JUDGE_TEXT(kib), 1);
    } else if (k < calls && got == PUMP_CLOSED) {
        end_with_fault(&r, s, m, k, started, JUDGE_RE, -1, NULL, 0);
    } else if (k == calls) {
        /* All answered, each call's output flushed before its reply: what
         * the program would do after them (its destructors, atexit
         * handlers) is in no call, and is not run, as in wasm, whose module
         * has none; a flood or a crash there was a verdict natively only.
         * What its pipe already holds is read. */
        kill(-r.child.pid, SIGKILL);
        kill(r.child.pid, SIGKILL);
        last_words(&r);
        if (r.out.over) {
            char kib[24];
            snprintf(kib, sizeof kib, "%d", m->output_kb);
            judge_session_fault(s, calls - 1, JUDGE_OLE, JUDGE_MSG_DETAIL_PRINTED_TOO_MUCH,
                                &JUDGE_TEXT(kib), 1);
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
    char made[4096], dir[PATH_MAX], source[PATH_MAX];
    /* The compiler runs inside the folder, so both paths must be absolute. */
    if (!realpath(file, source)) {
        snprintf(err, n, "cannot read %s: %s", file, strerror(errno));
        return -1;
    }
    snprintf(made, sizeof made, "%s/judge-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int made_it = mkdtemp(made) != NULL;
    if (!made_it || !realpath(made, dir)) {
        snprintf(err, n, "cannot create a temporary folder in %s: %s",
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
        if (made_it) rmdir(made);
        return -1;
    }
    capture diag = { .data = malloc(DIAGNOSTICS_MAX + 1), .cap = DIAGNOSTICS_MAX };
    int rc = -1;
    if (!diag.data) {
        snprintf(err, n, "out of memory");
        goto done;
    }
    diag.data[0] = 0;
    int c = compile(m, source, dir, o, judge_session_lang(s), &diag, err, n);
    if (c < 0) goto done;
    capture_rename(&diag, source, file);
    judge_session_compiled(s, c == 0, diag.data);
    rc = c == 0 ? run_calls(s, m, dir, err, n) : 0;
    /* A wrong case no mistake explains, run again alone in a fresh child. */
    judge_session *fresh = rc == 0 ? judge_session_fresh(s) : NULL;
    if (fresh) rc = run_calls(fresh, judge_session_meta(fresh), dir, err, n);
    /* The speed runs (--speed): the same program, a fresh child, their own
     * budget (after a CE none, and the report says why). */
    judge_session *speed = rc == 0 ? judge_session_speed(s) : NULL;
    if (speed) {
        cpu_set_t was;
        int pinned = pin_to_this_cpu(&was);
        rc = run_calls(speed, judge_session_meta(speed), dir, err, n);
        if (pinned) sched_setaffinity(0, sizeof was, &was);
    }
done:
    free(diag.data);
    remove_tree(dir);
    if (judge_stop) {   /* however far it got, an interrupted run has no report */
        snprintf(err, n, "interrupted");
        rc = -1;
    }
    return rc;
}
