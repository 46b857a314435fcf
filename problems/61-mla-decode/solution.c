/* Exercise 61, a reference solution, absorbed as DeepSeek's decode runs
 * it: per (batch, head) fold W_UK into the query, score every cached latent
 * plus its rotary key, softmax with the max subtracted, sum the latents by
 * the weights, and only then apply W_UV. No per-head key or value is made. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float scale = 1.0f / sqrtf((float)(d_nope + d_r));
    float *q_lat = malloc(sizeof(float) * d_c), *o_lat = malloc(sizeof(float) * d_c);
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++) {
        const float *cb = c + (size_t)b * S * d_c, *kb = k_pe + (size_t)b * S * d_r;
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + (b * H + h) * d_nope, *qr = q_pe + (b * H + h) * d_r;
            const float *uk = w_uk + (size_t)h * d_c * d_nope, *uv = w_uv + (size_t)h * d_c * d_v;
            for (int l = 0; l < d_c; l++) {   /* q_lat = W_UK q_nope */
                float acc = 0.0f;
                for (int i = 0; i < d_nope; i++) acc += uk[l * d_nope + i] * qn[i];
                q_lat[l] = acc;
            }
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < len[b]; j++) {
                float s = 0.0f;
                for (int l = 0; l < d_c; l++) s += q_lat[l] * cb[j * d_c + l];
                for (int r = 0; r < d_r; r++) s += qr[r] * kb[j * d_r + r];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int l = 0; l < d_c; l++) o_lat[l] = 0.0f;
            for (int j = 0; j < len[b]; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
                for (int l = 0; l < d_c; l++) o_lat[l] += p[j] * cb[j * d_c + l];
            }
            for (int v = 0; v < d_v; v++) {   /* out = o_lat W_UV / sum */
                float acc = 0.0f;
                for (int l = 0; l < d_c; l++) acc += o_lat[l] * uv[l * d_v + v];
                out[(b * H + h) * d_v + v] = acc / sum;
            }
        }
    }
    free(q_lat);
    free(o_lat);
    free(p);
}
