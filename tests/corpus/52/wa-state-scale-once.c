/* expect: WA depends_on_earlier_calls */
/* Computes 1/sqrt(D) once into a static on the first call and keeps it for every later D. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* row `pos` of head h in sequence b of a [B, S_max, H, D] cache */
static float *cache_at(float *cache, int b, int pos, int h, int S_max, int H, int D)
{
    return cache + (((size_t)b * S_max + pos) * H + h) * D;
}

static float dot(const float *x, const float *y, int D)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += x[c] * y[c];
    return s;
}

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    float *w = malloc(sizeof(float) * (size_t)S_max);
    if (!w) return;
    static float scale = 0.0f;
    if (scale == 0.0f) scale = 1.0f / sqrtf((float)D);   /* computed on the first call */
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qv = q + ((size_t)b * H + h) * D;
            const float *kn = k + ((size_t)b * H + h) * D, *vn = v + ((size_t)b * H + h) * D;
            /* the n cached keys, then the new one, not in the cache yet */
            for (int j = 0; j < n; j++) w[j] = scale * dot(qv, cache_at(k_cache, b, j, h, S_max, H, D), D);
            w[n] = scale * dot(qv, kn, D);
            float mx = w[0];
            for (int j = 1; j <= n; j++) mx = fmaxf(mx, w[j]);
            float l = 0.0f;
            for (int j = 0; j <= n; j++) l += w[j] = expf(w[j] - mx);
            float *o = out + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) o[c] = w[n] * vn[c];
            for (int j = 0; j < n; j++) {
                const float *vr = cache_at(v_cache, b, j, h, S_max, H, D);
                for (int c = 0; c < D; c++) o[c] += w[j] * vr[c];
            }
            for (int c = 0; c < D; c++) o[c] /= l;
            memcpy(cache_at(k_cache, b, n, h, S_max, H, D), kn, sizeof(float) * D);
            memcpy(cache_at(v_cache, b, n, h, S_max, H, D), vn, sizeof(float) * D);
        }
        len[b] = n + 1;
    }
    free(w);
}
