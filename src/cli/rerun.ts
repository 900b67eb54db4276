// The exact command to run after an order's outcome is unknown: the user's own argv with the
// client id pm generated written into it (re-running the line as typed would generate another
// id, and place a second order), and the status check beside it.
import type { Context } from './context.js';
import { PmError, withHint } from '../core/errors.js';
import { exchangeId } from '../core/journal-account.js';
import { sentClientIds } from '../core/trade/journal.js';

/** A word as a POSIX shell reads it back: quoted unless it holds only safe characters. */
function shellWord(w: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Flags whose value is never written back (none takes a secret today: secrets never travel in argv). */
const SECRET_FLAG = /^--[a-z-]*(secret|password|private-key|passphrase)$/;

/** argv as a `pm …` line, `flag value` written in when argv does not give that flag already. */
export function rerunLine(argv: readonly string[], flag: string, value: string): string {
  const words = argv.map((w, i) => (i > 0 && SECRET_FLAG.test(argv[i - 1] ?? '') ? '<secret>' : w));
  const given = words.some((w) => w === flag || w.startsWith(`${flag}=`));
  if (!given) {
    const end = words.indexOf('--');
    words.splice(end < 0 ? words.length : end, 0, flag, value);
  }
  return ['pm', ...words].map((w, i) => (i === 0 ? w : shellWord(w))).join(' ');
}

/** The command as the user typed it (argv, shell-quoted): what to run again when re-running is safe. */
export function sameCommand(ctx: Context): string {
  const argv = ctx.app.argv ?? [];
  return argv.length > 0 ? ['pm', ...argv.map(shellWord)].join(' ') : 'the same command';
}

/**
 * A pm command line for a hint to write out: `pm`, the global options of this run that say where
 * and as whom and how it prints (--profile, --base-url, --json or -o, --yes unless `yes: false`, as
 * for a read), then `words`.
 * @example pmLine(ctx, ['withdraw', '--settle', id, '--as', 'sent']) // 'pm --json withdraw --settle …'
 */
export function pmLine(ctx: Context, words: readonly string[], o: { yes?: boolean } = {}): string {
  const f = ctx.flags;
  const globals: string[] = [];
  if (f.profile !== undefined) globals.push('--profile', f.profile);
  if (f.baseUrl !== undefined) globals.push('--base-url', f.baseUrl);
  if (f.output !== undefined) globals.push('-o', f.output);
  else if (f.json) globals.push('--json');
  if (f.yes && o.yes !== false) globals.push('--yes');
  return ['pm', ...[...globals, ...words].map(shellWord)].join(' ');
}

/** The options of argv that say where and as whom (for the status check beside the re-run). */
function targetWords(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i] ?? '';
    const name = /^(--profile|--base-url|--on-behalf-of)(=.*)?$/.exec(w);
    if (!name) continue;
    if (name[2] !== undefined) out.push(w);
    else if (argv[i + 1] !== undefined) out.push(w, argv[++i] ?? '');
  }
  return out;
}

/**
 * An error about an order whose outcome is unknown gets the exact command to run as its hint:
 * argv with `flag <client id>` in it, then `pm order status --client-id …` (or `pm <check>`). Other errors pass.
 */
export function withRerunHint(ctx: Context, e: unknown, flag: string, check?: readonly string[]): unknown {
  if (!(e instanceof PmError) || e.unknownClientId === undefined) return e;
  const argv = ctx.app.argv ?? [];
  const cid = e.unknownClientId;
  const status = ['pm', ...targetWords(argv), ...(check ?? ['order', 'status', '--client-id', cid])]
    .map((w, i) => (i === 0 ? w : shellWord(w)))
    .join(' ');
  const run = argv.length > 0 ? rerunLine(argv, flag, cid) : `the same command with ${flag} ${shellWord(cid)}`;
  return withHint(e, `Run exactly this (it never places a second order):\n  ${run}\nOr check first: ${status}`, 'replace');
}

/** The sub-account this command acts for, as the words a line of a hint needs to act for it too. */
export const actingWords = (ctx: Context): string[] => (ctx.onBehalfOf === undefined ? [] : ['--on-behalf-of', String(ctx.onBehalfOf)]);

/**
 * For "no such order": of `words` given as order ids, the ones pm sent to this exchange as client
 * ids, said so, with the command that names them as client ids (`line` makes its words from them).
 * Undefined when there is none.
 * @example clientIdHint(ctx, api.baseUrl, ['bot-42'], (ids) => ['order', 'status', '--client-id', ...ids], { yes: false })
 */
export function clientIdHint(
  ctx: Context,
  baseUrl: string,
  words: readonly string[],
  line: (ids: string[]) => readonly string[],
  o: { yes?: boolean } = {},
): string | undefined {
  const ids = sentClientIds(ctx.core.orderJournal(), exchangeId(baseUrl), words);
  if (ids.length === 0) return undefined;
  const one = ids.length === 1;
  return `${ids.join(', ')} ${one ? 'is a client id' : 'are client ids'} pm sent, not ${one ? 'an order id' : 'order ids'}; name ${one ? 'it' : 'them'} so:\n  ${pmLine(ctx, line(ids), o)}`;
}

/** Client ids a status line may name at once: beyond, the line would not fit a terminal (the journal lists them). */
const CHECK_AT_MOST = 20;

/**
 * The command that asks after the orders of `clientIds` (a batch's unknown lines), acting as this
 * run acts; undefined when there are none, too many for one line, or one of them has no client id
 * (the line would not name them all).
 */
export function statusLine(ctx: Context, clientIds: readonly (string | undefined)[]): string | undefined {
  if (clientIds.length === 0 || clientIds.length > CHECK_AT_MOST) return undefined;
  const ids = clientIds.filter((id): id is string => id !== undefined);
  if (ids.length !== clientIds.length) return undefined;
  return pmLine(ctx, ['order', 'status', '--client-id', ...ids, ...actingWords(ctx)], { yes: false });
}
