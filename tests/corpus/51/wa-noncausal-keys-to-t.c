/* expect: WA keys_counted_as_queries */
/* Without the causal mask the key count is T, the queries', not S; the causal branch counts right. */
#include <math.h>
#include <stdlib.h>

#define MAXT 1024

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    int rep = H / Hkv;
    float scale = 1.0f / sqrtf((float)D);
    float prob[MAXT];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int kvh = h / rep;
            for (int i = 0; i < T; i++) {
                /* 每个查询能看到的键数：因果时 i + S - T + 1，否则全部 */
                int cnt = causal ? i + S - T + 1 : T;
                float mx = -1e9f, sum = 0.0f;
                for (int j = 0; j < cnt; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += q[((b * H + h) * T + i) * D + c] * k[((b * Hkv + kvh) * S + j) * D + c];
                    prob[j] = s * scale;
                    if (prob[j] > mx) mx = prob[j];
                }
                for (int j = 0; j < cnt; j++) { prob[j] = expf(prob[j] - mx); sum += prob[j]; }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < cnt; j++) acc += prob[j] * v[((b * Hkv + kvh) * S + j) * D + c];
                    out[((b * H + h) * T + i) * D + c] = acc / sum;
                }
            }
        }
}
