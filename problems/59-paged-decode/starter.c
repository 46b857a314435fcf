/* Exercise 59: one decode step over a paged KV cache.
 * Fill in paged_decode() below; the statement has the formula, the cache
 * and block table layout, the edge rules and an example.
 *
 * 第 59 题：分页 KV 缓存上的单步解码。
 * 在下面补全 paged_decode()；题面给出了公式、缓存和块表的布局、边界规则
 * 和一个例子。 */
#include <math.h>
#include <stdlib.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    /* TODO: out is [B, H, D]. For each sequence b and query head h, attend
     * over keys p = 0 .. seq_lens[b] - 1, each found at row p % block_size of
     * block block_table[b * max_blocks + p / block_size], kv head
     * h / (H / Hkv). Write every element of out.
     *
     * TODO：out 是 [B, H, D]。对每个序列 b 和查询头 h，在键
     * p = 0 .. seq_lens[b] - 1 上做注意力，每个键位于块
     * block_table[b * max_blocks + p / block_size] 的第 p % block_size 行、
     * 键值头 h / (H / Hkv)。out 的每个元素都要写。 */
    for (int i = 0; i < B * H * D; i++)
        out[i] = 0.0f;
}
