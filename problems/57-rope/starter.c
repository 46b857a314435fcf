/* Exercise 57: rotary position embedding (RoPE).
 * Fill in rope() below; the statement has the formula, the pairing, the
 * positions and an example.
 *
 * 第 57 题：旋转位置编码（RoPE）。
 * 在下面补全 rope()；题面给出了公式、配对方式、位置和一个例子。 */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    /* x is [B, H, T, D] and is rotated in place. TODO: for each head vector
     * of token t of sequence b, at position offset[b] + t, turn each pair
     * (x[i], x[i + D/2]) by the angle position * theta^(-2i/D). As it is,
     * x is left unrotated.
     *
     * x 是 [B, H, T, D]，原地旋转。TODO：序列 b 的第 t 个词元位于位置
     * offset[b] + t，把它的每个头向量中的每一对 (x[i], x[i + D/2]) 转过角度
     * position * theta^(-2i/D)。照现在这样，x 不会被旋转。 */
    (void)x, (void)offset, (void)B, (void)H, (void)T, (void)D, (void)theta;
}
