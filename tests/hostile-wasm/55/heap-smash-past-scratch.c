/* expect: RE */
/* wasm cause: "past the end of its memory" */
/* 1 MiB of junk from the start of scratch, far past its n_scratch floats:
 * through the judge's guard and over the heap behind it; then a right answer.
 * Wrecking the heap is a runtime error (RE), on both backends. */
#include <string.h>
#include <math.h>

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    memset(scratch, 0x7f, 1 << 20);
    (void)n_scratch;
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *o = out + ((long)bh * T + i) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            int last = causal ? i + S - T : S - 1;
            for (int j = 0; j <= last; j++) {
                const float *kj = k + ((long)bh * S + j) * D, *vj = v + ((long)bh * S + j) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                s *= scale;
                float m_new = s > m ? s : m;
                float corr = expf(m - m_new), p = expf(s - m_new);
                for (int c = 0; c < D; c++) o[c] = o[c] * corr + p * vj[c];
                l = l * corr + p;
                m = m_new;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
            lse[(long)bh * T + i] = m + logf(l);
        }
}
