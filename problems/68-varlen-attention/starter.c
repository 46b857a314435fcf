#include <math.h>

/* out, q, k, v: [total, H, D], token-major: element (t, h, c) at (t*H + h)*D + c.
 * cu_seqlens: [B + 1]; sequence b is tokens cu_seqlens[b] .. cu_seqlens[b+1] - 1.
 * TODO: for each sequence b, each of its tokens t and each head h, attend
 * causally over the keys cu_seqlens[b] .. t of the same sequence only
 * (scale 1/sqrt(D), softmax with the row max subtracted) and write out.
 *
 * out、q、k、v：[total, H, D]，按词元优先排列：元素 (t, h, c) 在
 * (t*H + h)*D + c。
 * cu_seqlens：[B + 1]；序列 b 是第 cu_seqlens[b] .. cu_seqlens[b+1] - 1 个词元。
 * TODO：对每个序列 b、它的每个词元 t 和每个头 h，只在同一序列的键
 * cu_seqlens[b] .. t 上做因果注意力（缩放 1/sqrt(D)，softmax 时减去行最大值），
 * 并写入 out。 */
void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)q, (void)k, (void)v, (void)cu_seqlens, (void)B;
    for (int i = 0; i < total * H * D; i++) out[i] = 0.0f;
}
