/* att_threads.c: att_parallel (att_fast.h), the fork/join under the _simd
 * kernels. Native builds start n - 1 pthreads per call and join them: a
 * start costs tens of microseconds, small beside the kernels worth
 * splitting, and leaves no pool to own or shut down. Wasm builds without
 * Emscripten's pthreads, and a failed pthread_create, run the missing
 * workers on the calling thread, so a result never depends on n. */
#include "att_fast.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define ATT_NO_THREADS 1
#endif

#ifndef ATT_NO_THREADS
#include <pthread.h>

typedef struct {
    att_task fn;
    const void *ctx;
    int tid, n;
} worker;

static void *run(void *p)
{
    const worker *w = p;
    w->fn(w->ctx, w->tid, w->n);
    return NULL;
}

void att_parallel(int n, att_task fn, const void *ctx)
{
    pthread_t th[ATT_MAX_THREADS];
    worker w[ATT_MAX_THREADS];
    int started[ATT_MAX_THREADS] = { 0 };
    if (n > ATT_MAX_THREADS) n = ATT_MAX_THREADS;
    for (int t = 1; t < n; t++) {
        w[t] = (worker){ fn, ctx, t, n };
        started[t] = pthread_create(&th[t], NULL, run, &w[t]) == 0;
    }
    fn(ctx, 0, n);
    for (int t = 1; t < n; t++) {
        if (started[t]) pthread_join(th[t], NULL);
        else fn(ctx, t, n);
    }
}
#else
void att_parallel(int n, att_task fn, const void *ctx)
{
    for (int t = 0; t < n; t++) fn(ctx, t, n);
}
#endif
