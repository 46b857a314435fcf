/* expect: RE */
/* Hangs up on the judge (closes fd 3, its channel) and then prints one byte every 20 ms for a minute: the judge must stop listening after a short grace, not for as long as bytes come. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)out; (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask;
    (void)B; (void)T; (void)d; (void)n_heads; (void)causal;
    close(3);
    struct timespec tick = { 0, 20 * 1000 * 1000 };
    for (int i = 0; i < 3000; i++) {
        putchar('.');
        fflush(stdout);
        nanosleep(&tick, NULL);
    }
}
