/* expect: TLE */
/* Never returns and prints a byte every 20 ms (a progress dot), so output keeps trickling after the time limit: the judge must give up on the dots at the limit plus a short grace. */
#include <stdio.h>
#include <unistd.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)out; (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask;
    (void)B; (void)T; (void)d; (void)n_heads; (void)causal;
    for (;;) {
        fputc('.', stderr);
        usleep(20000);
    }
}
