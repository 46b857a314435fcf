/* expect: WA causal_top_left */
/* Tiled in base 2; each row's causal edge is its own index r0 + r, without S - T. */
#include <math.h>

enum { ROWS = 32, COLS = 16 };

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    /* scratch: a ROWS x COLS score tile, then ROWS maxima and ROWS sums (576 floats) */
    if (n_scratch < ROWS * COLS + 2 * ROWS) return;
    float *tile = scratch, *mx = scratch + ROWS * COLS, *sum = mx + ROWS;
    /* work in base 2: exp(x) = exp2(x * log2(e)), folded into the scale */
    const float sl2 = 1.4426950408889634f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long bh = (long)b * H + h;
            const float *Qb = q + bh * T * D, *Kb = k + bh * S * D, *Vb = v + bh * S * D;
            float *Ob = out + bh * T * D;
            for (int r0 = 0; r0 < T; r0 += ROWS) {
                int nr = T - r0 < ROWS ? T - r0 : ROWS;
                for (int r = 0; r < nr; r++) {
                    mx[r] = -INFINITY;
                    sum[r] = 0.0f;
                    for (int c = 0; c < D; c++) Ob[(long)(r0 + r) * D + c] = 0.0f;
                }
                for (int c0 = 0; c0 < S; c0 += COLS) {
                    int nc = S - c0 < COLS ? S - c0 : COLS;
                    /* the tile of scores, -inf past each row's causal edge */
                    for (int r = 0; r < nr; r++) {
                        int edge = causal ? r0 + r : S - 1;
                        for (int t = 0; t < nc; t++) {
                            float d = -INFINITY;
                            if (c0 + t <= edge) {
                                d = 0.0f;
                                for (int c = 0; c < D; c++) d += Qb[(long)(r0 + r) * D + c] * Kb[(long)(c0 + t) * D + c];
                                d *= sl2;
                            }
                            tile[r * COLS + t] = d;
                        }
                    }
                    for (int r = 0; r < nr; r++) {
                        float tm = -INFINITY;
                        for (int t = 0; t < nc; t++) tm = fmaxf(tm, tile[r * COLS + t]);
                        if (tm == -INFINITY) continue;   /* the whole tile is in this row's future */
                        float mnew = fmaxf(mx[r], tm), corr = exp2f(mx[r] - mnew);
                        float *o = Ob + (long)(r0 + r) * D;
                        sum[r] *= corr;
                        for (int c = 0; c < D; c++) o[c] *= corr;
                        for (int t = 0; t < nc; t++) {
                            float p = exp2f(tile[r * COLS + t] - mnew);
                            sum[r] += p;
                            for (int c = 0; c < D; c++) o[c] += p * Vb[(long)(c0 + t) * D + c];
                        }
                        mx[r] = mnew;
                    }
                }
                for (int r = 0; r < nr; r++) {
                    float *o = Ob + (long)(r0 + r) * D;
                    for (int c = 0; c < D; c++) o[c] /= sum[r];
                    /* back to a natural log: ln x = log2 x * ln 2 */
                    lse[bh * T + r0 + r] = (mx[r] + log2f(sum[r])) * 0.6931471805599453f;
                }
            }
        }
}
