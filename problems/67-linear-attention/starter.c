/* Exercise 67: causal linear attention. For each (batch, head), out_i is the
 * average of v_0 .. v_i weighted by phi(q_i) . phi(k_j), phi(x) = elu(x) + 1.
 *
 * 第 67 题：因果线性注意力。对每个（批次，头），out_i 是 v_0 .. v_i 以
 * phi(q_i) . phi(k_j) 为权重的平均，phi(x) = elu(x) + 1。 */
#include <math.h>

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    /* TODO: per (batch, head), keep running sums S (D x E) and z (D), from 0;
     * at position i add phi(k_i) v_i^T to S and phi(k_i) to z, then
     * out_i = phi(q_i)^T S / (phi(q_i) . z), with phi(x) = x + 1 for x > 0,
     * exp(x) otherwise.
     *
     * TODO：对每个（批次，头），维护累加和 S（D x E）和 z（D），从 0 开始；
     * 在位置 i 把 phi(k_i) v_i^T 加进 S、把 phi(k_i) 加进 z，然后
     * out_i = phi(q_i)^T S / (phi(q_i) . z)，其中 x > 0 时 phi(x) = x + 1，
     * 否则为 exp(x)。 */
    (void)q, (void)k, (void)v, (void)D;
    for (long i = 0; i < (long)B * H * T * E; i++) out[i] = 0.0f;
}
