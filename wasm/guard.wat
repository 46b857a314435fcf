;; guard.wat: the run worker's check of the stack guard (wasm/compile.mjs,
;; STACK_GUARD_BYTES), instantiated on the learner's own memory. After every
;; call the guard must still be all zero bytes; in JavaScript that scan of
;; 4 MiB took 2-3 ms a call, two thirds of a 49 run's calls. Here it is a
;; fraction of a millisecond: 64 bytes a step, as four v128 loads ORed.
;; Assembled by binaryen's wasm-as (mk/wasm.mk). It only reads.
(module
  (import "env" "memory" (memory 0))
  ;; 1 if any byte in [0, end) is not zero, else 0; end: a multiple of 64.
  (func (export "dirty") (param $end i32) (result i32)
    (local $at i32) (local $acc v128)
    (block $done
      (loop $scan
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $acc
          (v128.or (local.get $acc)
            (v128.or
              (v128.or (v128.load offset=0 (local.get $at)) (v128.load offset=16 (local.get $at)))
              (v128.or (v128.load offset=32 (local.get $at)) (v128.load offset=48 (local.get $at))))))
        (local.set $at (i32.add (local.get $at) (i32.const 64)))
        (br $scan)))
    (v128.any_true (local.get $acc))))
