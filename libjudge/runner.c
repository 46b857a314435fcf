/* runner.c: the child side of a native judging run.
 *
 * Compiled and linked with the learner's file into its own program, never into
 * the judge. It reads call requests on fd 3, lays every buffer out in fresh
 * memory exactly as the request says (guards included), calls the learner's
 * function through judge_invoke() (generated from the problem's prototype) and
 * writes every buffer back. It decides nothing: whatever the learner's code
 * does to this process, the verdict is computed by the judge from the bytes
 * that come back. Wire format: libjudge/judge.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"   /* inlined here by gen_problems.mjs when it embeds this file */

void judge_invoke(void *const *buf, const int *ints);

enum { CHANNEL = 3, MAX_PARAMS = 16 };

static int read_all(void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = read(CHANNEL, c, n);
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
        ssize_t r = write(CHANNEL, c, n);
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

#ifdef JUDGE_WRAP_MALLOC
/* Linked with --wrap: a failed allocation is the memory limit, so say so and
 * stop, rather than let the learner's code crash on NULL and look like RE. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static void *out_of_memory(void *p, size_t n)
{
    if (p || n == 0) return p;
    uint64_t msg[2] = { JUDGE_WIRE_OUT_OF_MEMORY, n };
    write_all(msg, sizeof msg);
    _exit(0);
}

void *__wrap_malloc(size_t n) { return out_of_memory(__real_malloc(n), n); }
void *__wrap_realloc(void *p, size_t n) { return out_of_memory(__real_realloc(p, n), n); }
void *__wrap_calloc(size_t n, size_t size)
{
    return out_of_memory(__real_calloc(n, size), n * size ? n * size : n);
}
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
        clock_gettime(CLOCK_MONOTONIC, &t0);
        judge_invoke(buf, ints);
        clock_gettime(CLOCK_MONOTONIC, &t1);
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
