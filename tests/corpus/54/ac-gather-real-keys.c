/* expect: AC */
/* Gathers the indices of the real encoder tokens once per sequence, then attends over just those (VLA score and index arrays). */
#include <math.h>
#include <string.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    int idx[S];
    float sc[S];
    for (int b = 0; b < B; b++) {
        int n = 0;
        for (int j = 0; j < S; j++)
            if (!enc_mask || enc_mask[b * S + j]) idx[n++] = j;
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                float *o = out + ((b * H + h) * T + i) * D;
                memset(o, 0, sizeof(float) * D);
                if (n == 0) continue;   /* nothing to attend to */
                float mx = -INFINITY, z = 0.0f;
                for (int m = 0; m < n; m++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += q[((b * H + h) * T + i) * D + c] * k[((b * H + h) * S + idx[m]) * D + c];
                    sc[m] = s / sqrtf((float)D);
                    mx = fmaxf(mx, sc[m]);
                }
                for (int m = 0; m < n; m++) z += (sc[m] = expf(sc[m] - mx));
                for (int m = 0; m < n; m++)
                    for (int c = 0; c < D; c++)
                        o[c] += sc[m] / z * v[((b * H + h) * S + idx[m]) * D + c];
            }
    }
}
