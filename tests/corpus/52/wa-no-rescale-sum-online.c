/* expect: WA no_rescale_sum */
/* Online softmax in one pass over the cached keys: the accumulator is rescaled when the max grows, the running sum only has the new weight added. */
#include <math.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const int row = H * D;
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (long)b * S_max * row, *vc = v_cache + (long)b * S_max * row;
        const int n = len[b]++;
        memcpy(kc + (long)n * row, k + b * row, sizeof(float) * row);
        memcpy(vc + (long)n * row, v + b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            float acc[D], m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kj = kc + (long)j * row + h * D, *vj = vc + (long)j * row + h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[b * row + h * D + c] * kj[c];
                s *= 1.0f / sqrtf((float)D);
                float m2 = s > m ? s : m, corr = expf(m - m2), w = expf(s - m2);
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + w * vj[c];
                l = l + w;
                m = m2;
            }
            for (int c = 0; c < D; c++) out[b * row + h * D + c] = acc[c] / l;
        }
    }
}
