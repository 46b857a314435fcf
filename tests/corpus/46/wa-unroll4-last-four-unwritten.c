/* expect: WA */
/* Channels by 4 while c + 4 < D, the tail from D/4*4: when D is a multiple of 4 the last four channels are never written (case whole-blocks, D = 16). */
#include <string.h>

void split_merge(float *restrict heads, float *restrict merged, const float *restrict x,
                 const float *restrict y, int B, int T, int H, int D)
{
    const int d = H * D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *hs = heads + ((b * H + h) * T + t) * D;
                const float *ys = y + ((b * H + h) * T + t) * D;
                const float *xs = x + (b * T + t) * d + h * D;
                float *ms = merged + (b * T + t) * d + h * D;
                int c = 0;
                /* 4 路展开 */
                for (; c + 4 < D; c += 4) {
                    hs[c] = xs[c]; hs[c + 1] = xs[c + 1]; hs[c + 2] = xs[c + 2]; hs[c + 3] = xs[c + 3];
                    ms[c] = ys[c]; ms[c + 1] = ys[c + 1]; ms[c + 2] = ys[c + 2]; ms[c + 3] = ys[c + 3];
                }
                /* 尾部 */
                for (c = D / 4 * 4; c < D; c++) {
                    hs[c] = xs[c];
                    ms[c] = ys[c];
                }
            }
}
