// The command definition: each command file defines its own positional arguments, flags and
// examples with defineCommand, and the handler's `args`/`opts` types are inferred from that
// definition (rename a flag here and every use of the old name is a type error). At build time
// scripts/build.mjs turns the definitions into src/generated/manifest.json (metadata only), so help,
// completion and start-up never import a command module; a command's module loads only when it runs.
import type { Context } from './context.js';

/** How an option's value is read. Numbers are checked (exit 2 on bad input) before anything runs. */
export type OptionKind = 'string' | 'boolean' | 'int' | 'positiveInt' | 'port' | 'list';

export interface OptionSpec {
  type: OptionKind;
  description: string;
  /** A one-letter alias, e.g. 'a' for -a. */
  short?: string;
  /** The value's name in help, e.g. 'n' for `--limit <n>` (default: value). */
  value?: string;
  choices?: readonly string[];
  /** Values completion offers without enforcing them (the real list is known only at run time). */
  suggestions?: readonly string[];
  default?: string | number | boolean;
  /** An older spelling kept working: accepted, but shown in no help, completion or reference. */
  hidden?: boolean;
}

export interface ArgSpec {
  description: string;
  required?: boolean;
  /** Takes every remaining word (the last argument only). */
  variadic?: boolean;
  choices?: readonly string[];
  /** Values completion offers without commander enforcing them (the command checks them itself). */
  suggestions?: readonly string[];
}

type ArgValue<S> = S extends { variadic: true }
  ? S extends { choices: readonly (infer C)[] }
    ? C[]
    : string[]
  : S extends { choices: readonly (infer C)[] }
    ? S extends { required: true }
      ? C
      : C | undefined
    : S extends { required: true }
      ? string
      : string | undefined;

type OptValue<S> = S extends { type: 'boolean' }
  ? boolean
  : S extends { type: 'list' }
    ? string[]
    : S extends { type: 'int' | 'positiveInt' | 'port' }
      ? S extends { default: number }
        ? number
        : number | undefined
      : S extends { choices: readonly (infer C)[] }
        ? S extends { default: string }
          ? C
          : C | undefined
        : S extends { default: string }
          ? string
          : string | undefined;

/** The positional arguments a handler receives, by name. */
export type ArgsOf<A> = { -readonly [K in keyof A]: ArgValue<A[K]> };
/** The options a handler receives, by name (camelCase of the flag: postOnly for --post-only). */
export type OptsOf<O> = { -readonly [K in keyof O]: OptValue<O[K]> };

/**
 * What a command does, declared once; the kernel's guard (src/cli/guard.ts) acts on it before the
 * handler runs: `read` changes nothing; `local` changes only files under PM_HOME (or starts a
 * local process); `order` places, replaces or cancels orders; `money` moves funds or positions,
 * or changes who may trade or where money may go (withdrawals, redemptions, approvals, the
 * allowlist, sub-accounts, tokens); `destructive` loses something for good or reveals a secret
 * (a key, a token, a profile, a sandbox's ledger).
 */
export type Effect = 'read' | 'local' | 'order' | 'money' | 'destructive';

/** What each effect means for a user (the command reference says it of every command). */
export const EFFECT_TEXT: Record<Effect, string> = {
  read: 'reads only',
  local: 'changes only files under PM_HOME (or starts a local process)',
  order: 'changes orders: asks on a terminal, or needs --yes in a script, when the exchange is not a sandbox',
  money: 'moves money or changes who may: asks on a terminal, or needs --yes in a script, when the exchange is not a sandbox',
  destructive: 'loses something for good: asks on a terminal, or needs --yes in a script, on every exchange',
};

/** Where a command acts (see CommandSpec.target): a URL, and what it is, for the prompt. */
export interface Target {
  url: string | undefined;
  /** 'exchange', 'RPC'… */
  what: string;
}

/** One invocation's effect (CommandSpec.effectOf): an effect, or an effect and why it is asked for. */
export type EffectOf = Effect | { effect: Effect; why: string };

/** The effects the guard asks about (or needs --yes for). */
export const GUARDED_EFFECTS: readonly Effect[] = ['order', 'money', 'destructive'];

export interface CommandSpec<A extends Record<string, ArgSpec>, O extends Record<string, OptionSpec>> {
  /** e.g. ['markets', 'list']; a single word for top-level commands. */
  path: readonly string[];
  effect: Effect;
  /**
   * The effect of one invocation where it differs from `effect` (a dry run reads; a sandbox
   * started on a public host is destructive, and says why; --force over a wallet that exists
   * destroys its key). It may read what is on this machine under PM_HOME (whether a wallet of
   * that name exists, its address), never a secret, the network, or write.
   */
  effectOf?: (input: { args: ArgsOf<A>; opts: OptsOf<O> }, ctx: Context) => EffectOf | Promise<EffectOf>;
  /**
   * With effectOf (test/cli/docs.test.ts holds every such command to it): what changes the effect,
   * in the command reference's words, e.g. "With `--dry-run`: **read**".
   */
  effectNote?: string;
  /**
   * The command acts for a partner's sub-account: it gets `--on-behalf-of` from the shared flags
   * table, and its context acts as the resolved sub-account (flag > profile), resolved once.
   */
  actsFor?: boolean;
  /** Works only against a sandbox (its admin routes): any other target is refused locally (exit 2). */
  sandboxOnly?: boolean;
  /**
   * Where this invocation acts, when that is not only the exchange in use: an on-chain command
   * acts on its RPC too (`url` undefined: there is none, and nothing can be sent), init on its own
   * exchange. The guard asks when any of them is not a sandbox (not loopback). It may read the
   * local sandbox (which chain it runs) but never write, and never reach a host that is not loopback.
   */
  target?: (ctx: Context, input: { args: ArgsOf<A>; opts: OptsOf<O> }) => Promise<readonly Target[]> | readonly Target[];
  /**
   * The command streams, waits or asks between its requests (watch, a wizard, --wait): each of
   * its requests gets --timeout of its own. Every other command's requests, retries included,
   * share one deadline: --timeout from its first request.
   */
  longRunning?: boolean | ((input: { args: ArgsOf<A>; opts: OptsOf<O> }) => boolean);
  /**
   * Refuses an invocation that cannot run, from its command line alone (no request, no secret, no
   * network; it may read what is on this machine: PM_HOME's profiles, a file the command line
   * names, never stdin): called before the guard, so a script learns what is wrong with its
   * command line before it is told to add --yes, as a terminal does from `describe`, and is never
   * shown "Go ahead?" for a line that cannot run. The run parses the same again, with the same
   * functions (no second copy of a rule).
   */
  check?: (ctx: Context, input: { args: ArgsOf<A>; opts: OptsOf<O> }) => void;
  /**
   * What a guarded invocation will do, in numbers and names, for the confirmation prompt on a
   * terminal (the guard adds the exchange and the profile). It may read (count orders, look up a
   * market) but never write.
   */
  describe?: (ctx: Context, input: { args: ArgsOf<A>; opts: OptsOf<O> }) => Promise<string> | string;
  summary: string;
  description?: string;
  args?: A;
  options?: O;
  examples: readonly string[];
  aliases?: readonly string[];
  run: (ctx: Context, input: { args: ArgsOf<A>; opts: OptsOf<O> }) => Promise<void>;
}

export type DefinedCommand<
  A extends Record<string, ArgSpec> = Record<string, ArgSpec>,
  O extends Record<string, OptionSpec> = Record<string, OptionSpec>,
> = CommandSpec<A, O> & { readonly kind: 'pm-command' };

/**
 * Defines a command; the file's default export.
 * @example export default defineCommand({ path: ['book'], summary: 'Order book', args: { slug: { description: 'market slug', required: true } }, options: { depth: { type: 'positiveInt', description: 'levels', default: 10 } }, examples: ['pm book btc'], run: async (ctx, { args, opts }) => {} })
 */
export function defineCommand<const A extends Record<string, ArgSpec> = {}, const O extends Record<string, OptionSpec> = {}>(
  spec: CommandSpec<A, O>,
): DefinedCommand<A, O> {
  return { ...spec, kind: 'pm-command' };
}

export function isDefinedCommand(v: unknown): v is DefinedCommand {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'pm-command';
}

/** One command in the manifest: plain data, no code. */
export interface ManifestArg {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  choices?: string[];
  suggestions?: string[];
}

export interface ManifestOption {
  /** The key in `opts` (camelCase). */
  name: string;
  /** commander flags, e.g. `-a, --all` or `--limit <n>`. */
  flags: string;
  type: OptionKind;
  description: string;
  choices?: string[];
  suggestions?: string[];
  default?: string | number | boolean;
  hidden?: boolean;
}

export interface ManifestCommand {
  path: string[];
  summary: string;
  description?: string;
  args: ManifestArg[];
  options: ManifestOption[];
  examples: string[];
  aliases?: string[];
  effect: Effect;
  effectNote?: string;
  actsFor?: boolean;
  sandboxOnly?: boolean;
  /** The module under src/commands (or dist/commands) that default-exports the definition. */
  file: string;
}

/**
 * Options that several commands share, declared once: a command gets them by declaring what it
 * does (`actsFor: true` gives --on-behalf-of), never by re-declaring them.
 */
const SHARED_OPTIONS: Readonly<Record<'onBehalfOf', OptionSpec>> = {
  onBehalfOf: {
    type: 'positiveInt',
    value: 'profileId',
    description: "act for a partner's sub-account (default: the profile's on-behalf-of)",
  },
};

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The manifest entry of a definition defined in `file` (relative to the commands directory). */
export function manifestEntry(
  def: Omit<
    CommandSpec<Record<string, ArgSpec>, Record<string, OptionSpec>>,
    'run' | 'check' | 'describe' | 'effectOf' | 'longRunning' | 'target'
  >,
  file: string,
): ManifestCommand {
  const args = Object.entries(def.args ?? {}).map(
    ([name, a]): ManifestArg => ({
      name,
      description: a.description,
      ...(a.required ? { required: true } : {}),
      ...(a.variadic ? { variadic: true } : {}),
      ...(a.choices ? { choices: [...a.choices] } : {}),
      ...(a.suggestions ? { suggestions: [...a.suggestions] } : {}),
    }),
  );
  const options = Object.entries({ ...(def.options ?? {}), ...(def.actsFor ? SHARED_OPTIONS : {}) }).map(([name, o]): ManifestOption => {
    const value = o.type === 'boolean' ? '' : ` <${o.value ?? 'value'}${o.type === 'list' ? '...' : ''}>`;
    return {
      name,
      flags: `${o.short ? `-${o.short}, ` : ''}--${kebab(name)}${value}`,
      type: o.type,
      description: o.description,
      ...(o.choices ? { choices: [...o.choices] } : {}),
      ...(o.suggestions ? { suggestions: [...o.suggestions] } : {}),
      ...(o.default !== undefined ? { default: o.default } : {}),
      ...(o.hidden ? { hidden: true } : {}),
    };
  });
  return {
    path: [...def.path],
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    args,
    options,
    examples: [...def.examples],
    ...(def.aliases?.length ? { aliases: [...def.aliases] } : {}),
    effect: def.effect,
    ...(def.effectNote ? { effectNote: def.effectNote } : {}),
    ...(def.actsFor ? { actsFor: true } : {}),
    ...(def.sandboxOnly ? { sandboxOnly: true } : {}),
    file,
  };
}
