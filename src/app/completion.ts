// Shell completion scripts, generated from the command registry (and committed under
// completions/; a test fails when they are stale).
import type { Entry } from './registry.js';
import { COMMANDS, GROUPS } from './registry.js';

const GLOBAL_FLAGS = ['--profile', '--json', '--output', '--base-url', '--ws-url', '--verbose', '--quiet', '--no-color', '--non-interactive', '--yes', '--timeout', '--passphrase-file', '--help', '--version'];

function flagsOf(def: Entry): string[] {
  const own = (def.options ?? []).flatMap((o) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-')));
  return [...own, ...GLOBAL_FLAGS];
}

function tree(): { top: string[]; subs: Map<string, Entry[]>; leaves: Map<string, Entry> } {
  const subs = new Map<string, Entry[]>();
  const leaves = new Map<string, Entry>();
  for (const def of COMMANDS) {
    const [first = '', second] = def.path;
    if (second === undefined) leaves.set(first, def);
    else subs.set(first, [...(subs.get(first) ?? []), def]);
  }
  const top = [...new Set(COMMANDS.map((d) => d.path[0] ?? ''))];
  return { top, subs, leaves };
}

const choicesOf = (def: Entry): string[] => (def.args ?? []).flatMap((a) => [...(a.choices ?? [])]);

export function bashCompletion(): string {
  const { top, subs, leaves } = tree();
  const cases: string[] = [];
  for (const [noun, defs] of subs) {
    cases.push(`    ${noun})\n      if [ "$cword" -eq 2 ]; then words_="${defs.map((d) => d.path[1]).join(' ')}"; else case "\${COMP_WORDS[2]}" in`);
    for (const d of defs) cases.push(`        ${d.path[1]}) words_="${flagsOf(d).join(' ')}" ;;`);
    cases.push('      esac; fi ;;');
  }
  for (const [name, d] of leaves) cases.push(`    ${name}) words_="${[...choicesOf(d), ...flagsOf(d)].join(' ')}" ;;`);
  return `# bash completion for pm (generated from the command registry; do not edit)
_pm() {
  local cur cword words_
  cur="\${COMP_WORDS[COMP_CWORD]}"
  cword=$COMP_CWORD
  if [ "$cword" -eq 1 ]; then
    words_="${top.join(' ')} ${GLOBAL_FLAGS.join(' ')}"
  else
    case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
    *) words_="${GLOBAL_FLAGS.join(' ')}" ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$words_" -- "$cur") )
}
complete -F _pm pm
`;
}

export function zshCompletion(): string {
  const { top, subs, leaves } = tree();
  const desc = (s: string): string => s.replace(/[:'[\]]/g, ' ');
  const topLines = top.map((t) => `    '${t}:${desc(GROUPS[t] ?? leaves.get(t)?.summary ?? t)}'`).join('\n');
  const subCases = [...subs].map(([noun, defs]) => `      ${noun})\n        if (( CURRENT == 3 )); then\n          _describe 'command' '(${defs.map((d) => `${d.path[1]}:${desc(d.summary).replace(/ /g, '\\ ')}`).join(' ')})'\n        else\n          case $words[3] in\n${defs.map((d) => `            ${d.path[1]}) _values 'flag' ${flagsOf(d).map((f) => `'${f}'`).join(' ')} ;;`).join('\n')}\n          esac\n        fi ;;`).join('\n');
  const leafCases = [...leaves].map(([name, d]) => `      ${name}) _values 'arg' ${[...choicesOf(d), ...flagsOf(d)].map((f) => `'${f}'`).join(' ')} ;;`).join('\n');
  return `#compdef pm
# zsh completion for pm (generated from the command registry; do not edit)
_pm() {
  local -a commands
  commands=(
${topLines}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case $words[2] in
${subCases}
${leafCases}
  esac
}
_pm "$@"
`;
}

export function fishCompletion(): string {
  const { top, subs, leaves } = tree();
  const esc = (s: string): string => s.replace(/'/g, "\\'");
  const lines = ['# fish completion for pm (generated from the command registry; do not edit)', 'complete -c pm -f'];
  for (const f of GLOBAL_FLAGS) lines.push(`complete -c pm -l ${f.slice(2)}`);
  for (const t of top) lines.push(`complete -c pm -n '__fish_use_subcommand' -a ${t} -d '${esc(GROUPS[t] ?? leaves.get(t)?.summary ?? t)}'`);
  for (const [noun, defs] of subs) {
    for (const d of defs) {
      lines.push(`complete -c pm -n '__fish_seen_subcommand_from ${noun}; and not __fish_seen_subcommand_from ${defs.map((x) => x.path[1]).join(' ')}' -a ${d.path[1]} -d '${esc(d.summary)}'`);
      for (const o of d.options ?? []) {
        const long = o.flags.split(/[ ,]+/).find((f) => f.startsWith('--'));
        if (long) lines.push(`complete -c pm -n '__fish_seen_subcommand_from ${d.path[1]}' -l ${long.slice(2)} -d '${esc(o.description)}'${o.choices ? ` -xa '${o.choices.join(' ')}'` : ''}`);
      }
    }
  }
  for (const [name, d] of leaves) {
    const ch = choicesOf(d);
    if (ch.length) lines.push(`complete -c pm -n '__fish_seen_subcommand_from ${name}' -a '${ch.join(' ')}'`);
  }
  return `${lines.join('\n')}\n`;
}

export const COMPLETIONS = { bash: { file: 'pm.bash', make: bashCompletion }, zsh: { file: '_pm', make: zshCompletion }, fish: { file: 'pm.fish', make: fishCompletion } } as const;
