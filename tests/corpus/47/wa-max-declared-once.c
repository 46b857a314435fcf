/* expect: WA max_not_per_row */
/* The softmax max m is declared once before the batch loop and only ever raised, so a row whose scores sit below an earlier row's max is shifted too far and its exps underflow. */
#include <math.h>
#include <stddef.h>

static int key_visible(const unsigned char *mask, int b, int S, int T, int i, int j, int causal)
{
    if (mask && mask[b * S + j] == 0) return 0;
    if (causal && j - (S - T) > i) return 0;
    return 1;
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    const float inv = 1.0f / sqrtf((float)D);
    float m = -INFINITY;
    float w[S];
    double o[D];
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const float *K = k + (size_t)(b * H + h) * S * D;
            const float *V = v + (size_t)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + ((size_t)(b * H + h) * T + i) * D;
                float *oi = out + ((size_t)(b * H + h) * T + i) * D;
                int any = 0;
                for (int j = 0; j < S; j++) {
                    if (!key_visible(mask, b, S, T, i, j, causal)) { w[j] = -INFINITY; continue; }
                    const float *kj = K + (size_t)j * D;
                    float s = 0.0f;
                    for (int c = D - 1; c >= 0; c--) s += qi[c] * kj[c];
                    w[j] = s * inv;
                    if (w[j] > m) m = w[j];
                    any = 1;
                }
                for (int c = 0; c < D; c++) o[c] = 0.0;
                double z = 0.0;
                if (any) {
                    for (int j = 0; j < S; j++) {
                        if (w[j] == -INFINITY) continue;
                        float e = expf(w[j] - m);
                        z += e;
                        const float *vj = V + (size_t)j * D;
                        for (int c = 0; c < D; c++) o[c] += (double)e * vj[c];
                    }
                }
                for (int c = 0; c < D; c++) oi[c] = z > 0.0 ? (float)(o[c] / z) : 0.0f;
            }
        }
    }
}
