/* expect: WA warp_sum_half_lanes */
/* a 32-lane strided key loop, the softmax denominator reduced from off = 8 */
#include <math.h>

#define WARP 32

/* one warp per query row; lane L handles keys L, L+32, L+64, ... */
void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float red[WARP];                    /* __shared__ reduction buffer */
    const float scale = 1.0f / sqrtf((float)D);
    for (int blockIdx = 0; blockIdx < B * H * T; blockIdx++) {
        const int bh = blockIdx / T, i = blockIdx % T, h = bh % H;
        const int pos = i + S - T;
        const float slope = alibi ? powf(2.0f, -8.0f * (float)(h + 1) / (float)H) : 0.0f;
        const float *qi = q + (bh * T + i) * D;
        const float *kb = k + bh * S * D, *vb = v + bh * S * D;

#define SCORE(j, dst)                                                        \
        do {                                                                 \
            float s_ = 0.0f;                                                 \
            for (int c_ = 0; c_ < D; c_++) s_ += qi[c_] * kb[(j) * D + c_];  \
            s_ *= scale;                                                     \
            if (cap > 0) s_ = (float)cap * tanhf(s_ / (float)cap);           \
            (dst) = s_ + slope * (float)((j) - pos);                         \
        } while (0)

        /* pass 1: warp max */
        for (int lane = 0; lane < WARP; lane++) {
            float m = -INFINITY;
            for (int j = lane; j <= pos; j += WARP) { float s; SCORE(j, s); m = fmaxf(m, s); }
            red[lane] = m;
        }
        for (int off = 16; off > 0; off >>= 1)
            for (int lane = 0; lane < off; lane++) red[lane] = fmaxf(red[lane], red[lane + off]);
        const float mx = red[0];

        /* pass 2: warp sum of exp */
        for (int lane = 0; lane < WARP; lane++) {
            float z = 0.0f;
            for (int j = lane; j <= pos; j += WARP) { float s; SCORE(j, s); z += expf(s - mx); }
            red[lane] = z;
        }
        for (int off = 8; off > 0; off >>= 1)
            for (int lane = 0; lane < off; lane++) red[lane] += red[lane + off];
        const float inv = 1.0f / red[0];

        /* pass 3: one thread per output channel */
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int j = 0; j <= pos; j++) { float s; SCORE(j, s); acc += expf(s - mx) * vb[j * D + c]; }
            out[(bh * T + i) * D + c] = acc * inv;
        }
#undef SCORE
    }
}
