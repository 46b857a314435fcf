/* expect: WA loop_breaks_at_padding */
/* An online softmax whose key loop ends at the first padded key ("the rest is
 * padding"): with padding on the left, or a hole in the mask, the real keys
 * after it are never seen. */
#include <math.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H;
        const float *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *o = out + ((long)bh * T + i) * D;
            int last = causal ? i + S - T : S - 1;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= last; j++) {
                if (mask && !mask[(long)b * S + j]) break;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qi[c] * K[(long)j * D + c];
                s *= scale;
                float m2 = s > m ? s : m, a = expf(m - m2), e = expf(s - m2);
                l = l * a + e;
                for (int c = 0; c < D; c++) o[c] = o[c] * a + e * V[(long)j * D + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) o[c] = l > 0.0f ? o[c] / l : 0.0f;
        }
    }
}
