/* expect: WA mask_fill_zero */
/* Hidden keys are "masked" by multiplying their score by a 0/1 flag, so they
 * get score 0 and still take part in the softmax, over all T keys (future too). */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float scale = 1.0f / sqrtf((float)D);
    int *glob = calloc(T, sizeof(int));
    float *score = malloc(sizeof(float) * T);
    float *mask = malloc(sizeof(float) * T);
    for (int g = 0; g < G; g++)
        glob[global_idx[g]] = 1;

    for (int head = 0; head < B * H; head++) {
        const float *qp = q + (long)head * T * D;
        const float *kp = k + (long)head * T * D;
        const float *vp = v + (long)head * T * D;
        float *op = out + (long)head * T * D;

        for (int i = 0; i < T; i++, qp += D, op += D) {
            /* build the visibility mask for this row */
            for (int j = 0; j < T; j++) {
                int ok = j <= i && (j > i - W || glob[j] || glob[i]);
                mask[j] = ok ? 1.0f : 0.0f;
            }

            float best = -INFINITY;
            const float *kr = kp;
            for (int j = 0; j < T; j++, kr += D) {
                float d = 0.0f;
                for (int c = 0; c < D; c++)
                    d += qp[c] * kr[c];
                score[j] = d * scale * mask[j];   /* apply mask */
                if (score[j] > best) best = score[j];
            }

            float total = 0.0f;
            for (int j = 0; j < T; j++) {
                score[j] = expf(score[j] - best);
                total += score[j];
            }

            for (int c = 0; c < D; c++) {
                float y = 0.0f;
                const float *vc = vp + c;
                for (int j = 0; j < T; j++, vc += D)
                    y += score[j] * *vc;
                op[c] = y / total;
            }
        }
    }

    free(mask);
    free(score);
    free(glob);
}
