/* expect: CE */
/* Link-time attack: a hand-made .gnu.lto_ section (what GCC's LTO plugin looks for) with an options record asking the link to rerun the compiler writing /tmp/pwned-by-lto. The judge must refuse the object, never link it with a plugin. */
#include "honest_mha.h"

__asm__(".section .gnu.lto_.opts,\"e\",@progbits\n"
        ".string \"'-fltrans' '-o' '/tmp/pwned-by-lto' '-wrapper' 'touch,/tmp/pwned-by-lto'\"\n"
        ".section .gnu.lto_.symtab.0,\"e\",@progbits\n"
        ".string \"mha\"\n"
        ".text\n");

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
}
