// Withdrawals are not idempotent on the exchange (no client id) and the contract has no list of
// them, so a lost answer must never be met with a blind re-send. pm journals the intent before
// sending, infers the outcome from the source wallet's USDC balance where it can read it, and
// refuses the same withdrawal again for 10 minutes after an unknown outcome (unless --force).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { ConflictError, errorMessage, NetworkError, UnknownStateError, UsageError } from './errors.js';
import { ensurePrivateDir } from './fsutil.js';
import type { ApiClient } from './http.js';
import { formatUnits } from './money.js';
import { USDC_ADDRESS, withdraw } from './funds.js';
import type { WithdrawBody, WithdrawResult } from './funds.js';

export type WithdrawalState = 'pending' | 'withdrawn' | 'failed' | 'unknown';

/** One line of PM_HOME/journal/withdrawals.ndjson. */
export interface WithdrawalEntry {
  ts: string;
  id: string;
  state: WithdrawalState;
  /** Raw units, as sent. */
  amount: string;
  token: string | null;
  destination: string | null;
  /** The sub-account withdrawn from, or null for the caller's own server wallet. */
  onBehalfOf: number | null;
  baseUrl: string;
  /** The source wallet, when known (recorded, or from the exchange's answer). */
  wallet: string | null;
  transactionId?: string | undefined;
  /** How `withdrawn` was known: the exchange's answer, or the source wallet's balance. */
  via?: 'answer' | 'balance' | undefined;
  error?: string | undefined;
}

/** Ten minutes: an unknown withdrawal blocks its identical twin this long (unless --force). */
const UNKNOWN_BLOCK_MS = 10 * 60_000;

const STATES: readonly WithdrawalState[] = ['pending', 'withdrawn', 'failed', 'unknown'];

/** One line, checked field by field: a damaged journal is a clear error naming the file and line. */
function parseEntry(line: string, file: string, n: number): WithdrawalEntry {
  const bad = (why: string): UsageError =>
    new UsageError(`the withdrawal journal ${file} is damaged at line ${n}: ${why}`, {
      hint: `Move it aside (mv ${file} ${file}.bak): it only records what pm sent.`,
    });
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    throw bad('not JSON');
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw bad('not an object');
  const r = o as Record<string, unknown>;
  const s = (k: string): string => {
    if (typeof r[k] !== 'string') throw bad(`${k} must be a string`);
    return r[k] as string;
  };
  const sOrNull = (k: string): string | null => (r[k] === null || r[k] === undefined ? null : s(k));
  const state = s('state') as WithdrawalState;
  if (!STATES.includes(state)) throw bad(`unknown state "${state}"`);
  if (!/^\d+$/.test(s('amount'))) throw bad('amount must be raw units');
  const obo = r['onBehalfOf'];
  if (obo !== null && obo !== undefined && !(typeof obo === 'number' && Number.isSafeInteger(obo)))
    throw bad('onBehalfOf must be a profile id');
  const via = r['via'];
  return {
    ts: s('ts'),
    id: s('id'),
    state,
    amount: s('amount'),
    token: sOrNull('token'),
    destination: sOrNull('destination'),
    onBehalfOf: typeof obo === 'number' ? obo : null,
    baseUrl: s('baseUrl'),
    wallet: sOrNull('wallet'),
    ...(r['transactionId'] !== undefined ? { transactionId: s('transactionId') } : {}),
    ...(via === 'answer' || via === 'balance' ? { via } : {}),
    ...(r['error'] !== undefined ? { error: s('error') } : {}),
  };
}

export class WithdrawalJournal {
  readonly file: string;
  constructor(home: string) {
    this.file = join(home, 'journal', 'withdrawals.ndjson');
  }

  /** Every entry, oldest first (the file is parsed whole: a damaged line is an error). */
  entries(): WithdrawalEntry[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8')
      .split('\n')
      .map((l, i) => [l, i + 1] as const)
      .filter(([l]) => l.trim() !== '')
      .map(([l, n]) => parseEntry(l, this.file, n));
  }

  /** Appends one entry (0600, fsync not needed: a lost line only loses a guard, never money). */
  record(e: Omit<WithdrawalEntry, 'ts'>): void {
    ensurePrivateDir(dirname(this.file));
    appendFileSync(this.file, `${JSON.stringify({ ts: new Date().toISOString(), ...e })}\n`, { mode: 0o600 });
  }

  /** The latest entry of each withdrawal id. */
  latest(): WithdrawalEntry[] {
    const m = new Map<string, WithdrawalEntry>();
    for (const e of this.entries()) m.set(e.id, e);
    return [...m.values()];
  }
}

export interface WithdrawOnceOptions {
  journal: WithdrawalJournal;
  /** Sends even when an identical withdrawal's outcome is unknown. */
  force?: boolean | undefined;
  /** The source wallet, when known. */
  wallet?: string | undefined;
  /** Where a withdrawal without a destination goes (the caller's account address), when known. */
  defaultDestination?: string | undefined;
  /** Reads the source wallet's balance of the token (an RPC is configured), else undefined. */
  balance?: ((wallet: string) => Promise<bigint>) | undefined;
  now?: (() => number) | undefined;
}

export interface WithdrawOutcome extends WithdrawResult {
  /** "answer": the exchange's reply; "balance": the reply was lost, the wallet's balance fell by the amount. */
  via: 'answer' | 'balance';
}

const same = (a: string | null | undefined, b: string | null | undefined): boolean => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/**
 * Withdraws once. Journals the intent, sends, and after a lost answer settles the outcome from the
 * source wallet's balance when it can read it; otherwise exit 7 saying how to check, never "retry".
 * An identical withdrawal (amount, token, source, destination) within 10 minutes of an unknown one
 * is refused (exit 5) unless `force`.
 * @example await withdrawOnce(api, withdrawBody(10_000_000n), { journal: new WithdrawalJournal(home) })
 */
export async function withdrawOnce(api: ApiClient, body: WithdrawBody, o: WithdrawOnceOptions): Promise<WithdrawOutcome> {
  const now = o.now ?? Date.now;
  const onBehalfOf = api.onBehalfOf ?? null;
  // The token and destination as they take effect: a default written out is the same withdrawal.
  const key = {
    amount: body.amount,
    token: body.token ?? USDC_ADDRESS,
    destination: body.destination ?? o.defaultDestination ?? null,
    onBehalfOf,
    baseUrl: api.baseUrl,
  };
  const twin = (e: WithdrawalEntry): boolean =>
    e.amount === key.amount &&
    same(e.token ?? USDC_ADDRESS, key.token) &&
    // (A destination left to the default where the default was not known may be any: a twin.)
    (e.destination === null || key.destination === null || same(e.destination, key.destination)) &&
    e.onBehalfOf === key.onBehalfOf &&
    e.baseUrl === key.baseUrl;
  const past = o.journal.latest();
  const wallet =
    o.wallet ?? past.filter((e) => e.onBehalfOf === onBehalfOf && e.baseUrl === key.baseUrl && e.wallet).at(-1)?.wallet ?? null;
  const walletName = wallet ?? (onBehalfOf === null ? 'your server wallet' : `the server wallet of sub-account ${onBehalfOf}`);
  if (!o.force) {
    const open = past.find(
      (e) => twin(e) && (e.state === 'unknown' || e.state === 'pending') && now() - Date.parse(e.ts) < UNKNOWN_BLOCK_MS,
    );
    if (open) {
      throw new ConflictError(
        `an identical withdrawal of ${formatUnits(BigInt(key.amount))} (${open.ts}) has an unknown outcome: not sending it again`,
        {
          hint: `Check the transfers of ${open.wallet ?? walletName} first (${checkHow(open.wallet, open.destination, o.defaultDestination)}). If it did not go through, pass --force to send it; pm refuses an identical one for 10 minutes otherwise.`,
        },
      );
    }
  }
  const id = `wd-${randomBytes(8).toString('hex')}`;
  const rec = (state: WithdrawalState, extra: Partial<WithdrawalEntry> = {}): void =>
    o.journal.record({ id, state, ...key, wallet, ...extra });
  const readBalance = async (): Promise<bigint | undefined> => {
    if (!o.balance || !wallet) return undefined;
    try {
      return await o.balance(wallet);
    } catch {
      return undefined;
    }
  };
  const before = await readBalance();
  rec('pending');
  let r: WithdrawResult;
  try {
    r = await withdraw(api, body);
  } catch (e) {
    const ambiguous = e instanceof NetworkError && e.ambiguous;
    if (!ambiguous) {
      rec('failed', { error: errorMessage(e) });
      throw e;
    }
    const after = await readBalance();
    if (before !== undefined && after !== undefined && before - after >= BigInt(key.amount)) {
      rec('withdrawn', { via: 'balance' });
      return {
        hash: '',
        userOperationHash: '',
        transactionId: '',
        walletAddress: wallet ?? '',
        token: key.token ?? '',
        destination: key.destination ?? '',
        amount: key.amount,
        via: 'balance',
      };
    }
    rec('unknown', { error: errorMessage(e) });
    throw new UnknownStateError(
      `the withdrawal of ${formatUnits(BigInt(key.amount))} may or may not have gone through: its answer was lost (${errorMessage(e)})`,
      {
        cause: e,
        hint: `Do not send it again blindly: check the transfers of ${walletName} (${checkHow(wallet, key.destination, o.defaultDestination)}). pm refuses an identical withdrawal for 10 minutes; --force sends it anyway.`,
      },
    );
  }
  rec('withdrawn', { via: 'answer', transactionId: r.transactionId, wallet: r.walletAddress || wallet });
  return { ...r, via: 'answer' };
}

/** Where to look: the source wallet's transfers; pm balance reads the account's own wallet, where a withdrawal to the default destination lands. */
function checkHow(wallet: string | null, destination: string | null, defaultDestination?: string): string {
  const where = wallet
    ? `its USDC transfers on Base: https://basescan.org/address/${wallet}#tokentxns`
    : 'pm portfolio history, or its USDC transfers on Base';
  return destination === null || (defaultDestination !== undefined && same(destination, defaultDestination))
    ? `${where}; a withdrawal to the default destination shows in your account's USDC (pm balance with an RPC URL)`
    : where;
}
