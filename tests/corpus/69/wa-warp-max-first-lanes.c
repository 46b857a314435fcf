/* expect: WA */
/* One block per query, a 32-lane max where lane l looks only at key l (no stride of 32): past 32 tokens the max misses later keys, and large scores overflow expf (case long-large-scores). */
#include <math.h>
#include <stdlib.h>

#define WARP 32

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T);
    char *keep = malloc(T);
    for (int blockIdx = 0; blockIdx < B * H * T; blockIdx++) {
        int bh = blockIdx / T, i = blockIdx % T;
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * T * D, *V = v + (long)bh * T * D;
        /* 每个线程一个键：打分 */
        for (int j = 0; j <= i; j++) {
            float d = 0.0f;
            for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
            s[j] = d * scale;
        }
        /* 每个线程算自己的名次 */
        for (int j = 0; j <= i; j++) {
            int r = 0;
            for (int m = 0; m <= i; m++) r += (s[m] > s[j]) || (s[m] == s[j] && m < j);
            keep[j] = r < topk;
        }
        /* warp 内树形归约：保留键的最大分数 */
        float red[WARP];
        for (int lane = 0; lane < WARP; lane++)
            red[lane] = (lane <= i && keep[lane]) ? s[lane] : -INFINITY;
        for (int off = 16; off > 0; off >>= 1)
            for (int lane = 0; lane < off; lane++) red[lane] = fmaxf(red[lane], red[lane + off]);
        float mx = red[0];
        if (mx == -INFINITY) mx = 0.0f;
        float sum = 0.0f;
        for (int j = 0; j <= i; j++) if (keep[j]) sum += expf(s[j] - mx);
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int j = 0; j <= i; j++) if (keep[j]) acc += expf(s[j] - mx) * V[j * D + c];
            out[((long)bh * T + i) * D + c] = acc / sum;
        }
    }
    free(s);
    free(keep);
}
