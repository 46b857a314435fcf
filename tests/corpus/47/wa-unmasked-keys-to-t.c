/* expect: WA keys_counted_as_queries */
/* Keys counted once per query: i + S - T + 1 when causal, but T (the queries' count) when not. */
#include <math.h>
#include <stdlib.h>

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    double *w = malloc(sizeof *w * (size_t)S);
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            double mx = -INFINITY, sum = 0.0;
            const int nk = causal ? i + S - T + 1 : T;
            for (int j = 0; j < nk; j++) {
                int ok = !mask || mask[b * S + j];
                w[j] = ok ? dot(qi, k + ((size_t)bh * S + j) * D, D) / sqrt((double)D) : -INFINITY;
                if (w[j] > mx) mx = w[j];
            }
            for (int j = 0; j < nk; j++) {
                w[j] = w[j] == -INFINITY ? 0.0 : exp(w[j] - mx);
                sum += w[j];
            }
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j < nk; j++) acc += w[j] * v[((size_t)bh * S + j) * D + c];
                o[c] = sum > 0.0 ? (float)(acc / sum) : 0.0f;
            }
        }
    }
    free(w);
}
