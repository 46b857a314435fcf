/* expect: WA topk_by_magnitude */
/* Sorts the visible keys by |q.k| (stable), takes the first topk, softmax over them in float. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *s = malloc(sizeof(float) * T);
    int *idx = malloc(sizeof(int) * T);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s[j] = d / sqrtf((float)D);
                int at = j;
                while (at > 0 && fabsf(s[idx[at - 1]]) < fabsf(s[j])) {
                    idx[at] = idx[at - 1];
                    at--;
                }
                idx[at] = j;
            }
            int n = topk < i + 1 ? topk : i + 1;
            float mx = -INFINITY, l = 0.0f;
            for (int t = 0; t < n; t++) if (s[idx[t]] > mx) mx = s[idx[t]];
            for (int t = 0; t < n; t++) l += expf(s[idx[t]] - mx);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int t = 0; t < n; t++) acc += expf(s[idx[t]] - mx) / l * v[(bh * T + idx[t]) * D + c];
                out[(bh * T + i) * D + c] = acc;
            }
        }
    free(s);
    free(idx);
}
