/* expect: WA scale_after_softmax */
/* Double-precision softmax on the unscaled scores, followed by a final pass that multiplies all of probs by 1/sqrt(D). */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    double *e = malloc(sizeof(double) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                size_t r = ((size_t)b * H + h) * T + i;
                double m = -HUGE_VAL, z = 0.0;
                for (int j = 0; j < S; j++) {
                    if (causal && j - (S - T) > i) { e[j] = -HUGE_VAL; continue; }
                    double s = 0.0;
                    for (int c = 0; c < D; c++)
                        s += (double)q[r * D + c] * k[(((size_t)b * H + h) * S + j) * D + c];
                    e[j] = s;
                    if (s > m) m = s;
                }
                for (int j = 0; j < S; j++) { e[j] = exp(e[j] - m); z += e[j]; }
                for (int j = 0; j < S; j++) probs[r * S + j] = (float)(e[j] / z);
            }
    free(e);

    /* temperature 1/sqrt(d_k) */
    float t = 1.0f / sqrtf((float)D);
    for (long n = 0; n < (long)B * H * T * S; n++) probs[n] *= t;
    for (long r = 0; r < (long)B * H * T; r++) sink[r] = probs[r * S];
}
