// PM_HOME/journal/withdrawals.ndjson: what pm sent (src/core/withdrawals.ts) and what became of it,
// and the user's settling of an unknown outcome. Apart from the sending so that the library's
// synchronous funds.settleWithdrawal loads none of the funds code (nor its keccak) at require.
import { ConflictError, NotFoundError } from './errors.js';
import { NdjsonJournal } from './ndjson-journal.js';
import type { LineFields } from './ndjson-journal.js';
import { exchangeId } from './journal-account.js';
import type { AccountKey } from './journal-account.js';

export type WithdrawalState = 'pending' | 'withdrawn' | 'failed' | 'unknown';

/** One line of PM_HOME/journal/withdrawals.ndjson. */
export interface WithdrawalEntry extends AccountKey {
  ts: string;
  id: string;
  state: WithdrawalState;
  /** Raw units, as sent. */
  amount: string;
  token: string | null;
  destination: string | null;
  /** The base URL as given (the exchange is compared by `exchange`, one spelling per exchange). */
  baseUrl: string;
  /** The source wallet, when known (recorded, or from the exchange's answer). */
  wallet: string | null;
  transactionId?: string | undefined;
  /** How the outcome was known: the exchange's answer, the source wallet's balance, or the user (--settle). */
  via?: 'answer' | 'balance' | 'user' | undefined;
  error?: string | undefined;
}

const STATES: readonly WithdrawalState[] = ['pending', 'withdrawn', 'failed', 'unknown'];

/** One line, checked field by field. */
function parseEntry(f: LineFields): WithdrawalEntry {
  const state = f.str('state') as WithdrawalState;
  if (!STATES.includes(state)) throw f.bad(`unknown state "${state}"`);
  if (!/^\d+$/.test(f.str('amount'))) throw f.bad('amount must be raw units');
  const via = f.raw['via'];
  const baseUrl = f.str('baseUrl');
  return {
    ts: f.str('ts'),
    id: f.str('id'),
    state,
    amount: f.str('amount'),
    token: f.strOrNull('token'),
    destination: f.strOrNull('destination'),
    onBehalfOf: f.idOrNull('onBehalfOf'),
    baseUrl,
    // (Entries written before pm recorded the exchange: the same spelling rule, applied now.)
    exchange: f.raw['exchange'] === undefined ? exchangeId(baseUrl) : f.str('exchange'),
    profileId: f.idOrNull('profileId'),
    wallet: f.strOrNull('wallet'),
    ...(f.raw['transactionId'] !== undefined ? { transactionId: f.str('transactionId') } : {}),
    ...(via === 'answer' || via === 'balance' || via === 'user' ? { via } : {}),
    ...(f.raw['error'] !== undefined ? { error: f.str('error') } : {}),
  };
}

/** PM_HOME/journal/withdrawals.ndjson. */
export class WithdrawalJournal extends NdjsonJournal<WithdrawalEntry> {
  constructor(home: string) {
    super(home, 'withdrawals', 'withdrawal', parseEntry);
  }

  /** The latest entry of each withdrawal id. */
  latest(): WithdrawalEntry[] {
    const m = new Map<string, WithdrawalEntry>();
    for (const e of this.entries()) m.set(e.id, e);
    return [...m.values()];
  }

  /** Withdrawals whose outcome is not known (sent, no readable answer, not settled), oldest first. */
  open(): WithdrawalEntry[] {
    return this.latest().filter(isOpen);
  }
}

/** Sent (or about to be, when pm stopped) with no outcome known yet. */
export const isOpen = (e: WithdrawalEntry): boolean => e.state === 'unknown' || e.state === 'pending';

/**
 * Settles a withdrawal whose outcome was unknown, as the user found it: `sent` (it went through)
 * or `not-sent` (it did not; an identical one may then be sent). Journaled; only an open one.
 * @example settleWithdrawal(new WithdrawalJournal(home), 'wd-1f2e…', 'not-sent')
 */
export function settleWithdrawal(journal: WithdrawalJournal, id: string, as: 'sent' | 'not-sent'): WithdrawalEntry {
  const e = journal.latest().find((x) => x.id === id);
  if (!e)
    throw new NotFoundError(`no withdrawal ${id} in the journal (${journal.file})`, {
      hint: 'pm doctor lists the withdrawals whose outcome is unknown, with their ids.',
    });
  if (!isOpen(e))
    throw new ConflictError(`withdrawal ${id} is already settled: ${e.state === 'withdrawn' ? 'sent' : 'not sent'} (${e.ts})`, {
      hint: 'Only a withdrawal whose outcome is unknown can be settled.',
    });
  const { ts: _ts, error: _error, ...rest } = e;
  const settled = { ...rest, state: as === 'sent' ? ('withdrawn' as const) : ('failed' as const), via: 'user' as const };
  journal.record(as === 'sent' ? settled : { ...settled, error: 'settled by the user: not sent' });
  return { ...settled, ts: new Date().toISOString() };
}
