/* expect: WA */
/* Prints bytes that are not UTF-8, and a NUL, then returns zeros: the JSON report must stay valid. */
#include <stdio.h>
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{ static int once; if (!once++) { fputs("bad \xff\xfe bytes, good é 注意, nul:", stdout); putchar(0); puts("!"); }
  for (int i = 0; i < B*T*d; i++) out[i] = 0; }
