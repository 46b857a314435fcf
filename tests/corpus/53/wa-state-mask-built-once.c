/* expect: WA depends_on_earlier_calls */
/* Builds a 65 x 65 table of which key each query sees on the first call only, with that call's n_sink and window. */
#include <math.h>
#include <stdlib.h>

static unsigned char allowed[65][65];
static int allowed_ready;

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    int *idx = malloc(sizeof(int) * (size_t)T * 2);   /* the keys query i sees */
    float *w = malloc(sizeof(float) * (size_t)T * 2);
    if (!idx || !w) { free(idx); free(w); return; }
    const float rs = 1.0f / sqrtf((float)D);
    if (!allowed_ready) {   /* the mask is the same every time */
        for (int i = 0; i < 65; i++)
            for (int j = 0; j < 65; j++) allowed[i][j] = j <= i && (j < n_sink || j > i - window);
        allowed_ready = 1;
    }
    for (long bh = 0; bh < (long)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        float *ob = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            int n = 0;
            for (int j = 0; j <= i; j++)
                if (allowed[i][j]) idx[n++] = j;
            float mx = -INFINITY;
            for (int t = 0; t < n; t++) {
                const float *kr = kb + (long)idx[t] * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kr[c];
                w[t] = s * rs;
                mx = fmaxf(mx, w[t]);
            }
            double l = 0.0;
            for (int t = 0; t < n; t++) {
                w[t] = expf(w[t] - mx);
                l += w[t];
            }
            for (int c = 0; c < D; c++) {
                double a = 0.0;
                for (int t = 0; t < n; t++) a += (double)w[t] * vb[(long)idx[t] * D + c];
                ob[i * D + c] = (float)(a / l);
            }
        }
    }
    free(idx);
    free(w);
}
