# bash completion for the attention judge (./judge and node wasm/judge.mjs).
# Install for this shell:  source <(./judge --completion bash)
# Problem ids and slugs come from `judge list` when you press Tab, so a new
# problem completes without a new script.
_judge_complete() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local flags='--json --speed --csv --html --seed --lang --watch -j --hint --help --version --completion'
    case $prev in
        --lang) COMPREPLY=($(compgen -W 'en zh' -- "$cur")); return ;;
        --completion) COMPREPLY=($(compgen -W 'bash zsh' -- "$cur")); return ;;
        --html) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --seed|-j|--hint) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    if ((COMP_CWORD == 1)); then
        local problems
        problems=$("${COMP_WORDS[0]}" list 2>/dev/null | awk '{ print $1; print $2 }')
        COMPREPLY=($(compgen -W "list $problems" -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.c' -- "$cur"))
}
complete -o filenames -F _judge_complete judge ./judge
