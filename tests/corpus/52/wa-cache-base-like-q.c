/* expect: WA cache_batch_stride_no_s */
/* One offset for everything: base = b*H*D, right for q, k, v and out, and
 * reused for the caches, whose sequences are S_max rows of H*D apart. */
#include <math.h>
#include <stdlib.h>

#define ROW(ptr, base, j, H, D) ((ptr) + (base) + (size_t)(j) * (H) * (D))

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    float *score = malloc(sizeof(float) * (size_t)S_max);
    for (int b = 0; b < B; b++) {
        size_t base = (size_t)b * H * D;          /* q, k, v, out: [B, H, D] */
        int n = len[b];
        for (int x = 0; x < H * D; x++) {         /* append the new token */
            ROW(k_cache, base, n, H, D)[x] = k[base + x];
            ROW(v_cache, base, n, H, D)[x] = v[base + x];
        }
        for (int h = 0; h < H; h++) {
            float top = -INFINITY, z = 0;
            for (int j = 0; j <= n; j++) {
                const float *kr = ROW(k_cache, base, j, H, D) + h * D;
                float s = 0;
                for (int c = 0; c < D; c++) s += q[base + h * D + c] * kr[c];
                score[j] = s / sqrtf((float)D);
                if (score[j] > top) top = score[j];
            }
            for (int j = 0; j <= n; j++) z += score[j] = expf(score[j] - top);
            for (int c = 0; c < D; c++) {
                float acc = 0;
                for (int j = 0; j <= n; j++) acc += score[j] * ROW(v_cache, base, j, H, D)[h * D + c];
                out[base + h * D + c] = acc / z;
            }
        }
        len[b] = n + 1;
    }
    free(score);
}
