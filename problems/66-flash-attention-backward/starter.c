/* Exercise 66: FlashAttention's backward pass. Given the forward's inputs,
 * its output and row log-sum-exp, and dO = dL/dout, write dL/dq, dL/dk and
 * dL/dv without ever holding a T x S matrix.
 *
 * 第 66 题：FlashAttention 反向传播。已知前向的输入、它的输出和每行的
 * log-sum-exp，以及 dO = dL/dout，写出 dL/dq、dL/dk 和 dL/dv，
 * 全程不保存 T x S 的矩阵。 */
#include <math.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    /* TODO: D_i = dO_i . out_i for every query; then over tiles of keys and
     * queries: P_ij = exp(q_i . k_j / sqrt(D) - lse_i) (0 for a key in the
     * future with causal: j > i + S - T), dP_ij = dO_i . v_j,
     * dS_ij = P_ij (dP_ij - D_i); dV_j += P_ij dO_i,
     * dK_j += dS_ij q_i / sqrt(D), dQ_i += dS_ij k_j / sqrt(D).
     *
     * TODO：对每个查询算 D_i = dO_i . out_i；然后按键和查询的分块遍历：
     * P_ij = exp(q_i . k_j / sqrt(D) - lse_i)（causal 时未来的键为 0：
     * j > i + S - T），dP_ij = dO_i . v_j，
     * dS_ij = P_ij (dP_ij - D_i)；dV_j += P_ij dO_i，
     * dK_j += dS_ij q_i / sqrt(D)，dQ_i += dS_ij k_j / sqrt(D)。 */
    (void)q, (void)k, (void)v, (void)out, (void)lse, (void)d_out, (void)causal;
    for (long i = 0; i < (long)B * H * T * D; i++) dq[i] = 0.0f;
    for (long i = 0; i < (long)B * H * S * D; i++) dk[i] = dv[i] = 0.0f;
}
