# bash completion for pm (generated; do not edit). Install: pm completion bash > ~/.local/share/bash-completion/completions/pm
# Every TAB asks pm itself (pm __complete), which knows global options, flags and values.
_pm() {
  local IFS=$'\n' words=() w cur out pre='' i n glue=0 joined=0
  # bash splits --flag=value at the "=" (COMP_WORDBREAKS): join the pieces again, as pm parses
  # them (the value only when the line really has "=value" there, not "= value").
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    n=${#words[@]}
    joined=0
    if ((n)) && [[ $w == = && ${words[n-1]} == --* && ${words[n-1]} != *=* ]]; then
      words[n-1]+='='
      glue=1 joined=1
    elif ((glue)) && [[ $i -lt $COMP_CWORD || -z ${COMP_LINE+x} || ${COMP_LINE:0:COMP_POINT} == *"=$w" ]]; then
      words[n-1]+=$w
      glue=0 joined=1
    else
      words+=("$w")
      glue=0
    fi
  done
  cur=${words[${#words[@]}-1]}
  out=$(pm __complete "${#words[@]}" "${words[@]}" 2>/dev/null)
  [[ $cur == --*=* ]] && pre=${cur%%=*}=
  if [ "$out" = "__files__" ]; then
    # File names as bash gives them: a directory ends in "/" (and takes no space), odd names quoted.
    compopt -o filenames 2>/dev/null
    COMPREPLY=( $(compgen -f -- "${cur#"$pre"}") )
    ((joined)) || COMPREPLY=( "${COMPREPLY[@]/#/$pre}" )
  else
    COMPREPLY=( $(compgen -W "$out" -- "$cur") )
    # After a split "=", bash replaces only what follows it: drop the "--flag=" again.
    ((joined)) && COMPREPLY=( "${COMPREPLY[@]#"$pre"}" )
  fi
  return 0
}
complete -F _pm pm
