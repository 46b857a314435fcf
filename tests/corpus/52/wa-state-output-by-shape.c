/* expect: WA state_kept_between_calls */
/* Appends and advances every call, but reuses the previous call's output when the shape is the same. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#define MEMO_MAX (5 * 4 * 17)

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const float scale = 1.0f / sqrtf((float)D);
    static float memo[MEMO_MAX];
    static int mB = -1, mS, mH, mD;
    int reuse = B == mB && S_max == mS && H == mH && D == mD;
    for (int b = 0; b < B; b++) {
        int n = len[b];
        /* append the new token at row n: all heads of one position are contiguous */
        for (int h = 0; h < H; h++)
            for (int c = 0; c < D; c++) {
                size_t at = (((size_t)b * S_max + n) * H + h) * D + c;
                k_cache[at] = k[(b * H + h) * D + c];
                v_cache[at] = v[(b * H + h) * D + c];
            }
        if (reuse) {   /* same shape as last time: same attention */
            memcpy(out + b * H * D, memo + b * H * D, sizeof(float) * H * D);
            len[b] = n + 1;
            continue;
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * D;
            float *o = out + (b * H + h) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= n; j++) {
                size_t at = (((size_t)b * S_max + j) * H + h) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * k_cache[at + c];
                s *= scale;
                float mn = s > m ? s : m;
                float corr = expf(m - mn), p = expf(s - mn);
                l = l * corr + p;
                for (int c = 0; c < D; c++) o[c] = o[c] * corr + p * v_cache[at + c];
                m = mn;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
        len[b] = n + 1;
    }
    if (!reuse && B * H * D <= MEMO_MAX) {
        memcpy(memo, out, sizeof(float) * B * H * D);
        mB = B, mS = S_max, mH = H, mD = D;
    }
}
