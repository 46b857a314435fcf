/* wire.h: the wire format's constants, the one list the judge, the native
 * runner and the wasm host share (the format itself: judge.h). judge.h
 * includes it; gen_problems.mjs inlines it into the runner's embedded source
 * (the runner is compiled beside the learner's file, without the judge's
 * headers); the wasm judge hands it to JavaScript as JSON (jw_wire_json).
 * Self-contained: no includes, macros only. */
#ifndef JUDGE_WIRE_H
#define JUDGE_WIRE_H

/* Each message's first u32, four ASCII letters read little-endian. */
#define JUDGE_WIRE_MAGIC_LIST(X)                                               \
    X(REQUEST, "request", 0x31515441u)        /* "ATQ1": judge to runner */    \
    X(REPLY, "reply", 0x31525441u)            /* "ATR1": runner to judge */    \
    X(HELLO, "hello", 0x31485441u)            /* "ATH1": constructors done */  \
    X(OUT_OF_MEMORY, "out_of_memory", 0x314d5441u) /* "ATM1": malloc failed */ \
    X(STATIC_OVERRUN, "static_overrun", 0x31475441u) /* "ATG1": see below */ \
    X(STACK_FAULT, "stack_fault", 0x31535441u) /* "ATS1": the stack could not grow */

#define JUDGE_WIRE_M(name, json, value) enum { JUDGE_WIRE_##name = (int)value };
JUDGE_WIRE_MAGIC_LIST(JUDGE_WIRE_M)
#undef JUDGE_WIRE_M

/* Natively, a guard of this many bytes (0xa5 from the runner's start)
 * follows the learner's static data and another their zeroed statics (judge_guard.c, linked right after
 * their object): a static array written past its end changes it, and the
 * runner says so ("ATG1") rather than go on with the C library's own state
 * beyond it wrecked (a lock overwritten hung the program: TLE). */
#define JUDGE_GUARD_BYTES 65536

/* A param's type, in wire order (judge_type): its name in the problems JSON
 * and the bytes of one element (0: an int passed by value, no buffer). */
#define JUDGE_TYPE_LIST(X) \
    X(INT, "int", 0)       \
    X(F32, "f32", 4)       \
    X(U8, "u8", 1)         \
    X(I32, "i32", 4)       \
    X(I64, "i64", 8)       \
    X(I8, "i8", 1)

#endif
