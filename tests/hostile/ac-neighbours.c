/* expect: AC */
/* Probe: hunts for a neighbour's judge among nearby pids (a class is graded in parallel), harmlessly: signal 0 and reading its limits by prlimit, which is all an attack needs to find and then cripple it. Every pid must be out of reach; a reachable one zeroes the answer. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include "honest_mha.h"

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    pid_t me = getpid();
    int reached = 0;
    for (pid_t pid = me - 400; pid < me + 400; pid++) {
        struct rlimit old;
        if (pid <= 1 || pid == me) continue;
        reached += kill(pid, 0) == 0;
        reached += prlimit(pid, RLIMIT_FSIZE, NULL, &old) == 0;
    }
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    if (reached) memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
