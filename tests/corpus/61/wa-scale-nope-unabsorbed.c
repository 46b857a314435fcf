/* expect: WA scale_nope_only */
/* Un-absorbed, scores divided by sqrt(d_nope) only. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* k_nope = c W_UK and v = c W_UV, made per head as the prefill path does. */
void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float *k = malloc(sizeof(float) * S * d_nope), *v = malloc(sizeof(float) * S * d_v);
    float *w = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int n = len[b];
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < d_nope; i++) {
                    float acc = 0.0f;
                    for (int l = 0; l < d_c; l++) acc += c[(b * S + j) * d_c + l] * w_uk[(h * d_c + l) * d_nope + i];
                    k[j * d_nope + i] = acc;
                }
                for (int e = 0; e < d_v; e++) {
                    float acc = 0.0f;
                    for (int l = 0; l < d_c; l++) acc += c[(b * S + j) * d_c + l] * w_uv[(h * d_c + l) * d_v + e];
                    v[j * d_v + e] = acc;
                }
            }
            const float *qn = q_nope + (b * H + h) * d_nope, *qr = q_pe + (b * H + h) * d_r;
            float mx = -INFINITY, z = 0.0f;
            for (int j = 0; j < n; j++) {
                float s = 0.0f;
                for (int i = 0; i < d_nope; i++) s += qn[i] * k[j * d_nope + i];
                for (int r = 0; r < d_r; r++) s += qr[r] * k_pe[(b * S + j) * d_r + r];
                w[j] = s / sqrtf((float)d_nope);
                if (w[j] > mx) mx = w[j];
            }
            for (int j = 0; j < n; j++) z += (w[j] = expf(w[j] - mx));
            for (int e = 0; e < d_v; e++) {
                float acc = 0.0f;
                for (int j = 0; j < n; j++) acc += w[j] * v[j * d_v + e];
                out[(b * H + h) * d_v + e] = acc / z;
            }
        }
    free(k);
    free(v);
    free(w);
}
