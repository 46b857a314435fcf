/* expect: WA state_kept_between_calls */
/* Returns the previous output again when B, H, T, D, n_sink and window are those of the last call. */
#include <math.h>

#include <string.h>

static float sc[65];   /* T <= 65 */
static float prev[3 * 4 * 65 * 17];
static int prev_shape[6] = { -1 };

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    int shape[6] = { B, H, T, D, n_sink, window };
    size_t n_out = (size_t)B * H * T * D;
    if (memcmp(shape, prev_shape, sizeof shape) == 0) {   /* asked before */
        memcpy(out, prev, n_out * sizeof(float));
        return;
    }
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
    if (n_out <= sizeof prev / sizeof prev[0]) {
        memcpy(prev, out, n_out * sizeof(float));
        memcpy(prev_shape, shape, sizeof shape);
    }
}
