# fish completion for pm (generated; do not edit). Install: pm completion fish > ~/.config/fish/completions/pm.fish
# Every TAB asks pm itself (pm __complete), which knows global options, flags and values.
function __pm_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l cur (commandline -ct)
    set -l out (pm __complete (math (count $words) + 1) $words "$cur" 2>/dev/null)
    if test "$out[1]" = __files__
        # --flag=path: complete the path, keep the flag.
        set -l pre (string match -r -- '^--[^=]*=' "$cur")
        for p in (__fish_complete_path (string replace -r -- '^--[^=]*=' '' "$cur"))
            printf '%s%s\n' "$pre" "$p"
        end
    else
        printf '%s\n' $out
    end
end
complete -c pm -f -a '(__pm_complete)'
