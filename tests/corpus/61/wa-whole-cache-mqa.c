/* expect: WA attends_past_length */
/* The MQA view over all S rows of the latent cache, len ignored. */
#include <math.h>
#include <string.h>

/* Room for the judge's sizes: d_c + d_r <= 40, S <= 65. */
static float qa[40], ka[40], sc[65], ol[32];

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    int width = d_c + d_r;   /* the absorbed query [q_lat, q_pe], as an MQA head */
    float scale = 1.0f / sqrtf((float)(d_nope + d_r));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            for (int l = 0; l < d_c; l++) {
                qa[l] = 0.0f;
                for (int i = 0; i < d_nope; i++)
                    qa[l] += w_uk[h * d_c * d_nope + l * d_nope + i] * q_nope[(b * H + h) * d_nope + i];
            }
            memcpy(qa + d_c, q_pe + (b * H + h) * d_r, sizeof(float) * d_r);
            float best = -INFINITY, total = 0.0f;
            for (int j = 0; j < S; j++) {
                memcpy(ka, c + (b * S + j) * d_c, sizeof(float) * d_c);
                memcpy(ka + d_c, k_pe + (b * S + j) * d_r, sizeof(float) * d_r);
                float s = 0.0f;
                for (int x = 0; x < width; x++) s += qa[x] * ka[x];
                sc[j] = scale * s;
                if (sc[j] > best) best = sc[j];
            }
            memset(ol, 0, sizeof ol);
            for (int j = 0; j < S; j++) {
                float e = expf(sc[j] - best);
                total += e;
                for (int l = 0; l < d_c; l++) ol[l] += e * c[(b * S + j) * d_c + l];
            }
            for (int x = 0; x < d_v; x++) {
                float o = 0.0f;
                for (int l = 0; l < d_c; l++) o += ol[l] * w_uv[h * d_c * d_v + l * d_v + x];
                out[(b * H + h) * d_v + x] = o / total;
            }
        }
}
