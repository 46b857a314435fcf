/* expect: WA acc_not_reset_per_dim */
/* The weighted-sum accumulator `acc` is zeroed once per (token, head), before
 * the loop over the output dims, so out[c] also carries dims 0 .. c-1. */
#include <math.h>
#include <stdlib.h>

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *w = malloc(sizeof(float) * (total + 1));
    float inv_sqrt_d = 1.0f / sqrtf((float)D);
    int seq = 0;

    /* walk the pack token by token; seq follows along */
    for (int t = 0; t < total; t++) {
        while (seq < B && cu_seqlens[seq + 1] <= t) seq++;
        int first = cu_seqlens[seq];
        int cnt = t - first + 1;               /* keys first .. t */

        for (int h = 0; h < H; h++) {
            const float *qt = q + ((long)t * H + h) * D;
            float mx = -INFINITY;
            for (int u = 0; u < cnt; u++) {
                w[u] = dot(qt, k + ((long)(first + u) * H + h) * D, D) * inv_sqrt_d;
                if (w[u] > mx) mx = w[u];
            }
            float sum = 0.0f;
            for (int u = 0; u < cnt; u++) {
                w[u] = expf(w[u] - mx);
                sum += w[u];
            }
            float acc = 0.0f;
            float *ot = out + ((long)t * H + h) * D;
            for (int c = 0; c < D; c++) {
                for (int u = 0; u < cnt; u++)
                    acc += w[u] * v[((long)(first + u) * H + h) * D + c];
                ot[c] = acc / sum;
            }
        }
    }
    free(w);
}
