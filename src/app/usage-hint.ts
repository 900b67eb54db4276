// Did-you-mean for an unknown command or flag, from the registry and the global-flags table with
// the one suggester (src/core/suggest.ts), instead of commander's own guess: the same ranking as
// for profiles and markets (`watch foo` guesses nothing, `token add --stdin` finds --secret-stdin).
import { BUILTIN_FLAGS, GLOBAL_FLAGS } from '../cli/global-flags.js';
import type { GlobalFlagSpec } from '../cli/global-flags.js';
import { didYouMean, suggest } from '../core/suggest.js';
import { commands } from './registry.js';
import type { Entry } from './registry.js';

const SPECS = [...Object.values(GLOBAL_FLAGS), ...Object.values(BUILTIN_FLAGS)] as GlobalFlagSpec[];
const takesValue = new Set<string>(SPECS.filter((s) => s.value !== undefined).flatMap((s) => [s.long, ...(s.short ? [s.short] : [])]));

/** The command words of argv: every word that is not a flag or a global flag's value, up to `--`. */
function words(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (takesValue.has(a)) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** The names at the level after `path` (group or command words, leaf aliases, and help at the top). */
function namesAfter(path: readonly string[]): string[] {
  const names = commands()
    .filter((c) => c.path.length > path.length && path.every((p, k) => c.path[k] === p))
    .flatMap((c) => (c.path.length === path.length + 1 ? [c.path[path.length] ?? '', ...(c.aliases ?? [])] : [c.path[path.length] ?? '']));
  return path.length === 0 ? [...names, 'help'] : names;
}

/** The command argv names (its longest path among the words), if any. */
function commandOf(ws: readonly string[]): Entry | undefined {
  let best: Entry | undefined;
  for (const c of commands())
    if (c.path.every((p, k) => ws[k] === p || (k === c.path.length - 1 && c.aliases?.includes(ws[k] ?? ''))))
      if (!best || c.path.length > best.path.length) best = c;
  return best;
}

/** Every long flag `command` takes, with the global ones. */
function flagsOf(command: Entry | undefined, hidden = true): string[] {
  // A hidden option (an older spelling) is known, but never proposed.
  const own = (command?.options ?? [])
    .filter((o) => hidden || !o.hidden)
    .flatMap((o) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('--')));
  return [...own, ...SPECS.map((s) => s.long)];
}

/**
 * The did-you-mean for commander's unknown-command or unknown-option error on `argv`, or
 * undefined when nothing is near.
 * @example usageSuggestion('commander.unknownOption', ['token', 'add', '--stdn']) // 'Did you mean --stdin?'
 */
export function usageSuggestion(code: string, argv: readonly string[]): string | undefined {
  const ws = words(argv);
  if (code === 'commander.unknownCommand') {
    for (let k = 0; k < ws.length; k++) {
      const names = namesAfter(ws.slice(0, k));
      if (names.length === 0) return undefined;
      const w = ws[k] ?? '';
      if (!names.includes(w)) return didYouMean(suggest(w, names, 3));
    }
    return undefined;
  }
  if (code === 'commander.unknownOption') {
    const known = flagsOf(commandOf(ws));
    const knownAll = new Set([...known, ...SPECS.flatMap((s) => (s.short ? [s.short] : []))]);
    for (const a of argv) {
      if (a === '--') break;
      if (!a.startsWith('--')) continue;
      const flag = a.split('=')[0] ?? a;
      const negated = flag.startsWith('--no-') ? `--${flag.slice(5)}` : flag;
      if (knownAll.has(flag) || knownAll.has(negated)) continue;
      return didYouMean(suggest(flag, flagsOf(commandOf(ws), false), 3));
    }
  }
  return undefined;
}
