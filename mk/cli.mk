# mk/cli.mk: what the CLIs print as it is, generated into both judges
# (libjudge/gen_cli.mjs): the version (package.json, the one source) and
# the bash and zsh completion scripts; and the native CLI's worker
# processes (libjudge/jobs.c: a class judged N files at a time, --watch).
CLI_GEN := $(BUILD)/gen/cli_gen.c

JUDGE_SRC += $(CLI_GEN)
JUDGE_OBJ += $(BUILD)/gen/cli_gen.o
NATIVE_OBJ += $(BUILD)/libjudge/jobs.o

$(CLI_GEN): libjudge/gen_cli.mjs libjudge/c_string.mjs package.json libjudge/completion.bash libjudge/completion.zsh
	$(NODE) libjudge/gen_cli.mjs $@

$(BUILD)/gen/cli_gen.o: $(CLI_GEN)
	$(CC) $(CFLAGS) $(WARN) -c -o $@ $<
