/* expect: WA wrong_axis */
#include <math.h>
#include <stdlib.h>
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float *Q = malloc(sizeof(float)*T*d), *K = malloc(sizeof(float)*T*d), *V = malloc(sizeof(float)*T*d), *C = malloc(sizeof(float)*T*d);
    float *S = malloc(sizeof(float)*T*T);
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) for (int j = 0; j < d; j++) {
            float a = 0, e = 0, f = 0;
            for (int i = 0; i < d; i++) { float xv = x[(b*T+t)*d+i]; a += xv*wq[i*d+j]; e += xv*wk[i*d+j]; f += xv*wv[i*d+j]; }
            Q[t*d+j] = a; K[t*d+j] = e; V[t*d+j] = f;
        }
        for (int h = 0; h < n_heads; h++) {
            for (int i = 0; i < T; i++) for (int j = 0; j < T; j++) {
                float s = 0; for (int c = 0; c < D; c++) s += Q[i*d+h*D+c]*K[j*d+h*D+c];
                S[i*T+j] = ((causal && j > i) || (mask && !mask[b*T+j])) ? -INFINITY : s / sqrtf(D);
            }
            /* softmax(dim=0): over queries, column by column */
            for (int j = 0; j < T; j++) {
                float m = -INFINITY, z = 0;
                for (int i = 0; i < T; i++) if (S[i*T+j] > m) m = S[i*T+j];
                for (int i = 0; i < T; i++) { S[i*T+j] = m == -INFINITY ? 0 : expf(S[i*T+j]-m); z += S[i*T+j]; }
                for (int i = 0; i < T; i++) S[i*T+j] = z > 0 ? S[i*T+j]/z : 0;
            }
            for (int i = 0; i < T; i++) for (int c = 0; c < D; c++) { float a = 0; for (int j = 0; j < T; j++) a += S[i*T+j]*V[j*d+h*D+c]; C[i*d+h*D+c] = a; }
        }
        for (int t = 0; t < T; t++) for (int j = 0; j < d; j++) { float s = 0; for (int i = 0; i < d; i++) s += C[t*d+i]*wo[i*d+j]; out[(b*T+t)*d+j] = s; }
    }
    free(Q); free(K); free(V); free(C); free(S);
}
