/* expect: WA acc_not_reset */
/* Store, then attend head by head into an accumulator row o[] zeroed once at the top: every head's output carries the heads before it. */
#include <math.h>
#include <stddef.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    float w[4096], o[512] = { 0 };
    for (int b = 0; b < B; b++) {
        int L = len[b];
        for (int e = 0; e < H * D; e++) {
            k_cache[((size_t)b * S_max + L) * H * D + e] = k[b * H * D + e];
            v_cache[((size_t)b * S_max + L) * H * D + e] = v[b * H * D + e];
        }
        for (int h = 0; h < H; h++) {
            float best = -INFINITY, total = 0.0f;
            for (int j = 0; j <= L; j++) {
                const float *kj = k_cache + ((size_t)b * S_max + j) * H * D + h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[(b * H + h) * D + c] * kj[c];
                w[j] = s / sqrtf((float)D);
                if (w[j] > best) best = w[j];
            }
            for (int j = 0; j <= L; j++) {
                w[j] = expf(w[j] - best);
                total += w[j];
            }
            for (int c = 0; c < D; c++) {
                for (int j = 0; j <= L; j++) o[c] += w[j] * v_cache[((size_t)b * S_max + j) * H * D + h * D + c];
                out[(b * H + h) * D + c] = o[c] / total;
            }
        }
        len[b] = L + 1;
    }
}
