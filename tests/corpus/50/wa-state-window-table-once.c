/* expect: WA depends_on_earlier_calls */
/* Builds the table of each query's first key once, on the first call, and reuses it for every later T and W. */
#include <math.h>
#include <stddef.h>

static int first_key[65];
static int table_ready = 0;

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const float scale = 1.0f / sqrtf((float)D);
    if (!table_ready) {   /* the window does not change, so compute it once */
        for (int i = 0; i < 65; i++) first_key[i] = i - W + 1 < 0 ? 0 : i - W + 1;
        table_ready = 1;
    }
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            const float *Q = q + base, *K = k + base, *V = v + base;
            float *O = out + base;
            for (int i = 0; i < T; i++) {
                const float *qi = Q + i * D;
                float *oi = O + i * D;
                float m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; c++) oi[c] = 0.0f;
                int lo = first_key[i];
                for (int j = lo; j <= i; j++) {
                    const float *kj = K + j * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                    s *= scale;
                    /* online softmax: rescale what is summed so far when the max grows */
                    float m_new = s > m ? s : m;
                    float alpha = expf(m - m_new);
                    float p = expf(s - m_new);
                    l = l * alpha + p;
                    for (int c = 0; c < D; c++) oi[c] = oi[c] * alpha + p * V[j * D + c];
                    m = m_new;
                }
                for (int c = 0; c < D; c++) oi[c] /= l;
            }
        }
    }
}
