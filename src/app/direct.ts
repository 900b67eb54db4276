// A command line read without commander, so that start-up does not load it: the command argv
// names outright, with its arguments and options in the plain forms (--name value, --name=value,
// switches, the global flags). Anything else (help, --version, `--`, bundled short flags, a value
// that starts with "-", an option given twice, a list option, too many or too few arguments, a
// value commander would refuse) is left to commander (src/app/main.ts), which parses and reports
// as always. test/cli/direct-argv.test.ts checks each line read here against commander's reading.
import type { ManifestOption, OptionKind } from '../cli/command.js';
import { GLOBAL_FLAGS, globalFlag, scanArgv } from '../cli/global-flags.js';
import type { ArgvScan, GlobalFlagSpec } from '../cli/global-flags.js';
import { parseDuration } from '../core/duration.js';
import { didYouMean, suggest } from '../core/suggest.js';
import type { Invocation } from './invoke.js';
import { commandAt } from './registry.js';
import type { Entry } from './registry.js';

/** A value read from argv, or why it is refused (commander's message). */
export type Read<T> = { value: T } | { error: string };

/** A whole-number option's value. */
export function wholeNumber(kind: Exclude<OptionKind, 'string' | 'boolean' | 'list'>, flag: string, raw: string): Read<number> {
  if (!/^\d+$/.test(raw)) return { error: `expected a whole number, got "${raw}".` };
  const n = Number(raw);
  // Above 2^53 a number is rounded: 9007199254740993 would silently become …992.
  if (!Number.isSafeInteger(n)) return { error: `${flag} is too large (at most ${Number.MAX_SAFE_INTEGER}), got "${raw}".` };
  if (kind === 'positiveInt' && n < 1) return { error: `${flag} must be at least 1.` };
  if (kind === 'port' && n > 65535) return { error: `a port is 0-65535, got ${n}.` };
  return { value: n };
}

/**
 * Choices match in any case (`Buy`, `YES`, `GTC`) and give the spelling the definition lists
 * first: sides, outcomes and types are case-insensitive everywhere.
 */
export function choice(choices: readonly string[], raw: string): Read<string> {
  const hit = choices.find((c) => c === raw) ?? choices.find((c) => c.toLowerCase() === raw.toLowerCase());
  if (hit !== undefined) return { value: hit };
  const near = didYouMean(suggest(raw, choices, 1));
  return {
    error: `Allowed choices are ${[...new Set(choices.map((c) => c.toLowerCase()))].join(', ')}.${near ? ` ${near}` : ''}`,
  };
}

/** The long form of an option's flags (`--limit` of `--limit <n>`). */
export const longOf = (o: ManifestOption): string => o.flags.split(/[ ,]+/).find((f) => f.startsWith('--')) ?? o.flags;

const optionValue = (o: ManifestOption, raw: string): Read<unknown> =>
  o.type === 'int' || o.type === 'positiveInt' || o.type === 'port'
    ? wholeNumber(o.type, longOf(o), raw)
    : o.choices
      ? choice(o.choices, raw)
      : { value: raw };

function globalValue(spec: GlobalFlagSpec, raw: string): Read<unknown> {
  if (spec.choices) return spec.choices.includes(raw) ? { value: raw } : { error: 'not a choice' };
  if (!spec.duration) return { value: raw };
  try {
    return { value: parseDuration(raw, spec.long) };
  } catch (e) {
    return { error: String(e) };
  }
}

/**
 * The command `argv` names outright (its full path right after the global options), so that
 * only its parser is built: building all ~70 commands costs a start-up every command pays. Any
 * other argv (help, a group, an alias, a typo, an unknown flag first) gets the whole program.
 */
export function targetCommand(argv: string[], scan = scanArgv(argv)): Entry | undefined {
  return scan.direct ? commandAt(scan.words) : undefined;
}

/** The command line as commander would parse it, or undefined for commander to parse. */
export function directInvocation(argv: string[], scan: ArgvScan = scanArgv(argv)): Invocation | undefined {
  const def = targetCommand(argv, scan);
  if (!def || scan.given.help || scan.given.version) return undefined;
  // (Left to commander: an own option spelled as a global flag, a negated or optional-value one.)
  const plain = (o: ManifestOption): boolean =>
    !globalFlag(longOf(o)) && !(o.name in GLOBAL_FLAGS) && !longOf(o).startsWith('--no-') && !o.flags.includes('[');
  if (!def.options.every(plain)) return undefined;
  const words = new Set(scan.at.slice(0, def.path.length));
  const own: Record<string, unknown> = {};
  const globals: Record<string, unknown> = {};
  const operands: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (words.has(i)) continue;
    if (a.length < 2 || !a.startsWith('-')) {
      operands.push(a);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq < 0 ? a : a.slice(0, eq);
    const g = globalFlag(name);
    const o = g ? undefined : def.options.find((x) => longOf(x) === name);
    const [key, target] = g ? [g[0], globals] : o ? [o.name, own] : [];
    if (key === undefined || target === undefined || key in target || o?.type === 'list') return undefined;
    if (g ? !g[1].value : o?.type === 'boolean') {
      if (eq >= 0) return undefined;
      // A --no-… switch is stored as false, as commander does.
      target[key] = !g?.[1].long.startsWith('--no-');
      continue;
    }
    const raw = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (raw === undefined || (eq < 0 && raw.startsWith('-'))) return undefined;
    const read = g ? globalValue(g[1], raw) : o ? optionValue(o, raw) : { error: '' };
    if ('error' in read) return undefined;
    target[key] = read.value;
  }
  const positional: unknown[] = [];
  for (const [k, arg] of def.args.entries()) {
    if (arg.variadic) {
      const rest = operands.splice(k);
      if ((arg.required && rest.length === 0) || rest.some((v) => arg.choices && !arg.choices.includes(v))) return undefined;
      positional.push(rest.length ? rest : undefined);
      continue;
    }
    const raw = operands[k];
    if (raw === undefined) {
      if (arg.required) return undefined;
      positional.push(undefined);
      continue;
    }
    const read: Read<unknown> = arg.choices ? choice(arg.choices, raw) : { value: raw };
    if ('error' in read) return undefined;
    positional.push(read.value);
  }
  if (operands.length > def.args.length) return undefined;
  // Defaults as commander keeps them: a whole number read, any other as declared.
  for (const o of def.options) {
    if (own[o.name] !== undefined || o.default === undefined) continue;
    const read =
      o.type === 'int' || o.type === 'positiveInt' || o.type === 'port' ? wholeNumber(o.type, longOf(o), String(o.default)) : undefined;
    if (read && 'error' in read) return undefined;
    own[o.name] = read ? read.value : o.default;
  }
  return { def, positional, own, opts: { ...globals, ...own } };
}
