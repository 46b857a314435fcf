/* expect: WA window_excludes_self */
/* One test for what a query sees, j < i first: the window is the W keys before the query, and a sink is not seen by itself either, so query 0 sees nothing (0/0). */
#include <math.h>
#include <stdlib.h>
void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B*H; bh++) {
        const float *Q = q + bh*T*D, *K = k + bh*T*D, *V = v + bh*T*D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY, z = 0;
            for (int j = 0; j < T; j++) {
                int seen = j < i && (j < n_sink || j >= i - window);   /*SEEN*/
                if (!seen) { p[j] = -INFINITY; continue; }
                float s = 0; for (int c = 0; c < D; c++) s += Q[i*D+c]*K[j*D+c];
                p[j] = s / sqrtf((float)D); if (p[j] > m) m = p[j];
            }
            for (int j = 0; j < T; j++) { p[j] = p[j] == -INFINITY ? 0 : expf(p[j]-m); z += p[j]; }
            for (int c = 0; c < D; c++) { float a = 0; for (int j = 0; j < T; j++) a += p[j]*V[j*D+c]; out[(bh*T+i)*D+c] = a/z; }
        }
    }
    free(p);
}
