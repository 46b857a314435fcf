/* Exercise 57: rotary position embedding (RoPE).
 * Fill in rope() below; the statement has the formula, the pairing, the
 * positions and an example. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    /* x is [B, H, T, D] and is rotated in place. TODO: for each head vector
     * of token t of sequence b, at position offset[b] + t, turn each pair
     * (x[i], x[i + D/2]) by the angle position * theta^(-2i/D). As it is,
     * x is left unrotated. */
    (void)x, (void)offset, (void)B, (void)H, (void)T, (void)D, (void)theta;
}
