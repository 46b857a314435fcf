/* att_threads.c: att_parallel (att_fast.h), the fork/join under the _simd
 * kernels. Native builds keep a pool: worker threads started on first need
 * and kept, each waiting for the next job, so a call costs a wake-up, not a
 * pthread_create and join (tens of microseconds, paid three times per
 * att_mha_simd call). Waking a sleeping thread is itself slow on a VM (80 us
 * measured for a call that does nothing, against 38 us for create and
 * join), so a worker that finishes watches for the next job for a short
 * while (SPIN loads, about 7 us here) before it sleeps, and the caller
 * likewise for the workers to finish: the calls of one att_mha_simd follow
 * each other closely (then a call costs under 2 us). Worker t always runs
 * tid t. One job runs at a time: a caller that finds the pool busy (another
 * thread of the caller's, or a task that itself calls att_parallel) runs
 * every tid itself rather than wait. Wasm builds without Emscripten's
 * pthreads, and workers that cannot be started, leave their tids to the
 * calling thread, so a result never depends on n. The workers are never
 * stopped: they sleep between jobs and end with the process. A child of
 * fork() has none of them: it starts a pool of its own (see forked). */
#include "att_fast.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define ATT_NO_THREADS 1
#endif

#ifndef ATT_NO_THREADS
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define SPIN 20000

static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;   /* held for a whole job */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;     /* guards the fields below */
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;       /* a new job is posted */
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;     /* pending reached 0 */
static int nworkers;               /* workers running: tids 1..nworkers */
static atomic_ulong gen;           /* jobs posted so far (read unlocked to spin) */
static unsigned long born[ATT_MAX_THREADS];   /* gen when worker t started */
static att_task job_fn;
static const void *job_ctx;
static int job_n;
static atomic_int pending;         /* the job's workers not yet done */

static void *worker(void *p)
{
    const int tid = (int)(intptr_t)p;
    pthread_mutex_lock(&mu);
    unsigned long seen = born[tid];   /* jobs posted before it started are not its */
    for (;;) {
        if (gen == seen) {
            pthread_mutex_unlock(&mu);
            for (int i = 0; i < SPIN && gen == seen; i++) continue;
            pthread_mutex_lock(&mu);
        }
        while (gen == seen) pthread_cond_wait(&go, &mu);
        seen = gen;
        if (tid >= job_n) continue;
        const att_task fn = job_fn;
        const void *ctx = job_ctx;
        const int n = job_n;
        pthread_mutex_unlock(&mu);
        fn(ctx, tid, n);
        pthread_mutex_lock(&mu);
        if (--pending == 0) pthread_cond_signal(&done);
    }
    return NULL;
}

/* In the child of a fork: the workers did not come along, and a lock or a
 * condition may have been copied in use by one of them; the child's pool
 * starts empty. */
static void forked(void)
{
    pthread_mutex_init(&busy, NULL);
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&go, NULL);
    pthread_cond_init(&done, NULL);
    nworkers = 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void register_fork(void) { pthread_atfork(NULL, NULL, forked); }

void att_parallel(int n, att_task fn, const void *ctx)
{
    if (n > ATT_MAX_THREADS) n = ATT_MAX_THREADS;
    if (n > 1) pthread_once(&once, register_fork);
    if (n <= 1 || pthread_mutex_trylock(&busy)) {
        for (int t = 0; t < n; t++) fn(ctx, t, n);
        return;
    }
    pthread_mutex_lock(&mu);
    while (nworkers < n - 1) {
        pthread_t th;
        born[nworkers + 1] = gen;
        if (pthread_create(&th, NULL, worker, (void *)(intptr_t)(nworkers + 1))) break;
        pthread_detach(th);
        nworkers++;
    }
    const int helpers = nworkers < n - 1 ? nworkers : n - 1;
    job_fn = fn;
    job_ctx = ctx;
    job_n = n;
    pending = helpers;
    gen++;
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&mu);
    fn(ctx, 0, n);
    for (int t = helpers + 1; t < n; t++) fn(ctx, t, n);   /* tids no worker could take */
    for (int i = 0; i < SPIN && pending; i++) continue;
    pthread_mutex_lock(&mu);
    while (pending) pthread_cond_wait(&done, &mu);
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&busy);
}
#else
void att_parallel(int n, att_task fn, const void *ctx)
{
    for (int t = 0; t < n; t++) fn(ctx, t, n);
}
#endif
