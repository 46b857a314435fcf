/* expect: WA mask_after_softmax */
/* Normalises the softmax over all S encoder keys, padding included, and only
 * afterwards sets the padded keys' weights to 0: the remaining weights are
 * not renormalised, so they sum to less than 1. */
#include <math.h>
#include <stdlib.h>

/* softmax in place over n scores, max subtracted */
static void softmax_inplace(float *x, int n)
{
    float m = x[0];
    for (int j = 1; j < n; j++)
        if (x[j] > m) m = x[j];
    float total = 0.0f;
    for (int j = 0; j < n; j++) {
        x[j] = expf(x[j] - m);
        total += x[j];
    }
    for (int j = 0; j < n; j++) x[j] /= total;
}

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    const float rs = 1.0f / sqrtf((float)D);
    float *wts = malloc((size_t)S * sizeof *wts);

    const float *qp = q;
    float *op = out;
    for (int b = 0; b < B; b++) {
        const unsigned char *mrow = enc_mask ? enc_mask + (size_t)b * S : NULL;
        for (int h = 0; h < H; h++) {
            const float *kh = k + ((size_t)b * H + h) * S * D;
            const float *vh = v + ((size_t)b * H + h) * S * D;
            for (int i = 0; i < T; i++, qp += D, op += D) {
                const float *kr = kh;
                for (int j = 0; j < S; j++, kr += D) {
                    float acc = 0.0f;
                    for (int c = 0; c < D; c++) acc += qp[c] * kr[c];
                    wts[j] = acc * rs;
                }
                softmax_inplace(wts, S);
                /* drop the padding now that we have the probabilities */
                if (mrow)
                    for (int j = 0; j < S; j++)
                        if (!mrow[j]) wts[j] = 0.0f;

                for (int c = 0; c < D; c++) op[c] = 0.0f;
                const float *vr = vh;
                for (int j = 0; j < S; j++, vr += D)
                    for (int c = 0; c < D; c++) op[c] += wts[j] * vr[c];
            }
        }
    }
    free(wts);
}
