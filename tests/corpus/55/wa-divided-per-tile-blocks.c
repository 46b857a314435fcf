/* expect: WA divided_per_tile */
/* The output is normalised by den inside the key-tile loop (after each tile) instead of once at the end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLK 32

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    const float sm_scale = 1.0f / sqrtf((float)D);
    (void)n_scratch;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const size_t bh = (size_t)b * H + h;
            const float *kb = k + bh * S * D;
            const float *vb = v + bh * S * D;
            for (int i = 0; i < T; i++) {
                const float *qrow = q + (bh * T + i) * D;
                float o[D];
                float mx = -INFINITY;   /* running max of the raw dot products */
                float den = 0.0f;
                int jmax = causal ? i + S - T : S - 1;
                memset(o, 0, sizeof o);
                for (int js = 0; js <= jmax; js += BLK) {
                    int je = js + BLK - 1;
                    if (je > jmax) je = jmax;
                    float *raw = scratch;
                    float bm = mx;
                    for (int j = js; j <= je; j++) {
                        float d = 0.0f;
                        for (int c = 0; c < D; c++) d += qrow[c] * kb[(size_t)j * D + c];
                        raw[j - js] = d;
                        if (d > bm) bm = d;
                    }
                    float rescale = expf((mx - bm) * sm_scale);
                    den *= rescale;
                    for (int c = 0; c < D; c++) o[c] *= rescale;
                    for (int j = js; j <= je; j++) {
                        float w = expf((raw[j - js] - bm) * sm_scale);
                        den += w;
                        for (int c = 0; c < D; c++) o[c] += w * vb[(size_t)j * D + c];
                    }
                    mx = bm;
                    for (int c = 0; c < D; c++) o[c] /= den;
                }
                float *orow = out + (bh * T + i) * D;
                for (int c = 0; c < D; c++) orow[c] = o[c];
                lse[bh * T + i] = mx * sm_scale + logf(den);
            }
        }
    }
}
