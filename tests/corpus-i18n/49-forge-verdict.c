/* expect: WA */
/* A hostile submission for 49: it prints a colour sequence and a carriage
 * return that would paint a green "verdict: AC" over the line on a terminal,
 * and writes zeros (so it is wrong). The text report must show the sequence
 * escaped, never raw. */
#include <stdio.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    static int said;
    if (!said++) printf("\033[32mverdict: AC\r\n");
    for (int i = 0; i < B * T * d; i++) out[i] = 0;
}
