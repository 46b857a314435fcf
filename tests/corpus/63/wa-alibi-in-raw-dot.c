/* expect: WA alibi_before_scale */
/* 偏置在缩放之前就加到了 q·k 上：(q·k + m(j - pos)) / sqrt(D)，然后再截断。
 * The bias is folded into the dot product, so it is scaled (and capped)
 * with it. An online softmax, one pass over the keys. */
#include <math.h>
#include <stddef.h>

static float slope_of(int h, int H) { return exp2f(-8.0f * (float)(h + 1) / (float)H); }

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    const float inv_sqrt = 1.0f / sqrtf((float)D);
    float acc[512];   /* D is at most 512 here */
    for (int bh = 0; bh < B * H; bh++) {
        const int h = bh % H;
        const float m = alibi ? slope_of(h, H) : 0.0f;
        const float *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            const int pos = S - T + i;
            float run_max = -INFINITY, run_sum = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = 0; j <= pos; j++) {
                float dot = m * (float)(j - pos);      /* the slip: bias first */
                for (int c = 0; c < D; c++) dot += qi[c] * K[(size_t)j * D + c];
                float s = dot * inv_sqrt;
                if (cap > 0) s = cap * tanhf(s / cap);
                float nm = fmaxf(run_max, s), fix = expf(run_max - nm), e = expf(s - nm);
                run_sum = run_sum * fix + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * fix + e * V[(size_t)j * D + c];
                run_max = nm;
            }
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = acc[c] / run_sum;
        }
    }
}
