/* expect: WA depends_on_earlier_calls */
/* Marks the global flags in a static array only when the shape (B, H, T, D, W, G) changes: a later call of the same shape with new positions keeps the old ones. The outputs are new, so nothing names it as a cached answer. */
#include <math.h>

static unsigned char flags[4096];
static int marked[6] = { -1 };

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    int shape[6] = { B, H, T, D, W, G }, same = 1;
    for (int x = 0; x < 6; x++) same &= shape[x] == marked[x];
    if (!same) {
        for (int t = 0; t < T; t++) flags[t] = 0;
        for (int g = 0; g < G; g++) flags[global_idx[g]] = 1;
        for (int x = 0; x < 6; x++) marked[x] = shape[x];
    }
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float s[4096], mx = -INFINITY, l = 0.0f;
            for (int j = 0; j <= i; j++) {
                s[j] = -INFINITY;
                if (!(flags[i] || flags[j] || j > i - W)) continue;
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
}
