/* expect: CE */
/* A macro bomb: ten billion tokens. The compiler runs under limits and gives up. */
#define X1 1,1,1,1,1,1,1,1,1,1
#define X2 X1,X1,X1,X1,X1,X1,X1,X1,X1,X1
#define X3 X2,X2,X2,X2,X2,X2,X2,X2,X2,X2
#define X4 X3,X3,X3,X3,X3,X3,X3,X3,X3,X3
#define X5 X4,X4,X4,X4,X4,X4,X4,X4,X4,X4
#define X6 X5,X5,X5,X5,X5,X5,X5,X5,X5,X5
#define X7 X6,X6,X6,X6,X6,X6,X6,X6,X6,X6
#define X8 X7,X7,X7,X7,X7,X7,X7,X7,X7,X7
#define X9 X8,X8,X8,X8,X8,X8,X8,X8,X8,X8
int bomb[] = { X9 };
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal) {}
