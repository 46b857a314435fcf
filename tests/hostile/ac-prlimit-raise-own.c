/* expect: AC */
/* Probe: raises its own limits (address space and CPU to unlimited, by prlimit with pid 0 and with its own pid, and by setrlimit). Reading its own limits is allowed; every change must fail. */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <unistd.h>
#include "honest_mha.h"

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    struct rlimit mine, lots = { RLIM_INFINITY, RLIM_INFINITY };
    int can_read = getrlimit(RLIMIT_AS, &mine) == 0 && mine.rlim_cur != RLIM_INFINITY;
    int raised = prlimit(0, RLIMIT_AS, &lots, NULL) == 0;
    raised += prlimit(getpid(), RLIMIT_CPU, &lots, NULL) == 0;
    raised += setrlimit(RLIMIT_AS, &lots) == 0;
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    if (raised || !can_read) memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
