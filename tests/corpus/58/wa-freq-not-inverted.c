/* expect: WA freq_not_inverted */
/* Decode step with a rotate helper in float that takes the frequency as powf(theta, 2.0f * i / D), the exponent's minus sign lost, for both the query and the new key. */
#include <math.h>
#include <string.h>

static void rotate(float *x, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        float f = powf((float)theta, 2.0f * i / D);
        float c = cosf(pos * f), s = sinf(pos * f);
        float a = x[i], b = x[i + half];
        x[i] = a * c - b * s;
        x[i + half] = b * c + a * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int row = H * D;
    float qt[row];
    float w[S_max];
    for (int b = 0; b < B; b++) {
        int pos = len[b];
        float *kc = k_cache + (size_t)b * S_max * row;
        float *vc = v_cache + (size_t)b * S_max * row;
        memcpy(qt, q + (size_t)b * row, sizeof qt);
        memcpy(kc + (size_t)pos * row, k + (size_t)b * row, sizeof(float) * row);
        memcpy(vc + (size_t)pos * row, v + (size_t)b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            rotate(qt + h * D, D, pos, theta);
            rotate(kc + (size_t)pos * row + h * D, D, pos, theta);
        }
        for (int h = 0; h < H; h++) {
            float best = -INFINITY;
            for (int j = 0; j <= pos; j++) {
                float d = 0;
                for (int c = 0; c < D; c++) d += qt[h * D + c] * kc[(size_t)j * row + h * D + c];
                w[j] = d / sqrtf(D);
                best = w[j] > best ? w[j] : best;
            }
            double total = 0;
            for (int j = 0; j <= pos; j++) total += (w[j] = expf(w[j] - best));
            for (int c = 0; c < D; c++) {
                double acc = 0;
                for (int j = 0; j <= pos; j++) acc += w[j] * vc[(size_t)j * row + h * D + c];
                out[(size_t)b * row + h * D + c] = (float)(acc / total);
            }
        }
        len[b] = pos + 1;
    }
}
