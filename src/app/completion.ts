// Shell completion: one engine (`pm __complete <index> <words…>`, as gh and cobra do) that the
// bash, zsh and fish scripts call, and `pm shell` uses directly. It knows the global options
// (wherever they appear), each command's flags, and values: choices of enum flags and arguments
// (--type, --side, -o …), profile names, wallet names, and market slugs from a short-lived local
// cache of `markets list` (refreshed with a short timeout when stale; nothing on failure).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestOption } from '../cli/command.js';
import { ALL_FLAGS, globalFlag, quietFlags, scanArgv } from '../cli/global-flags.js';
import type { GivenFlags } from '../cli/global-flags.js';
import { withIO } from '../cli/output.js';
import type { IO } from '../cli/output.js';
import type { Entry } from './registry.js';
import { commands } from './registry.js';

/** A value source: fixed words, or something looked up when TAB is pressed. */
type ValueKind = { words: string[] } | 'slug' | 'profile' | 'wallet' | 'file' | 'none';

const longFlags = (o: ManifestOption): string[] => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-'));
const takesValue = (o: ManifestOption): boolean => o.type !== 'boolean';
/** A name for a file (file, secretFile), not one that only contains the letters (profile, profileId). */
const namesFile = (name: string): boolean => /^file$|[a-z]File$/.test(name);

/** What an option's value is (by its choices, then by what it names). */
function optionValues(cmd: Entry, o: ManifestOption): ValueKind {
  const words = o.choices?.length ? o.choices : o.suggestions;
  if (words?.length) return { words: [...new Set(words.map((c) => c.toLowerCase()))] };
  const d = `${o.name} ${o.description}`.toLowerCase();
  if (o.name === 'market' || (o.name === 'all' && cmd.path.join(' ') === 'order cancel') || /\bmarket slug\b/.test(d)) return 'slug';
  if (o.name === 'wallet') return 'wallet';
  if (namesFile(o.name) || o.name === 'out') return 'file';
  return 'none';
}

/** What the n-th positional argument of a command is. */
function argValues(cmd: Entry, n: number): ValueKind {
  const args = cmd.args;
  const a = args[n] ?? (args.length && args[args.length - 1]?.variadic ? args[args.length - 1] : undefined);
  if (!a) return 'none';
  const words = a.choices?.length ? a.choices : a.suggestions;
  if (words?.length) return { words: [...new Set(words.map((c) => c.toLowerCase()))] };
  const path = cmd.path.join(' ');
  const d = `${a.name} ${a.description}`.toLowerCase();
  if (path.startsWith('profile ')) return 'profile';
  if (path.startsWith('wallet ') && a.name === 'name') return 'wallet';
  if (a.name === 'slug' || /market slug/.test(d)) return 'slug';
  if (namesFile(a.name)) return 'file';
  return 'none';
}

export interface CompletionSources {
  profiles(): Promise<string[]> | string[];
  wallets(): Promise<string[]> | string[];
  slugs(): Promise<string[]> | string[];
}

/** What a flag's value is: undefined when it is not a flag of here or takes no value. */
function flagValue(cmd: Entry | undefined, flag: string): { kind: ValueKind; list: boolean } | undefined {
  const g = globalFlag(flag)?.[1];
  if (g?.value) return { kind: g.choices ? { words: [...g.choices] } : (g.complete ?? 'none'), list: false };
  const own = cmd?.options.find((o) => longFlags(o).includes(flag));
  if (cmd && own && takesValue(own)) return { kind: optionValues(cmd, own), list: own.type === 'list' };
  return undefined;
}

/** Reads what the words before the cursor say: the command, positionals, a pending flag. */
function analyse(words: string[]): {
  cmd: Entry | undefined;
  group: string | undefined;
  positional: number;
  pending: ValueKind | undefined;
} {
  let group: string | undefined;
  let cmd: Entry | undefined;
  let positional = 0;
  let pending: ValueKind | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    const eq = /^(--[^=]+)=(.*)$/.exec(w);
    const flag = eq ? (eq[1] ?? '') : w;
    if (w === '--') break;
    if (flag.startsWith('-') && flag.length > 1) {
      const v = flagValue(cmd, flag);
      if (v) {
        if (eq) continue;
        if (i === words.length - 1) {
          pending = v.kind;
          break;
        }
        i++;
        // A list option (--client-id a b c) takes every word up to the next flag.
        if (v.list) while (i + 1 < words.length && !(words[i + 1] ?? '').startsWith('-')) i++;
      }
      continue;
    }
    if (!cmd && !group) {
      const leaf = commands().find((c) => c.path.length === 1 && (c.path[0] === w || c.aliases?.includes(w)));
      if (leaf) cmd = leaf;
      else if (commands().some((c) => c.path.length > 1 && c.path[0] === w)) group = w;
      else return { cmd: undefined, group: undefined, positional: -1, pending: undefined };
    } else if (!cmd && group) {
      cmd = commands().find((c) => c.path[0] === group && (c.path[1] === w || c.aliases?.includes(w)));
      if (!cmd) return { cmd: undefined, group, positional: -1, pending: undefined };
    } else positional++;
  }
  return { cmd, group, positional, pending };
}

/**
 * The candidates for the word at `words[index]` (words exclude `pm`; later words are ignored),
 * filtered by what was typed. `['__files__']` asks the shell for file names.
 * @example await complete(['--profile', 'sandbox', 'ma'], 2, sources) // ['markets']
 */
export async function complete(words: string[], index: number, sources: CompletionSources): Promise<string[]> {
  const before = words.slice(0, index);
  const cur = words[index] ?? '';
  const a = analyse(before);
  const values = async (k: ValueKind): Promise<string[]> => {
    if (k === 'none') return [];
    if (k === 'file') return ['__files__'];
    if (k === 'slug') return sources.slugs();
    if (k === 'profile') return sources.profiles();
    if (k === 'wallet') return sources.wallets();
    return k.words;
  };
  // --flag=value at the cursor: the flag's values, as whole words (bash's script strips the
  // "--flag=" again, since bash completes only what follows the "=").
  const eq = /^(--[^=]+)=(.*)$/.exec(cur);
  if (eq && a.positional >= 0 && !a.pending) {
    const [, flag = '', typed = ''] = eq;
    const v = flagValue(a.cmd, flag);
    if (!v) return [];
    const vals = await values(v.kind);
    if (vals[0] === '__files__') return vals;
    return [...new Set(vals)].filter((w) => w.toLowerCase().startsWith(typed.toLowerCase())).map((w) => `${flag}=${w}`);
  }
  let out: string[];
  if (a.pending) out = await values(a.pending);
  else if (a.positional < 0) out = [];
  else if (cur.startsWith('-')) {
    const own = a.cmd
      ? a.cmd.options
          .filter((o) => !o.hidden)
          .flatMap(longFlags)
          .filter((f) => f.startsWith('--'))
      : [];
    out = [...own, ...ALL_FLAGS.map(([, g]) => g.long)];
  } else if (!a.cmd && !a.group) out = [...new Set(commands().map((c) => c.path[0] ?? ''))];
  else if (!a.cmd && a.group)
    out = commands()
      .filter((c) => c.path[0] === a.group)
      .map((c) => c.path[1] ?? '');
  else out = a.cmd ? await values(argValues(a.cmd, a.positional)) : [];
  if (out[0] === '__files__') return out;
  const lc = cur.toLowerCase();
  return [...new Set(out)].filter((w) => w.toLowerCase().startsWith(lc));
}

const SLUG_TTL_MS = 10 * 60_000;

/** The sources for a real run: config, keystore, and the slug cache under PM_HOME/cache. */
async function liveSources(io: IO, globals: GivenFlags): Promise<CompletionSources> {
  const { Context } = await import('../cli/kernel.js');
  const { profile, baseUrl } = globals;
  // A quiet Context that never asks: for the active profile, or the one --profile names.
  const quiet = (to: IO, name: string | undefined) => new Context(to, quietFlags(name, baseUrl));
  const ctx = quiet(withIO(io, { stderr: { write: () => true } }), undefined);
  const profiles = (): string[] => {
    try {
      return Object.keys(ctx.config().profiles);
    } catch {
      return [];
    }
  };
  return {
    profiles,
    wallets: async () => {
      try {
        return (await ctx.keystore()).listWallets().map((w) => w.name);
      } catch {
        return [];
      }
    },
    slugs: async () => {
      const file = join(ctx.home, 'cache', 'market-slugs.json');
      let base = '';
      try {
        base = profile && profiles().includes(profile) ? quiet(io, profile).baseUrl : ctx.baseUrl;
      } catch {
        return [];
      }
      try {
        const c = JSON.parse(readFileSync(file, 'utf8')) as { at?: unknown; baseUrl?: unknown; slugs?: unknown };
        if (typeof c.at === 'number' && Date.now() - c.at < SLUG_TTL_MS && c.baseUrl === base && Array.isArray(c.slugs))
          return c.slugs.filter((s): s is string => typeof s === 'string');
      } catch {
        // no cache yet, or a damaged one: rebuilt below
      }
      try {
        const { ApiClient, marketIndex } = await import('../cli/kernel.js');
        // One bound for the whole TAB: no retries, and every page within the same 2.5 s.
        const api = new ApiClient({
          baseUrl: base,
          timeoutMs: 2500,
          maxRetries: 0,
          signal: AbortSignal.timeout(2500),
          userAgent: 'pm-cli',
        });
        try {
          const slugs = (await marketIndex(api)).map((m) => m.slug);
          const { writePrivateFileAtomic } = await import('../cli/kernel.js');
          try {
            writePrivateFileAtomic(file, JSON.stringify({ at: Date.now(), baseUrl: base, slugs }));
          } catch {
            // a read-only PM_HOME: no cache
          }
          return slugs;
        } finally {
          await api.close();
        }
      } catch {
        return [];
      }
    },
  };
}

/** `pm __complete <index> <words…>`: prints one candidate per line, never an error. */
export async function completeCommand(argv: string[], io: IO): Promise<number> {
  const index = Number(argv[0]) - 1;
  const words = argv.slice(1);
  if (!Number.isInteger(index) || index < 0) return 0;
  try {
    const out = await complete(words, index, await liveSources(io, scanArgv(words.slice(0, index)).given));
    if (out.length) io.stdout.write(`${out.join('\n')}\n`);
  } catch {
    // completion never prints errors into the user's command line
  }
  return 0;
}

function bashCompletion(): string {
  return `# bash completion for pm (generated; do not edit). Install: pm completion bash > ~/.local/share/bash-completion/completions/pm
# Every TAB asks pm itself (pm __complete), which knows global options, flags and values.
_pm() {
  local IFS=$'\\n' words=() w cur out pre='' i n glue=0 joined=0
  # bash splits --flag=value at the "=" (COMP_WORDBREAKS): join the pieces again, as pm parses
  # them (the value only when the line really has "=value" there, not "= value").
  for ((i = 1; i <= COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    n=\${#words[@]}
    joined=0
    if ((n)) && [[ $w == = && \${words[n-1]} == --* && \${words[n-1]} != *=* ]]; then
      words[n-1]+='='
      glue=1 joined=1
    elif ((glue)) && [[ $i -lt $COMP_CWORD || -z \${COMP_LINE+x} || \${COMP_LINE:0:COMP_POINT} == *"=$w" ]]; then
      words[n-1]+=$w
      glue=0 joined=1
    else
      words+=("$w")
      glue=0
    fi
  done
  cur=\${words[\${#words[@]}-1]}
  out=$(pm __complete "\${#words[@]}" "\${words[@]}" 2>/dev/null)
  [[ $cur == --*=* ]] && pre=\${cur%%=*}=
  if [ "$out" = "__files__" ]; then
    # File names as bash gives them: a directory ends in "/" (and takes no space), odd names quoted.
    compopt -o filenames 2>/dev/null
    COMPREPLY=( $(compgen -f -- "\${cur#"$pre"}") )
    ((joined)) || COMPREPLY=( "\${COMPREPLY[@]/#/$pre}" )
  else
    COMPREPLY=( $(compgen -W "$out" -- "$cur") )
    # After a split "=", bash replaces only what follows it: drop the "--flag=" again.
    ((joined)) && COMPREPLY=( "\${COMPREPLY[@]#"$pre"}" )
  fi
  return 0
}
complete -F _pm pm
`;
}

function zshCompletion(): string {
  return `#compdef pm
# zsh completion for pm (generated; do not edit). Install: pm completion zsh > "\${fpath[1]}/_pm"
# Every TAB asks pm itself (pm __complete), which knows global options, flags and values.
_pm() {
  local -a out
  out=("\${(@f)$(pm __complete $((CURRENT - 1)) "\${(@)words[2,-1]}" 2>/dev/null)}")
  if [[ "\${out[1]}" == __files__ ]]; then
    [[ "\${words[CURRENT]}" == --*=* ]] && compset -P '*='
    _files
  elif (( \${#out} )) && [[ -n "\${out[1]}" ]]; then
    compadd -- "\${out[@]}"
  fi
}
if [[ "\${funcstack[1]}" == _pm ]]; then _pm "$@"; else compdef _pm pm; fi
`;
}

function fishCompletion(): string {
  return `# fish completion for pm (generated; do not edit). Install: pm completion fish > ~/.config/fish/completions/pm.fish
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
            printf '%s%s\\n' "$pre" "$p"
        end
    else
        printf '%s\\n' $out
    end
end
complete -c pm -f -a '(__pm_complete)'
`;
}

export const COMPLETIONS = {
  bash: { file: 'pm.bash', make: bashCompletion },
  zsh: { file: '_pm', make: zshCompletion },
  fish: { file: 'pm.fish', make: fishCompletion },
} as const;
