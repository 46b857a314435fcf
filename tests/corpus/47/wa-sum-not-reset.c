/* expect: WA sum_not_reset+nan_empty_row */
/* One scratch row; the running sum is declared once at the top with the buffers and never set back to 0, and a row with no real key is not guarded (its NaN then stays in the sum). */
#include <math.h>
void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float w[1024], sum = 0.0f;
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY;
            for (int j = 0; j < S; j++) {
                float s = -INFINITY;
                if (!(causal && j > i + S - T) && !(mask && !mask[b * S + j])) {
                    s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[((long)bh * T + i) * D + c] * k[((long)bh * S + j) * D + c];
                    s *= scale;
                }
                w[j] = s;
                if (s > m) m = s;
            }
            for (int j = 0; j < S; j++) sum += w[j] = expf(w[j] - m);
            for (int c = 0; c < D; c++) {
                float o = 0.0f;
                for (int j = 0; j < S; j++) o += w[j] * v[((long)bh * S + j) * D + c];
                out[((long)bh * T + i) * D + c] = o / sum;
            }
        }
    }
}
