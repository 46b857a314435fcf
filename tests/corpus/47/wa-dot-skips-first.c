/* expect: WA */
/* An unrelated off-by-one: the dot product starts at feature 1, so every
 * score misses its first term. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof *w * S);
    float rs = 1.0f / sqrtf((float)D);
    const float *qp = q;
    float *op = out;
    for (int b = 0; b < B; b++) {
        const unsigned char *keep = mask ? mask + b * S : NULL;
        for (int h = 0; h < H; h++) {
            const float *kh = k + ((size_t)b * H + h) * S * D;
            const float *vh = v + ((size_t)b * H + h) * S * D;
            for (int i = 0; i < T; i++, qp += D, op += D) {
                int last = causal ? i + S - T : S - 1;   /* last key in sight */
                float best = -FLT_MAX;
                int seen = 0;
                for (int j = 0; j <= last; j++) {
                    if (keep && !keep[j]) continue;
                    const float *kp = kh + j * D;
                    float s = 0.0f;
                    for (const float *a = qp + 1, *kk = kp + 1; a < qp + D; a++, kk++) s += *a * *kk;
                    w[j] = s * rs;
                    if (w[j] > best) best = w[j];
                    seen++;
                }
                for (int c = 0; c < D; c++) op[c] = 0.0f;
                if (!seen) continue;
                float z = 0.0f;
                for (int j = 0; j <= last; j++) {
                    if (keep && !keep[j]) continue;
                    w[j] = expf(w[j] - best);
                    z += w[j];
                }
                for (int j = 0; j <= last; j++) {
                    if (keep && !keep[j]) continue;
                    const float *vp = vh + j * D;
                    for (int c = 0; c < D; c++) op[c] += w[j] / z * vp[c];
                }
            }
        }
    }
    free(w);
}
