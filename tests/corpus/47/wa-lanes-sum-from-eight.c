/* expect: WA warp_sum_half_lanes */
/* Rehearsing a CUDA kernel on the CPU: one "warp" of 32 lanes per query,
 * lane l takes keys l, l + 32, ...; the max is reduced from offset 16 but
 * the sum's reduction was copied from a 16-lane version and starts at 8. */
#include <math.h>
#include <stdlib.h>

#define WARP 32

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    float red[WARP];
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H;
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            for (int lane = 0; lane < WARP; lane++) {
                float m = -INFINITY;
                for (int j = lane; j < S; j += WARP) {
                    int ok = (!mask || mask[b * S + j]) && (!causal || j <= i + S - T);
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    p[j] = ok ? s * scale : -INFINITY;
                    m = fmaxf(m, p[j]);
                }
                red[lane] = m;
            }
            for (int off = WARP / 2; off > 0; off /= 2)
                for (int lane = 0; lane < off; lane++) red[lane] = fmaxf(red[lane], red[lane + off]);
            float m = red[0];
            for (int lane = 0; lane < WARP; lane++) {
                float s = 0.0f;
                for (int j = lane; j < S; j += WARP) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - m);
                    s += p[j];
                }
                red[lane] = s;
            }
            for (int off = 8; off > 0; off /= 2)
                for (int lane = 0; lane < off; lane++) red[lane] += red[lane + off];
            float l = red[0];
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < S; j++) acc += p[j] * V[j * D + c];
                out[((size_t)bh * T + i) * D + c] = l > 0.0f ? acc / l : 0.0f;
            }
        }
    }
    free(p);
}
