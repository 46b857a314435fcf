/* expect: WA rescale_inverted */
/* The rescale factor is inverted to exp2(m_new - m_old) (with a guard for the first tile), so old contributions are scaled up instead of down. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define Br 8
#define Bc 64
#define LOG2E 1.4426950408889634f
#define LN2 0.6931471805599453f

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *Sb = scratch;            /* Br * Bc scores, base-2 units */
    float *Acc = Sb + Br * Bc;      /* Br * D */
    float *M = Acc + Br * D;        /* Br running max */
    float *Lsum = M + Br;           /* Br running sum */
    float *Mt = Lsum + Br;          /* Br max of the current tile */
    const float qk_scale = LOG2E / sqrtf((float)D);
    (void)n_scratch;

    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D;
        const float *K = k + (size_t)bh * S * D;
        const float *V = v + (size_t)bh * S * D;
        for (int i0 = 0; i0 < T; i0 += Br) {
            const int rows = T - i0 < Br ? T - i0 : Br;
            for (int r = 0; r < rows; r++) {
                M[r] = -INFINITY;
                Lsum[r] = 0.0f;
            }
            for (int x = 0; x < rows * D; x++) Acc[x] = 0.0f;
            for (int j0 = 0; j0 < S; j0 += Bc) {
                const int cols = S - j0 < Bc ? S - j0 : Bc;
                for (int r = 0; r < rows; r++) {
                    const int i = i0 + r;
                    Mt[r] = -INFINITY;
                    for (int t = 0; t < cols; t++) {
                        const int j = j0 + t;
                        float x = -INFINITY;
                        if (!causal || j - (S - T) <= i) {
                            x = 0.0f;
                            for (int c = 0; c < D; c++) x += Q[i * D + c] * K[j * D + c];
                            x *= qk_scale;
                        }
                        Sb[r * Bc + t] = x;
                        if (x > Mt[r]) Mt[r] = x;
                    }
                }
                for (int r = 0; r < rows; r++) {
                    if (Mt[r] == -INFINITY) continue;
                    const float mnew = fmaxf(M[r], Mt[r]);
                    const float alpha = M[r] == -INFINITY ? 0.0f : exp2f(mnew - M[r]);
                    float *a = Acc + r * D;
                    float rowsum = 0.0f;
                    for (int c = 0; c < D; c++) a[c] *= alpha;
                    for (int t = 0; t < cols; t++) {
                        const float p = exp2f(Sb[r * Bc + t] - mnew);
                        rowsum += p;
                        for (int c = 0; c < D; c++) a[c] += p * V[(j0 + t) * D + c];
                    }
                    Lsum[r] = alpha * Lsum[r] + rowsum;
                    M[r] = mnew;
                }
            }
            for (int r = 0; r < rows; r++) {
                float *o = out + ((size_t)bh * T + i0 + r) * D;
                for (int c = 0; c < D; c++) o[c] = Acc[r * D + c] / Lsum[r];
                lse[(size_t)bh * T + i0 + r] = (M[r] + log2f(Lsum[r])) * LN2;
            }
        }
    }
}
