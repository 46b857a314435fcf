/* expect: WA */
/* Off by one: advances the length first and appends at the new length (row n + 1), then returns v as the output; wrong on the example already (with one free slot it would also write past the end, an RE in a later case). */
#include <math.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    (void)q;
    for (int b = 0; b < B; b++) {
        int n = ++len[b];
        memcpy(k_cache + ((long)b * S_max + n) * H * D, k + b * H * D, sizeof(float) * H * D);
        memcpy(v_cache + ((long)b * S_max + n) * H * D, v + b * H * D, sizeof(float) * H * D);
        for (int i = 0; i < H * D; i++) out[b * H * D + i] = v[b * H * D + i];
    }
}
