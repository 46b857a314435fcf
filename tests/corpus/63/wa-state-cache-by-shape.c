/* expect: WA state_kept_between_calls */
/* Online softmax in double that returns the previous output again when every size and flag is that of the last call. */
#include <math.h>
#include <string.h>

static float prev[3 * 8 * 65 * 16];
static int prev_args[7] = { -1 };

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    int args[7] = { B, H, T, S, D, cap, alibi };
    size_t n = (size_t)B * H * T * D;
    if (!memcmp(args, prev_args, sizeof args)) {   /* "same question, same answer" */
        memcpy(out, prev, n * sizeof(float));
        return;
    }
    double scale = 1.0 / sqrt((double)D);
    for (int bh = 0; bh < B * H; bh++) {
        double slope = exp2(-8.0 * (bh % H + 1) / H);
        for (int i = 0; i < T; i++) {
            int pos = i + S - T;
            double m = -INFINITY, l = 0.0, acc[16] = { 0 };
            for (int j = 0; j <= pos; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[((size_t)bh * T + i) * D + c] * k[((size_t)bh * S + j) * D + c];
                s *= scale;
                if (cap > 0) s = cap * tanh(s / cap);
                if (alibi) s += slope * (j - pos);
                double m2 = fmax(m, s), corr = exp(m - m2), e = exp(s - m2);
                l = l * corr + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * v[((size_t)bh * S + j) * D + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[((size_t)bh * T + i) * D + c] = (float)(acc[c] / l);
        }
    }
    memcpy(prev, out, n * sizeof(float));
    memcpy(prev_args, args, sizeof args);
}
