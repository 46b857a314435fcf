/* expect: AC */
/* Probe: prlimit64 on the judge (its parent) to set its file-size limit to 0 and its memory to 1 MiB, then reads the limits of pid 1. Every call must fail; a success zeroes the answer. */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <unistd.h>
#include "honest_mha.h"

static int breached(void)
{
    struct rlimit zero = { 0, 0 }, tiny = { 1 << 20, 1 << 20 }, old;
    pid_t judge = getppid();
    int hits = 0;
    hits += prlimit(judge, RLIMIT_FSIZE, &zero, NULL) == 0;
    hits += prlimit(judge, RLIMIT_AS, &tiny, NULL) == 0;
    hits += prlimit(judge, RLIMIT_NOFILE, NULL, &old) == 0;
    hits += prlimit(1, RLIMIT_NOFILE, NULL, &old) == 0;
    return hits;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int hits = breached();
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    if (hits) memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
