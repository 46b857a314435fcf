/* expect: RE */
/* A softmax row buffer sized for the example (8 floats): wider rows write past it. Natively that wrecked the C library's state beyond it and the run hung (TLE); now the guard after the statics stops it (RE), and in wasm the write reaches past the memory (RE). */
#include <math.h>
/* static scratch sized for the example */
static float e[8];
void softmax(float *out, const float *x, int rows, int n) {
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0;
        for (int j = 0; j < n; j++) m = fmaxf(m, x[r*n+j]);
        if (m == -INFINITY) { for (int j = 0; j < n; j++) out[r*n+j] = 0; continue; }
        for (int j = 0; j < n; j++) { e[j] = expf(x[r*n+j]-m); s += e[j]; }
        for (int j = 0; j < n; j++) out[r*n+j] = e[j]/s;
    }
}
