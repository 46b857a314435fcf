/* runner.c: the child side of a native judging run.
 *
 * Compiled and linked with the learner's file into its own program, never into
 * the judge. It reads call requests on fd 3, lays every buffer out in fresh
 * memory exactly as the request says (guards included), calls the learner's
 * function through judge_invoke() (generated from the problem's prototype) and
 * writes every buffer back. It decides nothing: whatever the learner's code
 * does to this process, the verdict is computed by the judge from the bytes
 * that come back. Wire format: libjudge/judge.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"   /* inlined here by gen_problems.mjs when it embeds this file */

void judge_invoke(void *const *buf, const int *ints);

enum { CHANNEL = 3, MAX_PARAMS = 16 };

/* The channel and the clock through system calls of the runner's own, where
 * it can make them: the learner's file is linked into this program, and a
 * read, write or clock_gettime it defines would be the runner's too, free to
 * forge the times and the replies (a write() that zeroed each call's time
 * won a speed tier). Elsewhere, the C library's. */
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <sys/syscall.h>
static long sys3(long nr, long a, long b, long c)
{
#ifdef __x86_64__
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
#else
    register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
    return x0;
#endif
}
static long channel_read(void *p, size_t n) { return sys3(SYS_read, CHANNEL, (long)p, (long)n); }
static long channel_write(const void *p, size_t n) { return sys3(SYS_write, CHANNEL, (long)p, (long)n); }
static void monotonic(struct timespec *t) { sys3(SYS_clock_gettime, CLOCK_MONOTONIC, (long)t, 0); }
#else
static long channel_read(void *p, size_t n) { return read(CHANNEL, p, n); }
static long channel_write(const void *p, size_t n) { return write(CHANNEL, p, n); }
static void monotonic(struct timespec *t) { clock_gettime(CLOCK_MONOTONIC, t); }
#endif

static int read_all(void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        long r = channel_read(c, n);
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int write_all(const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        long r = channel_write(c, n);
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

#ifdef JUDGE_WRAP_MALLOC
/* Linked with --wrap: an allocation that fails for want of memory is the
 * memory limit, so say so and stop, rather than let the learner's code crash
 * on NULL (RE) or wait for memory forever (TLE). Every C and POSIX way to
 * allocate goes through here; a bad alignment (EINVAL) stays the learner's. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_reallocarray(void *p, size_t n, size_t size);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **p, size_t align, size_t n);
void *__real_memalign(size_t align, size_t n);
void *__real_valloc(size_t n);

static void *out_of_memory(void *p, size_t n)
{
    if (p || n == 0 || errno != ENOMEM) return p;
    uint64_t msg[2] = { JUDGE_WIRE_OUT_OF_MEMORY, n };
    write_all(msg, sizeof msg);
    _exit(0);
}

static size_t times(size_t n, size_t size)
{
    return size && n > SIZE_MAX / size ? SIZE_MAX : n * size;
}

void *__wrap_malloc(size_t n) { return out_of_memory(__real_malloc(n), n); }
void *__wrap_realloc(void *p, size_t n) { return out_of_memory(__real_realloc(p, n), n); }
void *__wrap_calloc(size_t n, size_t size)
{
    return out_of_memory(__real_calloc(n, size), times(n, size));
}
void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
    return out_of_memory(__real_reallocarray(p, n, size), times(n, size));
}
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return out_of_memory(__real_aligned_alloc(align, n), n);
}
void *__wrap_memalign(size_t align, size_t n)
{
    return out_of_memory(__real_memalign(align, n), n);
}
void *__wrap_valloc(size_t n) { return out_of_memory(__real_valloc(n), n); }
int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    int r = __real_posix_memalign(p, align, n);
    errno = r;
    if (r == ENOMEM) out_of_memory(NULL, n);
    return r;
}
#endif

#ifdef __linux__
#include <signal.h>
#include <sys/resource.h>
/* A SIGSEGV at an address in the stack's range (from the top of main's frame
 * down to its limit and well beyond, where a big local array's first touch
 * lands) is the stack failing to grow: say how deep it had got ("ATS1"), and
 * the judge tells a stack overflow (the limit reached) from a full address
 * space (stopped short of it). Any other SIGSEGV stays a plain crash. */
enum { BELOW_LIMIT = 64 << 20 };
static char *stack_top;
static size_t stack_limit;
static char alt_stack[64 << 10];

static void on_segv(int sig, siginfo_t *info, void *context)
{
    (void)context;
    char *at = info->si_addr;
    if (info->si_code == SEGV_MAPERR && at < stack_top &&
        (size_t)(stack_top - at) <= stack_limit + BELOW_LIMIT) {
        uint64_t msg[2] = { JUDGE_WIRE_STACK_FAULT, (uint64_t)(stack_top - at) };
        write_all(msg, sizeof msg);
        _exit(0);
    }
    /* SA_RESETHAND made the action the default again: dying of it, as if
     * never caught (a raise() too, which would not repeat by itself) */
    raise(sig);
}

static void watch_stack(char *top)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_STACK, &r) || r.rlim_cur == RLIM_INFINITY) return;
    stack_top = top;
    stack_limit = r.rlim_cur;
    stack_t alt = { .ss_sp = alt_stack, .ss_size = sizeof alt_stack };
    struct sigaction sa = { .sa_sigaction = on_segv,
                            .sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND };
    sigemptyset(&sa.sa_mask);
    if (sigaltstack(&alt, NULL) == 0) sigaction(SIGSEGV, &sa, NULL);
}
#else
static void watch_stack(char *top) { (void)top; }
#endif

#ifdef JUDGE_STATIC_GUARD
extern unsigned char judge_guard_data[JUDGE_GUARD_BYTES], judge_guard_bss[JUDGE_GUARD_BYTES];

/* Filled with a canary rather than left zero: a zero written past the end
 * of an array (a masked score's 0.0f) must change them too. */
static void fill_guards(void)
{
    memset(judge_guard_data, 0xa5, JUDGE_GUARD_BYTES);
    memset(judge_guard_bss, 0xa5, JUDGE_GUARD_BYTES);
}

/* After each call: a static array written past its end (wire.h) stops the
 * run here, before the C library runs on whatever lies beyond the guard. */
static void check_guards(void)
{
    for (size_t i = 0; i < JUDGE_GUARD_BYTES; i++)
        if (judge_guard_data[i] != 0xa5 || judge_guard_bss[i] != 0xa5) {
            uint64_t msg[2] = { JUDGE_WIRE_STATIC_OVERRUN, i };
            write_all(msg, sizeof msg);
            _exit(0);
        }
}
#else
static void fill_guards(void) {}
static void check_guards(void) {}
#endif

static const size_t elem_size[] = {   /* by judge_type */
#define JUDGE_T(name, json, size) size,
    JUDGE_TYPE_LIST(JUDGE_T)
#undef JUDGE_T
};
enum { N_TYPES = sizeof elem_size / sizeof elem_size[0] };

int main(void)
{
    /* Line-buffered, so what was printed before a crash or a hang still
     * reaches the learner. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    char top;
    watch_stack(&top);
    fill_guards();
    uint32_t hello = JUDGE_WIRE_HELLO;   /* the learner's constructors are done */
    if (write_all(&hello, sizeof hello)) return 1;
    for (;;) {
        uint32_t head[3], desc[MAX_PARAMS][4];
        if (read_all(head, sizeof head)) return 0;      /* the judge is done */
        if (head[0] != JUDGE_WIRE_REQUEST || head[2] > MAX_PARAMS) return 1;
        uint32_t np = head[2];
        if (read_all(desc, np * sizeof desc[0])) return 1;
        void *buf[MAX_PARAMS] = { 0 };
        char *region[MAX_PARAMS] = { 0 };
        size_t bytes[MAX_PARAMS] = { 0 };
        int ints[MAX_PARAMS] = { 0 };
        for (uint32_t i = 0; i < np; i++) {
            uint32_t type = desc[i][0], is_null = desc[i][1];
            if (type == 0) { ints[i] = (int)desc[i][2]; continue; }
            if (type >= N_TYPES) return 1;
            if (is_null) continue;
            size_t es = elem_size[type];
            bytes[i] = ((size_t)desc[i][2] + 2 * (size_t)desc[i][3]) * es;
            region[i] = malloc(bytes[i]);
            if (!region[i] || read_all(region[i], bytes[i])) return 1;
            buf[i] = region[i] + (size_t)desc[i][3] * es;
        }
        struct timespec t0, t1;
        monotonic(&t0);
        judge_invoke(buf, ints);
        monotonic(&t1);
        check_guards();
        fflush(stdout);
        uint32_t rhead[4] = { JUDGE_WIRE_REPLY, head[1], 0, 0 };
        uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u
                      + (uint64_t)(t1.tv_nsec - t0.tv_nsec);
        memcpy(&rhead[2], &ns, sizeof ns);
        if (write_all(rhead, sizeof rhead)) return 1;
        for (uint32_t i = 0; i < np; i++) {
            if (region[i] && write_all(region[i], bytes[i])) return 1;
            free(region[i]);
        }
    }
}
