/* expect: MLE; wasm: WA */
/* A static scratch array of 1 GiB: over the memory limit before the program starts. */
#include <string.h>
static float big[1 << 28];
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{ memset(big, 1, sizeof big); out[0] = big[5]; }
