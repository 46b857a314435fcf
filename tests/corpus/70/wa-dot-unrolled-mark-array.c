/* expect: WA dot_tail_dropped */
/* The q . k dot product is unrolled by 4 and has no loop for the leftover dims, so D % 4 of them are dropped from every score. */
#include <math.h>
#include <string.h>

static float score_of(const float *a, const float *b, int d)
{
    float acc = 0.0f;
    const float *end = a + (d & ~3);
    while (a < end) {
        acc += a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        a += 4;
        b += 4;
    }
    return acc;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    const float sc = 1.0f / sqrtf((float)D);
    unsigned char is_global[T > 0 ? T : 1];
    int list[T > 0 ? T : 1];
    float w[T > 0 ? T : 1];
    memset(is_global, 0, sizeof is_global);
    for (const int *g = global_idx; g < global_idx + G; g++) is_global[*g] = 1;

    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (size_t)bh * T * D, *kb = k + (size_t)bh * T * D;
        const float *vb = v + (size_t)bh * T * D;
        float *ob = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            /* collect the keys query i sees, in order, each once */
            int n = 0;
            for (int j = 0; j <= i; j++)
                if (is_global[i] || is_global[j] || j > i - W) list[n++] = j;
            float mx = -INFINITY;
            for (int a = 0; a < n; a++) {
                w[a] = score_of(qb + (size_t)i * D, kb + (size_t)list[a] * D, D) * sc;
                if (w[a] > mx) mx = w[a];
            }
            float tot = 0.0f;
            for (int a = 0; a < n; a++) tot += (w[a] = expf(w[a] - mx));
            for (int c = 0; c < D; c++) {
                float s = 0.0f;
                for (int a = 0; a < n; a++) s += w[a] * vb[(size_t)list[a] * D + c];
                ob[(size_t)i * D + c] = s / tot;
            }
        }
    }
}
