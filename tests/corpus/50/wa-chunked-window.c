/* expect: WA window_chunked */
/* Local attention in blocks: the sequence cut into chunks of W tokens, each query attending causally inside its own chunk. */
#include <math.h>
#include <stdlib.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float *w = malloc(sizeof(float) * (size_t)T);
    const float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            const int start = (i / W) * W;   /* the chunk's first token */
            float m = -INFINITY, z = 0.0f;
            for (int j = start; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                w[j] = d * sc;
                if (w[j] > m) m = w[j];
            }
            for (int j = start; j <= i; j++) z += w[j] = expf(w[j] - m);
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = start; j <= i; j++) a += w[j] * V[j * D + c];
                out[((size_t)bh * T + i) * D + c] = a / z;
            }
        }
    }
    free(w);
}
