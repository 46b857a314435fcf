/* expect: WA sum_not_reset */
/* running sum l not reset per query row (declared and zeroed once above all loops); online softmax seeded from the first visible key, pointer arithmetic, dot() helper, fixed-size stack acc[] */
#include <math.h>
#include <string.h>

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    while (n--) s += *a++ * *b++;
    return s;
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float acc[64];
    float l = 0.0f;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qp = q + ((size_t)b * H + h) * T * D;
            const float *kbase = k + ((size_t)b * H + h) * S * D;
            const float *vbase = v + ((size_t)b * H + h) * S * D;
            float *op = out + ((size_t)b * H + h) * T * D;
            const unsigned char *mrow = mask ? mask + (size_t)b * S : NULL;
            for (int i = 0; i < T; i++, qp += D, op += D) {
                int limit = causal ? i + S - T : S - 1;
                int started = 0;
                float m = 0.0f;
                memset(acc, 0, sizeof(float) * D);
                const float *kp = kbase, *vp = vbase;
                for (int j = 0; j <= limit; j++, kp += D, vp += D) {
                    if (mrow && !mrow[j]) continue;
                    float s = dot(qp, kp, D) * scale;
                    if (!started) {
                        m = s;
                        started = 1;
                    } else if (s > m) {
                        float r = expf(m - s);
                        l *= r;
                        for (int c = 0; c < D; c++) acc[c] *= r;
                        m = s;
                    }
                    float e = expf(s - m);
                    l += e;
                    for (int c = 0; c < D; c++) acc[c] += e * vp[c];
                }
                if (!started) {
                    for (int c = 0; c < D; c++) op[c] = 0.0f;
                    continue;
                }
                for (int c = 0; c < D; c++) op[c] = acc[c] / l;
            }
        }
}
