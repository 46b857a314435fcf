/* expect: WA cache_rows_off_by_one */
/* Absorbed, two passes; the key loop stops at len[b] - 1, leaving the last cached row out. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float scale = 1.0f / sqrtf((float)(d_nope + d_r));
    float *qlat = malloc(sizeof(float) * d_c);
    float *olat = malloc(sizeof(float) * d_c);
    float *sc = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++) {
        int n = len[b] > 1 ? len[b] - 1 : 1;
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + (b * H + h) * d_nope;
            const float *qr = q_pe + (b * H + h) * d_r;
            for (int l = 0; l < d_c; l++) {
                float a = 0.0f;
                for (int i = 0; i < d_nope; i++)
                    a += w_uk[(h * d_c + l) * d_nope + i] * qn[i];
                qlat[l] = a;
            }
            float mx = -INFINITY;
            for (int j = 0; j < n; j++) {
                const float *cj = c + (b * S + j) * d_c;
                const float *kj = k_pe + (b * S + j) * d_r;
                float s = 0.0f;
                for (int l = 0; l < d_c; l++) s += qlat[l] * cj[l];
                for (int r = 0; r < d_r; r++) s += qr[r] * kj[r];
                sc[j] = s * scale;
                if (sc[j] > mx) mx = sc[j];
            }
            float sum = 0.0f;
            for (int l = 0; l < d_c; l++) olat[l] = 0.0f;
            for (int j = 0; j < n; j++) {
                float p = expf(sc[j] - mx);
                sum += p;
                const float *cj = c + (b * S + j) * d_c;
                for (int l = 0; l < d_c; l++) olat[l] += p * cj[l];
            }
            for (int v = 0; v < d_v; v++) {
                float a = 0.0f;
                for (int l = 0; l < d_c; l++) a += olat[l] * w_uv[(h * d_c + l) * d_v + v];
                out[(b * H + h) * d_v + v] = a / sum;
            }
        }
    }
    free(qlat); free(olat); free(sc);
}
