# zsh completion for the attention judge (./judge and node wasm/judge.mjs).
# Install for this shell (after compinit):  source <(./judge --completion zsh)
# Problem ids and slugs come from `judge list` when you press Tab, so a new
# problem completes without a new script.
_judge_complete() {
    local -a problems
    local state
    _arguments -s \
        '--json[print JSON (a class: one line per file)]' \
        '--speed[time the speed cases and give a tier]' \
        '--csv[print the class table as CSV]' \
        '--html[write the class as one page]:page:_files' \
        '--seed[make the hidden inputs from seed N]:seed:' \
        '--lang[language of the report]:language:(en zh)' \
        '--watch[judge again each time the file is saved]' \
        '-j[files judged at once]:jobs:' \
        '--hint[print the next hint, or hint N]' \
        '(- *)--help[print the usage]' \
        '(- *)--version[print the version]' \
        '(- *)--completion[print a completion script]:shell:(bash zsh)' \
        '1:problem:->problem' \
        '*:file:_files -g "*.c(-.)"' && return
    if [[ $state == problem ]]; then
        problems=(list ${(f)"$(${words[1]} list 2>/dev/null | awk '{ print $1; print $2 }')"})
        compadd -a problems
    fi
}
(( $+functions[compdef] )) && compdef _judge_complete judge ./judge
