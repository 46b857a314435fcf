/* Exercise 61: multi-head latent attention at decode, absorbed.
 * Fill in mla_decode() below; the statement has the formula, the shapes,
 * the absorbed form and an example.
 *
 * 第 61 题：多头潜在注意力的解码（吸收形式）。
 * 在下面补全 mla_decode()；题面给出了公式、各张量的形状、吸收形式和一个例子。 */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    /* TODO: for each batch b and head h, absorb W_UK into the query
     * (q_lat = W_UK_h q_nope, d_c floats), score keys 0 .. len[b]-1 as
     * (q_lat . c_j + q_pe . k_pe_j) / sqrt(d_nope + d_r), softmax, sum the
     * latents c_j by the weights and multiply that by W_UV_h.
     *
     * TODO：对每个批次 b 和头 h，把 W_UK 吸收进查询
     * （q_lat = W_UK_h q_nope，d_c 个 float），键 0 .. len[b]-1 的分数为
     * (q_lat . c_j + q_pe . k_pe_j) / sqrt(d_nope + d_r)，做 softmax，
     * 按权重对潜在向量 c_j 求和，再乘以 W_UV_h。 */
    for (int i = 0; i < B * H * d_v; i++) out[i] = 0.0f;
}
