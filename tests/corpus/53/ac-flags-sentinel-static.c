/* expect: AC */
/* Scores every key into a static row, masked to -1e30f unless causal and (in the window or a sink). */
#include <math.h>

static float sc[65];   /* T <= 65 */

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    const float inv = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qq = q + bh * T * D, *kk = k + bh * T * D, *vv = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            float mx = -1e30f;
            for (int j = 0; j < T; j++) {
                int in_win = i - j < window, is_sink = j < n_sink;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qq[i * D + c] * kk[j * D + c];
                sc[j] = s * inv;
                if (j > i || !(in_win || is_sink)) sc[j] = -1e30f;   /* masked */
                if (sc[j] > mx) mx = sc[j];
            }
            float sum = 0.0f;
            for (int j = 0; j < T; j++) sum += sc[j] = expf(sc[j] - mx);
            for (int c = 0; c < D; c++) {
                float o = 0.0f;
                for (int j = 0; j < T; j++) o += sc[j] * vv[j * D + c];
                out[(bh * T + i) * D + c] = o / sum;
            }
        }
    }
}
