// `pm sandbox report`: what one sandbox account's trading came to, as the sandbox sums it from its
// ledger (GET /__sandbox/report): per market and in total, with the PnL curve. Parsed here into
// bigint raw units; printed as decimals plus `…Raw`.
import type { ClientCore } from './clientcore.js';
import { ExchangeError, NotFoundError, UsageError } from './errors.js';
import type { ApiClient } from './http.js';
import { formatUnits } from './money.js';
import { seededAccounts } from './sandboxctl.js';
import { profileMe } from './tokens.js';
import { isObj, type Json } from './wire.js';

/** Counts and sums of a market's line and of the total (money in raw USDC units). */
export interface ReportFigures {
  placed: number;
  filled: number;
  cancelled: number;
  fills: number;
  volume: bigint;
  fees: bigint;
  realisedPnl: bigint;
  unrealisedPnl: bigint;
  pnl: bigint;
  maxDrawdown: bigint;
}

export interface ReportMarket extends ReportFigures {
  slug: string;
  title: string;
  resolved: boolean;
  /** The YES price the unrealised PnL is marked at (micro-units). */
  yesPrice: bigint;
}

export interface SandboxReport {
  account: { name: string; profileId: number };
  markets: ReportMarket[];
  total: ReportFigures;
  /** Total PnL over time (ms since the epoch). */
  curve: { timestamp: number; pnl: bigint }[];
}

const MONEY = ['volume', 'fees', 'realisedPnl', 'unrealisedPnl', 'pnl', 'maxDrawdown'] as const;
const COUNTS = ['placed', 'filled', 'cancelled', 'fills'] as const;

function bad(what: string): never {
  throw new ExchangeError(`the sandbox's report is malformed (${what})`, {
    hint: 'Is this a pm sandbox of the same version? pm --version',
  });
}

function big(o: Json, k: string): bigint {
  const v = o[k];
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) bad(k);
  return BigInt(v);
}

function count(o: Json, k: string): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) bad(k);
  return v;
}

function text(o: Json, k: string): string {
  const v = o[k];
  if (typeof v !== 'string') bad(k);
  return v;
}

function figures(o: unknown): ReportFigures {
  if (!isObj(o)) bad('figures');
  const money = Object.fromEntries(MONEY.map((k) => [k, big(o, k)])) as Record<(typeof MONEY)[number], bigint>;
  const counts = Object.fromEntries(COUNTS.map((k) => [k, count(o, k)])) as Record<(typeof COUNTS)[number], number>;
  return { ...counts, ...money };
}

/** The sandbox's report answer, checked and parsed. */
export function parseReport(d: unknown): SandboxReport {
  if (!isObj(d) || !Array.isArray(d['markets']) || !Array.isArray(d['curve'])) bad('not a report');
  const markets = d['markets'].map((m: unknown): ReportMarket => {
    if (!isObj(m)) bad('market');
    return {
      slug: text(m, 'slug'),
      title: text(m, 'title'),
      resolved: m['resolved'] === true,
      yesPrice: big(m, 'yesPrice'),
      ...figures(m),
    };
  });
  const curve = d['curve'].map((p: unknown) => {
    if (!isObj(p) || typeof p['t'] !== 'number') bad('curve');
    return { timestamp: p['t'], pnl: big(p, 'pnl') };
  });
  return { account: { name: text(d, 'name'), profileId: count(d, 'profileId') }, markets, total: figures(d['total']), curve };
}

/**
 * One account's report (GET /__sandbox/report), `api` pointing at the sandbox.
 * @example const r = await sandboxReport(api, 1001); r.total.pnl
 */
export async function sandboxReport(api: ApiClient, profileId: number): Promise<SandboxReport> {
  const d = (
    await api.request<unknown>({ method: 'GET', path: `/__sandbox/report?profileId=${profileId}`, auth: 'none', onBehalfOfIn: 'none' })
  ).data;
  return parseReport(d);
}

/**
 * The profile id of `--account`: a seeded account's name (alice, bob, carol, partner), or a
 * profile id as digits (a sub-account, a simulator bot).
 */
export async function accountProfileId(api: ApiClient, account: string): Promise<number> {
  if (/^\d{1,15}$/.test(account)) return Number(account);
  const all = await seededAccounts(api);
  const hit = all.find((a) => a.name === account);
  if (!hit)
    throw new NotFoundError(`no sandbox account named "${account}"`, {
      hint: `Seeded accounts: ${all.map((a) => a.name).join(', ')} (or pass a profile id).`,
    });
  return hit.profileId;
}

/**
 * Whose report: `--account` (a seeded name or a profile id); else the account pm's credentials
 * act as, as the sandbox knows them (GET /profiles/me); else the profile's stored profile id.
 */
export async function reportProfileId(
  core: ClientCore,
  admin: ApiClient,
  o: { account?: string | undefined; storedProfileId?: number | undefined },
): Promise<number> {
  if (o.account !== undefined) return accountProfileId(admin, o.account);
  const auth = await (await core.credentials()).unlock('auto');
  if (auth.hmac || auth.apiKey) return (await profileMe(await core.api(auth))).id;
  if (o.storedProfileId !== undefined) return o.storedProfileId;
  throw new UsageError('whose report? no credentials say which account this is', { hint: 'pm sandbox report --account alice' });
}

const pair = <K extends string>(k: K, v: bigint): Record<K | `${K}Raw`, string> =>
  ({ [k]: formatUnits(v), [`${k}Raw`]: v.toString() }) as Record<K | `${K}Raw`, string>;

function figuresJson(f: ReportFigures): Record<string, number | string> {
  const out: Record<string, number | string> = { placed: f.placed, filled: f.filled, cancelled: f.cancelled, fills: f.fills };
  for (const k of MONEY) Object.assign(out, pair(k, f[k]));
  return out;
}

/** `pm sandbox report --json`: {account, markets, total, curve}, money as decimals plus …Raw. */
export function reportJson(r: SandboxReport): {
  account: SandboxReport['account'];
  markets: Record<string, unknown>[];
  total: Record<string, number | string>;
  curve: { timestamp: number; at: string; pnl: string; pnlRaw: string }[];
} {
  return {
    account: r.account,
    markets: r.markets.map((m) => ({
      market: m.slug,
      title: m.title,
      resolved: m.resolved,
      ...pair('yesPrice', m.yesPrice),
      ...figuresJson(m),
    })),
    total: figuresJson(r.total),
    curve: r.curve.map((p) => ({ timestamp: p.timestamp, at: new Date(p.timestamp).toISOString(), ...pair('pnl', p.pnl) })),
  };
}
