/* expect: WA max_starts_at_zero */
/* Rank counting in float with malloc'd score and keep arrays, two passes over the kept keys; the max of the kept scores starts at 0 instead of -INFINITY. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *s = malloc(sizeof(float) * T);
    char *keep = malloc(T);
    float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)b * H + h) * T * D;
            const float *K = k + ((size_t)b * H + h) * T * D;
            const float *V = v + ((size_t)b * H + h) * T * D;
            float *O = out + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                for (int j = 0; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                    s[j] = d * inv;
                }
                for (int j = 0; j <= i; j++) {
                    int ahead = 0;
                    for (int m = 0; m <= i; m++)
                        if (s[m] > s[j] || (s[m] == s[j] && m < j)) ahead++;
                    keep[j] = ahead < topk;
                }
                float mx = 0;
                for (int j = 0; j <= i; j++)
                    if (keep[j] && s[j] > mx) mx = s[j];
                float z = 0;
                for (int j = 0; j <= i; j++)
                    if (keep[j]) z += expf(s[j] - mx);
                for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int j = 0; j <= i; j++)
                        if (keep[j]) a += expf(s[j] - mx) * V[j * D + c];
                    O[i * D + c] = a / z;
                }
            }
        }
    free(s);
    free(keep);
}
