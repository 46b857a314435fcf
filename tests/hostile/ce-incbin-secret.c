/* expect: CE */
/* Reads a file of the grader's machine at compile time: the assembler's .incbin embeds /etc/passwd (a #include of it would do as much) into the program, which prints it in its report. The compiler may read the toolchain and this file only. */
#include <stdio.h>
#include <string.h>

__asm__(".section .rodata\n"
        ".globl stolen\n"
        "stolen:\n"
        ".incbin \"/etc/passwd\"\n"
        ".byte 0\n"
        ".text\n");
extern const char stolen[];

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    fputs(stolen, stdout);
    memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
