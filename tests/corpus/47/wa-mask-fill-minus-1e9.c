/* expect: WA mask_fill_finite */
/* Hidden scores set to -1e9 rather than -inf: a query with every key hidden weighs them all alike. */
#include <math.h>
#include <stdlib.h>
void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof(float)*S);
    for (int b = 0; b < B; b++) for (int h = 0; h < H; h++) {
        int o = (b*H+h);
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY, z = 0;
            for (int j = 0; j < S; j++) {
                float s = 0; for (int c = 0; c < D; c++) s += q[(o*T+i)*D+c]*k[(o*S+j)*D+c];
                s /= sqrtf((float)D);
                if (causal && j > i + S - T) s = -1e9f;
                if (mask && !mask[b*S+j]) s = -1e9f;
                w[j] = s; if (s > mx) mx = s;
            }
            for (int j = 0; j < S; j++) { w[j] = expf(w[j]-mx); z += w[j]; }
            for (int c = 0; c < D; c++) { float a = 0; for (int j = 0; j < S; j++) a += w[j]*v[(o*S+j)*D+c]; out[(o*T+i)*D+c] = a/z; }
        }
    }
    free(w);
}
