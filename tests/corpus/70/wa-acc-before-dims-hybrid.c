/* expect: WA acc_not_reset_per_dim */
/* 加权和只用一个累加器，每个查询在输出维度循环之前清零一次，
 * so output dim c holds the sum of dims 0..c instead of dim c alone. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

/* 查询 i 能否看到键 j（调用者保证 j <= i） */
static int visible(int i, int j, int W, const unsigned char *is_global)
{
    return (i - j < W) || is_global[j] || is_global[i];
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    size_t stride = (size_t)T * D;
    unsigned char *is_global = calloc((size_t)T, 1);
    int *keys = malloc(sizeof(int) * (size_t)T);      /* 可见键的下标 */
    float *e = malloc(sizeof(float) * (size_t)T);     /* 对应的权重 */
    float rs = 1.0f / sqrtf((float)D);

    for (int g = 0; g < G; g++)
        is_global[global_idx[g]] = 1;

    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * stride;
        const float *K = k + bh * stride;
        const float *V = v + bh * stride;
        float *O = out + bh * stride;

        for (int i = 0; i < T; i++) {
            const float *qi = Q + (size_t)i * D;
            int n = 0;
            float mx = -INFINITY;

            /* 收集可见键并算分数 */
            for (int j = 0; j <= i; j++) {
                if (!visible(i, j, W, is_global))
                    continue;
                const float *kj = K + (size_t)j * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++)
                    s += qi[c] * kj[c];
                s *= rs;
                keys[n] = j;
                e[n++] = s;
                if (s > mx) mx = s;
            }

            float denom = 0.0f;
            for (int t = 0; t < n; t++) {
                e[t] = expf(e[t] - mx);
                denom += e[t];
            }

            float acc = 0.0f;                 /* 每个查询清零一次 */
            for (int c = 0; c < D; c++) {
                for (int t = 0; t < n; t++)
                    acc += e[t] * V[(size_t)keys[t] * D + c];
                O[(size_t)i * D + c] = acc / denom;
            }
        }
    }

    free(e);
    free(keys);
    free(is_global);
}
