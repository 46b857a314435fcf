/* Exercise 65: attention's backward pass. Given the forward's inputs q, k, v
 * and dO = dL/dout, write dL/dq, dL/dk and dL/dv.
 *
 * 第 65 题：注意力的反向传播。已知前向的输入 q、k、v 和 dO = dL/dout，
 * 写出 dL/dq、dL/dk 和 dL/dv。 */
#include <math.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    /* TODO: for each (batch, head): recompute P = softmax(q k^T / sqrt(D))
     * with the causal mask (query i sees keys j <= i + S - T), then
     * dV = P^T dO, dP = dO V^T, dS = P o (dP - rowsum(dP o P)),
     * dQ = dS K / sqrt(D), dK = dS^T Q / sqrt(D).
     *
     * TODO：对每个（批次，头）：带因果掩码（查询 i 看到 j <= i + S - T 的键）
     * 重算 P = softmax(q k^T / sqrt(D))，然后
     * dV = P^T dO，dP = dO V^T，dS = P o (dP - rowsum(dP o P))，
     * dQ = dS K / sqrt(D)，dK = dS^T Q / sqrt(D)。 */
    (void)q, (void)k, (void)v, (void)d_out, (void)causal;
    for (long i = 0; i < (long)B * H * T * D; i++) dq[i] = 0.0f;
    for (long i = 0; i < (long)B * H * S * D; i++) dk[i] = dv[i] = 0.0f;
}
