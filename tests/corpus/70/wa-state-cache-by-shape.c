/* expect: WA state_kept_between_calls */
/* Right, but keeps its last output in a static buffer and returns it again when B, H, T, D, W and G repeat. */
#include <math.h>
#include <string.h>

static float last[65536];
static int last_shape[6] = { -1 };

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    int shape[6] = { B, H, T, D, W, G };
    size_t n = (size_t)B * H * T * D;
    if (!memcmp(shape, last_shape, sizeof shape) && n <= 65536) {
        memcpy(out, last, n * sizeof(float));
        return;
    }
    unsigned char gl[4096] = { 0 };
    for (int g = 0; g < G; g++) gl[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float s[4096], mx = -INFINITY, l = 0.0f;
            for (int j = 0; j <= i; j++) {
                s[j] = -INFINITY;
                if (!(gl[i] || gl[j] || j > i - W)) continue;
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s[j] = d / sqrtf((float)D);
                if (s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= i; j++) l += s[j] = expf(s[j] - mx);
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j <= i; j++) a += s[j] * v[(bh * T + j) * D + c];
                out[(bh * T + i) * D + c] = a / l;
            }
        }
    if (n <= 65536) memcpy(last, out, n * sizeof(float));
    memcpy(last_shape, shape, sizeof shape);
}
