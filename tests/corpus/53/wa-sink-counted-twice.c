/* expect: WA sink_counted_twice */
/* Two loops, one over the sinks and one over the window: a key in both gets its weight twice in the sum. */
#include <math.h>
#include <stdlib.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    int *idx = malloc(sizeof(int) * 2 * T);
    float *w = malloc(sizeof(float) * 2 * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            int n = 0;
            for (int j = 0; j < n_sink && j <= i; j++) idx[n++] = j;          /* the sinks */
            for (int j = i - window + 1; j <= i; j++) if (j >= 0) idx[n++] = j; /* the window */
            float max = -INFINITY, sum = 0.0f;
            for (int m = 0; m < n; m++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[idx[m] * D + c];
                w[m] = s / sqrtf((float)D);
                if (w[m] > max) max = w[m];
            }
            for (int m = 0; m < n; m++) sum += (w[m] = expf(w[m] - max));
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int m = 0; m < n; m++) acc += w[m] * vb[idx[m] * D + c];
                out[(bh * T + i) * D + c] = acc / sum;
            }
        }
    }
    free(idx);
    free(w);
}
