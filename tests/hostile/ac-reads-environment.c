/* expect: AC */
/* Probe: looks through its environment for the grader's secrets (anything but TMPDIR: HOME, PATH, tokens set for CI) to print them into the report. It must find none. */
#include <stdio.h>
#include <string.h>
#include "honest_mha.h"

extern char **environ;

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int found = 0;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "TMPDIR=", 7)) found++;
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    if (found) memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
