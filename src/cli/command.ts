// The command definition shape. Definitions are cheap metadata; handlers load lazily so that
// `pm --help` and `pm --version` stay fast.
import type { Context } from './context.js';

export interface ArgDef {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  choices?: readonly string[];
}

export interface OptionDef {
  /** commander flags, e.g. `--limit <n>` or `-a, --all`. */
  flags: string;
  description: string;
  choices?: readonly string[];
  default?: string | boolean;
  /** Parses and checks the raw value (throw UsageError on bad input). */
  parse?: 'int' | 'positiveInt' | 'port';
}

export type Opts = Record<string, unknown>;

export interface CommandInput {
  args: string[];
  /** Variadic last argument, when declared. */
  rest: string[];
  opts: Opts;
}

export type Handler = (ctx: Context, input: CommandInput) => Promise<number | void>;

export interface CommandDef {
  /** e.g. ['markets', 'list']; a single word for top-level commands. */
  path: string[];
  summary: string;
  description?: string;
  args?: ArgDef[];
  options?: OptionDef[];
  examples: string[];
  aliases?: string[];
  load: () => Promise<{ default: Handler }>;
}

/** Reads a string option. */
export function optStr(opts: Opts, key: string): string | undefined {
  const v = opts[key];
  return typeof v === 'string' ? v : undefined;
}

/** Reads a numeric option (already parsed by the definition's `parse`). */
export function optNum(opts: Opts, key: string): number | undefined {
  const v = opts[key];
  return typeof v === 'number' ? v : undefined;
}

/** Reads a boolean flag. */
export function optBool(opts: Opts, key: string): boolean {
  return opts[key] === true;
}

/** Reads a repeatable or variadic option. */
export function optList(opts: Opts, key: string): string[] {
  const v = opts[key];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}
