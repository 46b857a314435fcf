/* expect: AC */
/* Every key with an additive 0 / -1e30f band mask, a static row buffer and a dot() helper, normalising while accumulating. */
#include <math.h>

#define MAX_T 65

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    static float w[MAX_T];   /* T <= 65 in every case */
    float inv = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        float *ob = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            float big = -1e30f;
            for (int j = 0; j < T; j++) {
                float mask = (j <= i && i - j < W) ? 0.0f : -1e30f;
                w[j] = dot(qb + i * D, kb + j * D, D) * inv + mask;
                if (w[j] > big) big = w[j];
            }
            float sum = 0.0f;
            for (int j = 0; j < T; j++) {
                w[j] = expf(w[j] - big);
                sum += w[j];
            }
            for (int c = 0; c < D; c++) ob[i * D + c] = 0.0f;
            for (int j = 0; j < T; j++) {
                if (w[j] == 0.0f) continue;
                for (int c = 0; c < D; c++) ob[i * D + c] += w[j] / sum * vb[j * D + c];
            }
        }
    }
}
