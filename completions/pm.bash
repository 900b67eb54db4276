# bash completion for pm (generated; do not edit). Install: pm completion bash > ~/.local/share/bash-completion/completions/pm
# Every TAB asks pm itself (pm __complete), which knows global options, flags and values.
_pm() {
  local cur="${COMP_WORDS[COMP_CWORD]}" out
  local IFS=$'\n'
  out=$(pm __complete "$COMP_CWORD" "${COMP_WORDS[@]:1}" 2>/dev/null)
  if [ "$out" = "__files__" ]; then
    COMPREPLY=( $(compgen -f -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "$out" -- "$cur") )
  fi
}
complete -F _pm pm
