/* check.h: the small harness the C tests share, after libuv's: a CHECK that
 * says where, the expression and the values that made it false; one table of
 * tests; a main that runs them all, or one by name, or lists them, and ends
 * with "N passed, N failed". Header-only, so each test program stays one file
 * (include it once). */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* A word printed before each failure, e.g. the SIMD level under test. */
#ifndef CHECK_CONTEXT
#define CHECK_CONTEXT ""
#endif

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            failures++;                                                     \
            fprintf(stderr, "%s:%d: %sCHECK(%s) failed: ", __FILE__, __LINE__, \
                    CHECK_CONTEXT, #cond);                                  \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

typedef struct {
    const char *name;
    void (*run)(void);
} check_test;

/* Whether this process takes the item-th piece of a test's work: all of it,
 * or with CHECK_SHARD=i/n in the environment every n-th from i, so that a
 * slow test can run as n processes at once. */
static inline int check_mine(int item)
{
    const char *e = getenv("CHECK_SHARD");
    int i, n;
    if (!e || sscanf(e, "%d/%d", &i, &n) != 2 || n < 1) return 1;
    return item % n == i;
}

/* Run the n tests (all, or the one argv[1] names; "--list" lists them),
 * calling after_each (if any) after each. Returns main's status. */
static int check_main(const check_test *tests, int n, int argc, char **argv,
                      void (*after_each)(void))
{
    int passed = 0, failed = 0;
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (int i = 0; i < n; i++) puts(tests[i].name);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name)) continue;
        int before = failures;
        tests[i].run();
        if (after_each) after_each();
        if (failures == before) passed++;
        else failed++;
        printf("%s %s\n", failures == before ? "ok  " : "FAIL", tests[i].name);
    }
    if (passed + failed == 0) {
        fprintf(stderr, "%s: no test named %s\n", argv[0], argv[1]);
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#endif
