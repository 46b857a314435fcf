/* expect: WA dot_last_block_skipped */
/* The dot unrolled by four for speed; the main loop runs while c + 4 < D and the rest starts at D / 4 * 4, so a D that is a multiple of 4 loses its last four dims */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * T * D;
            const float *kh = k + (b * H + h) * S * D;
            const float *vh = v + (b * H + h) * S * D;
            float *oh = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                /* The T queries are the last T of the S positions. */
                float max = -INFINITY;
                for (int j = 0; j < S; j++) {
                    int seen = (!mask || mask[b * S + j]) && (!causal || j <= i + S - T);
                    float s = 0.0f;
                    const float *a = qh + i * D, *kb = kh + j * D;
                    int c = 0;
                    for (; c + 4 < D; c += 4)
                        s += a[c] * kb[c] + a[c + 1] * kb[c + 1] + a[c + 2] * kb[c + 2] + a[c + 3] * kb[c + 3];
                    for (c = D / 4 * 4; c < D; c++) s += a[c] * kb[c];
                    p[j] = seen ? s * scale : -INFINITY;
                    if (p[j] > max) max = p[j];
                }
                float sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += p[j] * vh[j * D + c];
                    oh[i * D + c] = sum > 0.0f ? acc / sum : 0.0f;   /* no key seen: zeros */
                }
            }
        }
    free(p);
}
