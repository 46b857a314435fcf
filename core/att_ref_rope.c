/* att_ref_rope.c: reference kernels of rotary position embedding (RoPE):
 * rotating q or k at their absolute positions (exercise 57), and one decode
 * step whose cache holds rotated keys (exercise 58, on top of
 * att_decode_step_ref). Plain loops, angles and products in double;
 * semantics in att.h. */
#include <math.h>
#include <string.h>
#include "att.h"

/* Rotate one head vector x [D] to position pos: pair (i, i + D/2) turns by
 * pos * theta^(-2i/D), the half-split pairing of Llama and GPT-NeoX. */
static void rotate(float *x, int D, long pos, double theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        double angle = (double)pos * pow(theta, -2.0 * i / D);
        double c = cos(angle), s = sin(angle), x1 = x[i], x2 = x[i + half];
        x[i] = (float)(x1 * c - x2 * s);
        x[i + half] = (float)(x2 * c + x1 * s);
    }
}

att_status att_rope_ref(float *x, const int *offset, int B, int H, int T, int D, double theta)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || D % 2 || !(theta > 0.0)) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)   /* all checked first: an error touches nothing */
        if (offset[b] < 0) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                rotate(x + (((size_t)b * H + h) * T + t) * D, D, (long)offset[b] + t, theta);
    return ATT_OK;
}

att_status att_rope_decode_step_ref(float *out, float *k_cache, float *v_cache, int *len,
                                    const float *q, const float *k, const float *v, int B,
                                    int S_max, int H, int D, double theta, float *scratch)
{
    if (B <= 0 || S_max <= 0 || H <= 0 || D <= 0 || D % 2 || !(theta > 0.0)) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)
        if (len[b] < 0 || len[b] >= S_max) return ATT_ECACHEFULL;
    size_t row = (size_t)H * D;
    float *qr = scratch + S_max, *kr = qr + (size_t)B * row;
    memcpy(qr, q, (size_t)B * row * sizeof(float));
    memcpy(kr, k, (size_t)B * row * sizeof(float));
    /* The new token sits at position len[b]: its query and key turn there
     * once, and the key is cached turned, so no cached key turns again. */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            rotate(qr + (size_t)b * row + (size_t)h * D, D, len[b], theta);
            rotate(kr + (size_t)b * row + (size_t)h * D, D, len[b], theta);
        }
    return att_decode_step_ref(out, k_cache, v_cache, len, qr, kr, v, B, S_max, H, D, scratch);
}
