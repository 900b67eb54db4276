// The global flags, in one table. From it come commander's global options (src/app/main.ts), the
// GlobalFlags every command's context receives, the argv pre-scan (what argv asks for before
// commander has parsed it: the command it names, JSON, help), completion (src/app/completion.ts)
// and the "Global flags" section of docs/configuration.md (a test compares it). Every run loads this file: it
// imports nothing.

export interface GlobalFlagSpec {
  /** The long form ('--no-…' for a switch that is on by default: commander negates it). */
  long: `--${string}`;
  /** A one-letter alias, e.g. '-o'. */
  short?: `-${string}`;
  /** The value's name in help (`--profile <name>`); a flag without one is a switch. */
  value?: string;
  choices?: readonly string[];
  /** The value is a duration (500ms, 20s, 5m; a bare number is ms), read into milliseconds. */
  duration?: true;
  /** The environment variable that does the same (the flag wins). */
  env?: string;
  description: string;
  /** What completion offers for the value when there are no choices. */
  complete?: 'profile' | 'file';
}

/** In `pm --help`'s order; the key is the field of GlobalFlags (commander's camelCase name). */
export const GLOBAL_FLAGS = {
  profile: { long: '--profile', value: 'name', env: 'PM_PROFILE', complete: 'profile', description: 'profile to use' },
  json: { long: '--json', description: 'print JSON on stdout (errors as JSON on stderr)' },
  output: { long: '--output', short: '-o', value: 'format', choices: ['table', 'json', 'ndjson'], description: 'output format' },
  baseUrl: { long: '--base-url', value: 'url', env: 'PM_BASE_URL', description: 'exchange REST URL' },
  wsUrl: { long: '--ws-url', value: 'url', env: 'PM_WS_URL', description: 'exchange socket.io URL' },
  verbose: { long: '--verbose', description: 'trace requests on stderr (credentials redacted) and show stack traces' },
  quiet: { long: '--quiet', short: '-q', description: 'print only data' },
  wide: { long: '--wide', description: 'tables on a terminal: every column, nothing cut, however wide' },
  color: { long: '--no-color', env: 'NO_COLOR', description: 'disable colour' },
  nonInteractive: { long: '--non-interactive', description: 'never prompt (automatic without a TTY or with CI set)' },
  yes: { long: '--yes', short: '-y', description: 'skip confirmations' },
  timeout: {
    long: '--timeout',
    value: 'duration',
    duration: true,
    env: 'PM_TIMEOUT',
    description: "the command's deadline, retries included: ms, or 500ms, 20s, 5m; at most 1h",
  },
  passphraseFile: {
    long: '--passphrase-file',
    value: 'file',
    env: 'PM_PASSPHRASE',
    complete: 'file',
    description: 'read the keystore passphrase from this file',
  },
} as const satisfies Record<string, GlobalFlagSpec>;

/** commander's own (it adds --help itself; main.ts gives --version these words). */
export const BUILTIN_FLAGS = {
  help: { long: '--help', short: '-h', description: 'display help for command' },
  version: { long: '--version', short: '-V', description: 'print the version' },
} as const satisfies Record<string, GlobalFlagSpec>;

type Specs = typeof GLOBAL_FLAGS & typeof BUILTIN_FLAGS;
export type GlobalFlagKey = keyof Specs;
type ValueOf<S> = S extends { duration: true } ? number : S extends { choices: readonly (infer C)[] } ? C : string;

/** What the global flags say, as every command's context receives them (json: --json, or -o json/ndjson). */
export type GlobalFlags = {
  -readonly [K in keyof typeof GLOBAL_FLAGS as (typeof GLOBAL_FLAGS)[K] extends { value: string } ? never : K]: boolean;
} & {
  -readonly [K in keyof typeof GLOBAL_FLAGS as (typeof GLOBAL_FLAGS)[K] extends { value: string } ? K : never]?:
    | ValueOf<(typeof GLOBAL_FLAGS)[K]>
    | undefined;
};

/** The flags of a quiet Context that never asks nor prints (error format, completion sources). */
export function quietFlags(profile: string | undefined, baseUrl?: string): GlobalFlags {
  return {
    profile,
    json: false,
    verbose: false,
    quiet: true,
    color: false,
    nonInteractive: true,
    yes: false,
    wide: false,
    ...(baseUrl ? { baseUrl } : {}),
  };
}

/** Every flag of the table with its key, global ones first. */
export const ALL_FLAGS = Object.entries({ ...GLOBAL_FLAGS, ...BUILTIN_FLAGS }) as [GlobalFlagKey, GlobalFlagSpec][];

/** The table's entry for `-o` or `--output` (a short or long form, without any `=value`). */
export function globalFlag(flag: string): [GlobalFlagKey, GlobalFlagSpec] | undefined {
  return ALL_FLAGS.find(([, s]) => s.long === flag || s.short === flag);
}

/** commander's flags string: `-o, --output <format>`. */
export const flagsOf = (s: GlobalFlagSpec): string => `${s.short ? `${s.short}, ` : ''}${s.long}${s.value ? ` <${s.value}>` : ''}`;

/** The line of help: the description and the environment variable that does the same. */
export const helpOf = (s: GlobalFlagSpec): string => `${s.description}${s.env ? ` (env ${s.env})` : ''}`;

/** The global flags argv gives, as written: a switch true, a value as a string (the last one wins). */
export type GivenFlags = { -readonly [K in GlobalFlagKey]?: Specs[K] extends { value: string } ? string : true };

export interface ArgvScan {
  /** The command words (the first run of words that are neither options nor their values), and where each is in argv. */
  words: string[];
  at: number[];
  /** Every flag before the command words is one of the table's, written whole: the words name the command outright. */
  direct: boolean;
  /** The table's flags anywhere in argv (up to `--`). */
  given: GivenFlags;
}

/**
 * Reads argv once, before commander does, knowing which global flags take a value: so that
 * start-up builds only the command named, usage errors honour --json, and `pm help order` works.
 * Options it does not know (a command's own) count as switches.
 * @example scanArgv(['--profile', 'p', 'order', 'list', '--json']) // words ['order', 'list'], at [2, 3], given { profile: 'p', json: true }
 */
export function scanArgv(argv: readonly string[]): ArgvScan {
  const scan: ArgvScan = { words: [], at: [], direct: true, given: {} };
  const given = scan.given as Record<string, string | true>;
  let wordsEnded = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') break;
    if (!a.startsWith('-')) {
      if (!wordsEnded) {
        scan.words.push(a);
        scan.at.push(i);
      }
      continue;
    }
    if (scan.words.length) wordsEnded = true;
    const long = a.startsWith('--');
    const eq = long ? a.indexOf('=') : -1;
    // One flag (--base-url, --base-url=URL, -o) or short ones bundled (-qy, -ojson, -qo json).
    const parts = long || a.length === 2 ? [eq < 0 ? a : a.slice(0, eq)] : [...a.slice(1)].map((c) => `-${c}`);
    const one = parts.length === 1 ? globalFlag(parts[0] ?? '') : undefined;
    if (!scan.words.length && !(one && one[0] in GLOBAL_FLAGS && (eq < 0 || one[1].value))) scan.direct = false;
    for (const [k, part] of parts.entries()) {
      const hit = globalFlag(part);
      if (!hit) break;
      if (!hit[1].value) {
        given[hit[0]] = true;
        continue;
      }
      // The value: after "=", the rest of a bundle (-ojson), else the next word.
      const inline = eq >= 0 ? a.slice(eq + 1) : long ? '' : a.slice(k + 2);
      const value = inline !== '' || eq >= 0 ? inline : argv[++i];
      if (value !== undefined) given[hit[0]] = value;
      break;
    }
  }
  return scan;
}

/**
 * Whether commander answers argv with the root help page and exit 0: no words or the word `help`,
 * and besides only --help, -h and global flags written whole (a value after a space not starting
 * with "-", an --output among its choices, no --timeout, whose value commander checks). Any other
 * argv, say false (commander then decides).
 */
export function printsRootHelp(argv: readonly string[]): boolean {
  let words = 0;
  let asked = argv.length === 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === 'help' && words++ === 0) {
      asked = true;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const hit = globalFlag(eq < 0 ? a : a.slice(0, eq));
    if (!hit || hit[0] === 'version' || (eq >= 0 && !hit[1].value)) return false;
    if (hit[0] === 'help') asked = true;
    if (!hit[1].value) continue;
    if (hit[1].duration) return false;
    const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('-')) || (hit[1].choices && !hit[1].choices.includes(value))) return false;
  }
  return asked && words <= 1;
}

/** The root help page as commander prints it, made by the build (dist/cli/root-help.json). */
interface RootHelpPages {
  /** At commander's width when stdout is no terminal: 80 columns. */
  narrow: string;
  /** Unwrapped: what commander prints at any width its longest line fits in. */
  wide: string;
}

/**
 * The page commander would print on this stdout, or undefined when only commander can say (a
 * terminal narrower than the unwrapped page, other than 80 columns): commander wraps at the
 * terminal's width, else at 80.
 */
export function rootHelpPage(pages: RootHelpPages, stdout: { isTTY?: boolean; columns?: number }): string | undefined {
  const width = (stdout.isTTY ? stdout.columns : undefined) ?? 80;
  if (width === 80) return pages.narrow;
  return pages.wide.split('\n').every((line) => line.length <= width) ? pages.wide : undefined;
}

/** The "Global flags" table of docs/configuration.md (a test keeps the file equal to it). */
export function globalFlagsMarkdown(): string {
  const row = ([, s]: [GlobalFlagKey, GlobalFlagSpec]): string =>
    `| \`${flagsOf(s)}\` | ${s.description}${s.choices ? ` (${s.choices.join(', ')})` : ''}${s.env ? ` (env \`${s.env}\`)` : ''} |`;
  return ['| flag | meaning |', '|---|---|', ...ALL_FLAGS.map(row)].join('\n');
}
