/* expect: WA mask_fill_zero */
/* Macros and a VLA row; a future key's score is set to 0 and the max taken over the seen keys only. */
#include <math.h>
#define Q(b,h,i,c) q[(((b)*H+(h))*T+(i))*D+(c)]
#define K(b,h,j,c) k[(((b)*H+(h))*S+(j))*D+(c)]
#define P(b,h,i,j) probs[(((b)*H+(h))*T+(i))*S+(j)]
void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
    for (int i = 0; i < T; i++) {
        float sc[S];
        float mx = -INFINITY;
        for (int j = 0; j < S; j++) {
            if (causal && j > i + S - T) { sc[j] = 0.0f; continue; }
            float a = 0;
            for (int c = 0; c < D; c++) a += Q(b,h,i,c) * K(b,h,j,c);
            sc[j] = a / sqrtf(D);
            mx = fmaxf(mx, sc[j]);
        }
        float z = 0;
        for (int j = 0; j < S; j++) z += (sc[j] = expf(sc[j] - mx));
        for (int j = 0; j < S; j++) P(b,h,i,j) = sc[j] / z;
        sink[(b*H+h)*T+i] = P(b,h,i,0);
    }
}
