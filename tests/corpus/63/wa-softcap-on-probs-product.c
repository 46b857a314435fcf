/* expect: WA softcap_on_probs */
/* Three passes whose cap is applied to the weights after they are normalised. */
#include <math.h>
#include <stdlib.h>

/* The slopes by repeated multiplication: r = 2^(-8/H), head h's slope is
 * r^(h+1); three passes with a malloc'd row. */
void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float *sl = malloc(sizeof(float) * H), *w = malloc(sizeof(float) * S);
    float r = powf(2.0f, -8.0f / H), x = r;
    for (int h = 0; h < H; h++, x *= r) sl[h] = alibi ? x : 0.0f;
    float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + (((size_t)b * H + h) * T + i) * D;
                const float *kb = k + ((size_t)b * H + h) * S * D, *vb = v + ((size_t)b * H + h) * S * D;
                int last = i + S - T;
                float mx = -INFINITY, tot = 0.0f;
                for (int j = 0; j <= last; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kb[(size_t)j * D + c];
                    s *= inv;
                    w[j] = s - sl[h] * (last - j);
                    mx = w[j] > mx ? w[j] : mx;
                }
                for (int j = 0; j <= last; j++) tot += (w[j] = expf(w[j] - mx));
                for (int j = 0; j <= last; j++) w[j] = cap > 0 ? cap * tanhf(w[j] / tot / cap) : w[j] / tot;
                float *o = out + (((size_t)b * H + h) * T + i) * D;
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= last; j++) acc += w[j] * vb[(size_t)j * D + c];
                    o[c] = acc;
                }
            }
    free(sl);
    free(w);
}
