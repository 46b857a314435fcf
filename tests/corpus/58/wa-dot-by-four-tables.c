/* expect: WA dot_tail_dropped */
/* The score q . k is unrolled by 4 with no loop for the rest, so when D is not a multiple of 4 its last D % 4 dims never count. */
#include <math.h>
#include <stdlib.h>

static float dot4(const float *a, const float *b, int n)
{
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (int c = 0; c + 3 < n; c += 4) {
        s0 += a[c] * b[c];
        s1 += a[c + 1] * b[c + 1];
        s2 += a[c + 2] * b[c + 2];
        s3 += a[c + 3] * b[c + 3];
    }
    return (s0 + s1) + (s2 + s3);
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    const int half = D / 2, stride = H * D;
    const float scale = 1.0f / sqrtf((float)D);
    float *cosv = malloc(sizeof(float) * half), *sinv = malloc(sizeof(float) * half);
    float *qt = malloc(sizeof(float) * D), *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int i = 0; i < half; i++) {
            float ang = (float)n * powf((float)theta, -(float)(2 * i) / (float)D);
            cosv[i] = cosf(ang);
            sinv[i] = sinf(ang);
        }
        float *krow = k_cache + ((size_t)b * S_max + n) * stride;
        float *vrow = v_cache + ((size_t)b * S_max + n) * stride;
        for (int h = 0; h < H; h++) {
            const float *qs = q + (size_t)b * stride + h * D;
            const float *ks = k + (size_t)b * stride + h * D;
            const float *vs = v + (size_t)b * stride + h * D;
            float *kd = krow + h * D;
            for (int i = 0; i < half; i++) {
                kd[i] = ks[i] * cosv[i] - ks[i + half] * sinv[i];
                kd[i + half] = ks[i + half] * cosv[i] + ks[i] * sinv[i];
                qt[i] = qs[i] * cosv[i] - qs[i + half] * sinv[i];
                qt[i + half] = qs[i + half] * cosv[i] + qs[i] * sinv[i];
            }
            for (int c = 0; c < D; c++) vrow[h * D + c] = vs[c];

            float top = -INFINITY;
            for (int j = 0; j <= n; j++) {
                w[j] = scale * dot4(qt, k_cache + ((size_t)b * S_max + j) * stride + h * D, D);
                top = fmaxf(top, w[j]);
            }
            float total = 0.0f;
            for (int j = 0; j <= n; j++) total += (w[j] = expf(w[j] - top));
            float *o = out + (size_t)b * stride + h * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *vj = v_cache + ((size_t)b * S_max + j) * stride + h * D;
                float pj = w[j] / total;
                for (int c = 0; c < D; c++) o[c] += pj * vj[c];
            }
        }
        len[b] = n + 1;
    }
    free(cosv); free(sinv); free(qt); free(w);
}
