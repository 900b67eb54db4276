// The command registry the app builds the parser and the completion scripts from. Every command
// is a defineCommand definition; src/generated/manifest.json (made by npm run build from the
// definitions: metadata only) lets help, completion and start-up import no command module. A
// command's module is imported only when that command runs.
import { readFileSync } from 'node:fs';
import { isDefinedCommand } from '../cli/command.js';
import type { DefinedCommand, ManifestCommand } from '../cli/command.js';

export const GROUPS: Record<string, string> = {
  markets: 'Browse markets: list, search, show, price history, trade feed, market pages',
  config: 'Read and change settings of the active profile',
  profile: 'Named profiles (exchange, wallet, token)',
  sandbox: 'The embedded local exchange for demos, tests and your own bots',
  completion: 'Shell completion scripts',
  wallet: 'EOA keys in an encrypted keystore (Web3 Secret Storage v3)',
  token: 'Scoped API tokens (HMAC); secrets are stored encrypted',
  order: 'Place, cancel, list and check orders',
  watch: 'Live streams from the exchange: order events, positions, prices, the book, markets, transactions',
  portfolio: 'Positions with PnL, the PnL chart, trades and history',
  'withdrawal-address': 'The withdrawal-address allowlist (identity token only)',
  partner: 'Sub-accounts for your users: create, list, allowance readiness, onboarding wizard',
  approve: 'On-chain token approvals the exchange needs (check first, send only what is missing)',
};

/** The order of commands in help and completion; commands not listed follow, in manifest order. */
const ORDER = [
  'markets list',
  'markets search',
  'markets show',
  'markets history',
  'markets feed',
  'markets page',
  'book',
  'config get',
  'config set',
  'config list',
  'profile list',
  'profile use',
  'profile remove',
  'sandbox start',
  'sandbox stop',
  'sandbox status',
  'sandbox reset',
  'init',
  'wallet create',
  'wallet import',
  'wallet list',
  'wallet address',
  'wallet export',
  'wallet remove',
  'token add',
  'token derive',
  'token list',
  'token revoke',
  'token capabilities',
  'order place',
  'order cancel',
  'order list',
  'order status',
  'watch orders',
  'watch positions',
  'watch prices',
  'watch book',
  'watch markets',
  'watch tx',
  'whoami',
  'completion',
  'demo',
];

/** A command's input as its handler receives it: positional arguments and its own options, by name. */
export interface CommandInput {
  args: Record<string, unknown>;
  opts: Record<string, unknown>;
}

/** A command whose module is loaded: its definition and its input read from what commander parsed. */
export interface Loaded {
  def: DefinedCommand;
  input(positional: unknown[], own: Record<string, unknown>): CommandInput;
}

/** One command as the app sees it: manifest metadata plus a loader. */
export interface Entry extends Omit<ManifestCommand, 'file'> {
  file?: string;
  load(): Promise<Loaded>;
}

function fromManifest(m: ManifestCommand): Entry {
  return {
    ...m,
    load: async () => {
      const { COMMAND_MODULES } = await import('../cli/kernel.js');
      const importer = COMMAND_MODULES[m.file];
      if (importer === undefined) throw new Error(`src/commands/${m.file} is not in src/generated/command-modules.ts (run npm run build)`);
      const mod = (await importer()) as { default?: unknown };
      const def = mod.default;
      if (!isDefinedCommand(def)) throw new Error(`src/commands/${m.file} does not export a command definition (run npm run build)`);
      return {
        def,
        input: (positional, own) => {
          const args: Record<string, unknown> = {};
          m.args.forEach((a, i) => {
            const v = positional[i];
            args[a.name] = a.variadic ? (Array.isArray(v) ? v.map(String) : []) : typeof v === 'string' ? v : undefined;
          });
          const opts: Record<string, unknown> = {};
          for (const o of m.options) {
            const v = own[o.name];
            opts[o.name] = o.type === 'boolean' ? v === true : o.type === 'list' ? (Array.isArray(v) ? v : v === undefined ? [] : [v]) : v;
          }
          return { args, opts };
        },
      };
    },
  };
}

function ordered(entries: Entry[]): Entry[] {
  const rank = (e: Entry): number => {
    const i = ORDER.indexOf(e.path.join(' '));
    return i === -1 ? ORDER.length : i;
  };
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map((x) => x.e);
}

/** dist/generated (beside the bundle), or src/generated when run from source: what the build wrote. */
const generated = (name: string): URL => new URL(`../generated/${name}`, import.meta.url);

function isManifestCommand(e: unknown): e is ManifestCommand {
  return typeof e === 'object' && e !== null && Array.isArray((e as ManifestCommand).path) && Array.isArray((e as ManifestCommand).options);
}

/**
 * The manifest: generated/manifest.json, every command. A file read and one JSON.parse cost less
 * than the same text as a string in the bundle, which V8 would scan again on every run (the compile
 * cache keeps no code of a module that is evaluated on first use, as every module of the bundle is).
 */
function readManifest(): ManifestCommand[] {
  const url = generated('manifest.json');
  const parsed: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (!Array.isArray(parsed) || !parsed.every(isManifestCommand))
    throw new Error(`${url.pathname} is not a command manifest (run npm run build)`);
  return parsed;
}

let all: Entry[] | undefined;

/** Every command, in help order: read from the manifest on first use (help, completion, commander's parse). */
export function commands(): Entry[] {
  all ??= ordered(readManifest().map(fromManifest));
  return all;
}

/** A command word as the build names files after it (src/app/docs.ts and the build check the names). */
const WORD = /^[a-z][a-z0-9-]*$/;

/**
 * The command whose whole path is `words`' first one or two words, from its own manifest file
 * (generated/commands/<group>.<name>.json, written by the build): a command line that names its
 * command reads that file, not the manifest of all ~80 commands. No command's path is the start of
 * another's (the build checks it), so at most one matches.
 */
export function commandAt(words: readonly string[]): Entry | undefined {
  for (const n of [2, 1]) {
    const path = words.slice(0, n);
    if (path.length < n || !path.every((w) => WORD.test(w))) continue;
    let text: string;
    try {
      text = readFileSync(generated(`commands/${path.join('.')}.json`), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    const parsed: unknown = JSON.parse(text);
    if (!isManifestCommand(parsed) || parsed.path.join(' ') !== path.join(' '))
      throw new Error(`commands/${path.join('.')}.json is not that command's manifest entry (run npm run build)`);
    return fromManifest(parsed);
  }
  return undefined;
}
