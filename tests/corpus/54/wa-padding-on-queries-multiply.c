/* expect: WA padding_on_keys_and_queries */
/* Multiplies each output row i by is_real(i) as well, the self-attention padding habit, for the queries that have a mask entry. */
#include <float.h>
#include <math.h>
#include <stddef.h>

static int is_real(const unsigned char *mask, int b, int j, int S)
{
    return mask == NULL || mask[b * S + j];
}

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    double w[S];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + ((b * H + h) * T + i) * D;
                float *oi = out + ((b * H + h) * T + i) * D;
                int n_real = 0;
                double top = -DBL_MAX;
                for (int j = 0; j < S; j++) {
                    if (!is_real(enc_mask, b, j, S)) continue;
                    const float *kj = k + ((b * H + h) * S + j) * D;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                    w[j] = s / sqrt((double)D);
                    if (w[j] > top) top = w[j];
                    n_real++;
                }
                if (n_real == 0) {   /* the whole encoder is padding */
                    for (int c = 0; c < D; c++) oi[c] = 0.0f;
                    continue;
                }
                double z = 0.0;
                for (int j = 0; j < S; j++)
                    if (is_real(enc_mask, b, j, S)) z += w[j] = exp(w[j] - top);
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j < S; j++)
                        if (is_real(enc_mask, b, j, S)) acc += w[j] * v[((b * H + h) * S + j) * D + c];
                    /* padded positions give no output either */
                    oi[c] = (float)(acc / z) * (i < S ? is_real(enc_mask, b, i, S) : 1);
                }
            }
}
