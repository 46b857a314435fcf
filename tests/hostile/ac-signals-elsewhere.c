/* expect: AC */
/* Probe: SIGSTOP to the judge by kill, tkill and tgkill, SIGTERM to every process it may signal (kill -1) and to its own group (kill 0). All must fail; raise() on itself with an ignored signal must still work. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "honest_mha.h"

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    pid_t judge = getppid();
    int hits = 0;
    hits += kill(judge, SIGSTOP) == 0;
    hits += syscall(SYS_tkill, judge, SIGSTOP) == 0;
    hits += syscall(SYS_tgkill, judge, judge, SIGSTOP) == 0;
    hits += kill(-1, SIGTERM) == 0;
    hits += kill(0, SIGTERM) == 0;
    signal(SIGUSR1, SIG_IGN);
    int own = raise(SIGUSR1) == 0;
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    if (hits || !own) memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
