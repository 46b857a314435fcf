/* att_attn_ref.c: the scalar twins of the fast kernels that att_ref.c does
 * not already hold: exp, and attention in any layout with GQA, a causal
 * offset and a sliding window (att.h, "fast kernels"). Plain loops, double
 * accumulation, maxima from -INFINITY: they define what the _simd kernels
 * compute and are never made clever. */
#include <math.h>
#include "att.h"

void att_exp_ref(float *y, const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = (float)exp((double)x[i]);
}

int att_sees(const att_attn_desc *a, const unsigned char *key_mask, int i, int j)
{
    int pos = i + a->S - a->T;
    return (!key_mask || key_mask[j]) && (!a->causal || j <= pos) &&
           (a->window <= 0 || j > pos - a->window || j < a->sinks);
}

att_status att_attn_ref(float *out, const float *q, const float *k,
                        const float *v, const unsigned char *key_mask,
                        const att_attn_desc *a, float *scratch)
{
    if (a->T < 1 || a->S < 1 || a->H < 1 || a->Hkv < 1 || a->D < 1) return ATT_EBADSHAPE;
    if (a->H % a->Hkv) return ATT_EKVHEADS;
    for (int h = 0; h < a->H; h++) {
        int g = h / (a->H / a->Hkv);
        const float *kg = k + g * a->hskv, *vg = v + g * a->hskv;
        for (int i = 0; i < a->T; i++) {
            const float *qi = q + i * a->ldq + h * a->hsq;
            float max = -INFINITY;
            for (int j = 0; j < a->S; j++) {
                double dot = 0.0;
                for (int c = 0; c < a->D; c++) dot += (double)qi[c] * kg[j * a->ldkv + c];
                scratch[j] = att_sees(a, key_mask, i, j) ? (float)(a->scale * dot) : -INFINITY;
                if (scratch[j] > max) max = scratch[j];
            }
            double sum = 0.0;
            for (int j = 0; j < a->S; j++) {
                /* exp(-inf - max) is 0; a row that sees nothing keeps max -inf. */
                double e = max == -INFINITY ? 0.0 : exp((double)scratch[j] - max);
                scratch[j] = (float)e;
                sum += e;
            }
            float *oi = out + i * a->ldo + h * a->hso;
            for (int c = 0; c < a->D; c++) {
                double acc = 0.0;
                for (int j = 0; j < a->S; j++) acc += (double)scratch[j] * vg[j * a->ldkv + c];
                oi[c] = sum > 0.0 ? (float)(acc / sum) : 0.0f;
            }
        }
    }
    return ATT_OK;
}
