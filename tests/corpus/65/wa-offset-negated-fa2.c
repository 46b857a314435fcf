/* expect: WA causal_offset_negated */
/* causal offset subtracted (query position qpos = i - (S - T)); FlashAttention-2 style: online forward for m, l and out_i, delta = dO_i . out_i, then a second pass recomputing p = exp(s - m) / l; double accumulators, pointer arithmetic, max starting at -1e9f, hidden keys skipped, visible-key count guard */
#include <math.h>
#include <stdlib.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    const double scale = 1.0 / sqrt((double)D);
    double *o = malloc(sizeof(double) * D);
    double *gq = malloc(sizeof(double) * D);
    for (long x = 0; x < (long)B * H * S * D; x++) dk[x] = dv[x] = 0.0f;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Kb = k + (long)bh * S * D, *Vb = v + (long)bh * S * D;
        float *dKb = dk + (long)bh * S * D, *dVb = dv + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            const float *gi = d_out + ((long)bh * T + i) * D;
            float *dqi = dq + ((long)bh * T + i) * D;
            const int qpos = i - (S - T);
            int nvis = 0;
            double m = -1e9f, l = 0.0;
            for (int c = 0; c < D; c++) o[c] = 0.0;
            /* forward, online */
            for (int j = 0; j < S; j++) {
                const float *kj = Kb + (long)j * D, *vj = Vb + (long)j * D;
                if (causal && j > qpos) continue;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                s *= scale;
                nvis++;
                double mn = s > m ? s : m;
                double r = exp(m - mn), e = exp(s - mn);
                l = l * r + e;
                for (int c = 0; c < D; c++) o[c] = o[c] * r + e * vj[c];
                m = mn;
            }
            for (int c = 0; c < D; c++) gq[c] = 0.0;
            if (nvis == 0) {
                for (int c = 0; c < D; c++) dqi[c] = 0.0f;
                continue;
            }
            double delta = 0.0;
            for (int c = 0; c < D; c++) delta += gi[c] * (o[c] / l);
            /* backward pass over the same keys */
            for (int j = 0; j < S; j++) {
                if (causal && j > qpos) continue;
                const float *kj = Kb + (long)j * D, *vj = Vb + (long)j * D;
                double s = 0.0, dpj = 0.0;
                for (int c = 0; c < D; c++) { s += (double)qi[c] * kj[c]; dpj += (double)gi[c] * vj[c]; }
                double p = exp(s * scale - m) / l;
                double ds = p * (dpj - delta);
                float *dkj = dKb + (long)j * D, *dvj = dVb + (long)j * D;
                for (int c = 0; c < D; c++) {
                    gq[c] += scale * ds * kj[c];
                    dkj[c] += (float)(scale * ds * qi[c]);
                    dvj[c] += (float)(p * gi[c]);
                }
            }
            for (int c = 0; c < D; c++) dqi[c] = (float)gq[c];
        }
    }
    free(o);
    free(gq);
}
