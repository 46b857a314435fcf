/* expect: WA */
/* A T == 1 fast path ("decode: the one query sees every key") that forgets the padding mask, so a lone query also attends to padded keys. */
#include <math.h>
#include <stdlib.h>

static float dot(const float *a, const float *b, int D)
{
    float s = 0.0f;
    int c = 0;
    for (; c + 4 <= D; c += 4)
        s += a[c] * b[c] + a[c + 1] * b[c + 1] + a[c + 2] * b[c + 2] + a[c + 3] * b[c + 3];
    for (; c < D; c++) s += a[c] * b[c];
    return s;
}

/* one query against keys 0 .. n-1, online softmax; vis == NULL: all of them */
static void attend(float *o, const float *qi, const float *K, const float *V,
                   const unsigned char *vis, int n, int D, float scale)
{
    float m = -INFINITY, l = 0.0f;
    for (int c = 0; c < D; c++) o[c] = 0.0f;
    for (int j = 0; j < n; j++) {
        if (vis && !vis[j]) continue;
        float s = dot(qi, K + (size_t)j * D, D) * scale;
        if (s > m) {
            float corr = expf(m - s);
            l *= corr;
            for (int c = 0; c < D; c++) o[c] *= corr;
            m = s;
        }
        float p = expf(s - m);
        l += p;
        const float *vj = V + (size_t)j * D;
        for (int c = 0; c < D; c++) o[c] += p * vj[c];
    }
    float inv = l > 0.0f ? 1.0f / l : 0.0f;
    for (int c = 0; c < D; c++) o[c] *= inv;
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const unsigned char *mb = mask ? mask + (size_t)b * S : NULL;
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            const float *K = k + bh * S * D, *V = v + bh * S * D;
            if (T == 1) {   /* decode: the one query sees every key */
                attend(out + bh * D, q + bh * D, K, V, NULL, S, D, scale);
                continue;
            }
            for (int i = 0; i < T; i++) {
                int n = causal ? i + S - T + 1 : S;
                attend(out + (bh * T + i) * D, q + (bh * T + i) * D, K, V, mb, n, D, scale);
            }
        }
    }
}
