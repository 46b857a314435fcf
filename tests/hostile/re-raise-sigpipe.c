/* expect: RE */
/* Right answers, then raise(SIGPIPE) on the first call: a signal the judge has
 * no story of its own for is told by its name, in the report's language
 * (it was the C library's English "Broken pipe" in a Chinese report). */
#include <signal.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)out, (void)x, (void)wq, (void)wk, (void)wv, (void)wo, (void)mask;
    (void)B, (void)T, (void)d, (void)n_heads, (void)causal;
    raise(SIGPIPE);
}
