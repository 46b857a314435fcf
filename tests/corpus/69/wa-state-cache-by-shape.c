/* expect: WA state_kept_between_calls */
/* Right, but remembers its last output and returns it again when B, H, T, D and topk repeat. */
#include <math.h>
#include <string.h>

static float last[65536];
static int last_shape[5] = { -1 };

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    int shape[5] = { B, H, T, D, topk };
    size_t n = (size_t)B * H * T * D;
    if (!memcmp(shape, last_shape, sizeof shape) && n <= 65536) {
        memcpy(out, last, n * sizeof(float));
        return;
    }
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float s[4096], mx = -INFINITY, l = 0.0f;
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s[j] = d / sqrtf((float)D);
            }
            unsigned char keep[4096];
            for (int j = 0; j <= i; j++) {
                int r = 0;
                for (int m = 0; m <= i; m++) r += s[m] > s[j] || (s[m] == s[j] && m < j);
                keep[j] = r < topk;
                if (keep[j] && s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= i; j++) if (keep[j]) l += expf(s[j] - mx);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++) if (keep[j]) acc += expf(s[j] - mx) * v[(bh * T + j) * D + c];
                out[(bh * T + i) * D + c] = acc / l;
            }
        }
    if (n <= 65536) memcpy(last, out, n * sizeof(float));
    memcpy(last_shape, shape, sizeof shape);
}
