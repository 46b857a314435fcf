/* expect: WA keys_read_at_local_index */
/* A sliced sequence: k read at the local index j, v at start + j. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (total > 0 ? total : 1));
    for (int b = 0; b < B; b++) {
        int start = cu_seqlens[b];
        int n = cu_seqlens[b + 1] - start;
        for (int i = 0; i < n; i++) {          /* i：序列内的相对位置 */
            int t = start + i;
            for (int h = 0; h < H; h++) {
                float mx = -INFINITY;
                for (int j = 0; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += q[((size_t)t * H + h) * D + c] * k[((size_t)j * H + h) * D + c];
                    p[j] = s * scale;
                    if (p[j] > mx) mx = p[j];
                }
                float sum = 0.0f;
                for (int j = 0; j <= i; j++) sum += (p[j] = expf(p[j] - mx));
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= i; j++) acc += p[j] * v[((size_t)(start + j) * H + h) * D + c];
                    out[((size_t)t * H + h) * D + c] = acc / sum;
                }
            }
        }
    }
    free(p);
}
