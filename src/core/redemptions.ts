// Redemptions, exactly once. The exchange pays a market once, so a claim whose answer pm could
// not read (lost, cut, garbled, a 5xx) is safe to send again, and "re-run the same command" is the
// advice. The journal (PM_HOME/journal/redemptions.ndjson) remembers such a claim, for its
// account, until a later run settles it: a claim answered "already redeemed" (409) after an
// unknown one was paid by that earlier run, and `pm redeem --all` sends the unknown claims again
// although the positions no longer list them. `pm doctor` reports the ones still unknown.
import { randomBytes } from 'node:crypto';
import { ConflictError, errorMessage, ExchangeValidationError, NetworkError, PmError, UnknownStateError, withHint } from './errors.js';
import { NdjsonJournal } from './ndjson-journal.js';
import type { LineFields } from './ndjson-journal.js';
import { redeem } from './funds.js';
import type { RedeemResult } from './funds.js';
import type { ApiClient } from './http.js';
import { exchangeId, sameAccount } from './journal-account.js';
import type { AccountKey } from './journal-account.js';

export type RedemptionState = 'pending' | 'redeemed' | 'failed' | 'unknown';

/** One line of PM_HOME/journal/redemptions.ndjson. */
export interface RedemptionEntry extends AccountKey {
  ts: string;
  id: string;
  state: RedemptionState;
  conditionId: string;
  /** The market's slug (or the condition id, when that is all the user gave). */
  market: string;
  /** Raw USDC paid, when the answer said. */
  payout?: string | undefined;
  /** How `redeemed` was known: the answer, or the exchange's "already redeemed" after an unknown claim. */
  via?: 'answer' | 'already' | undefined;
  error?: string | undefined;
}

const STATES: readonly RedemptionState[] = ['pending', 'redeemed', 'failed', 'unknown'];

function parseEntry(f: LineFields): RedemptionEntry {
  const state = f.str('state') as RedemptionState;
  if (!STATES.includes(state)) throw f.bad(`unknown state "${state}"`);
  const via = f.raw['via'];
  return {
    ts: f.str('ts'),
    id: f.str('id'),
    state,
    conditionId: f.str('conditionId'),
    market: f.str('market'),
    exchange: f.str('exchange'),
    profileId: f.idOrNull('profileId'),
    onBehalfOf: f.idOrNull('onBehalfOf'),
    ...(f.raw['payout'] !== undefined ? { payout: f.str('payout') } : {}),
    ...(via === 'answer' || via === 'already' ? { via } : {}),
    ...(f.raw['error'] !== undefined ? { error: f.str('error') } : {}),
  };
}

/** PM_HOME/journal/redemptions.ndjson. */
export class RedemptionJournal extends NdjsonJournal<RedemptionEntry> {
  constructor(home: string) {
    super(home, 'redemptions', 'redemption', parseEntry);
  }

  /** The latest entry of each claim (condition id and account). */
  latest(): RedemptionEntry[] {
    const m = new Map<string, RedemptionEntry>();
    for (const e of this.entries()) m.set(`${e.exchange} ${e.profileId} ${e.onBehalfOf} ${e.conditionId.toLowerCase()}`, e);
    return [...m.values()];
  }

  /** Claims sent whose outcome is not known yet; of one account when given. */
  open(account?: AccountKey): RedemptionEntry[] {
    return this.latest().filter((e) => (e.state === 'unknown' || e.state === 'pending') && (!account || sameAccount(e, account)));
  }
}

/** The account a client acts as, for the journal. */
export function redemptionAccount(api: ApiClient, profileId: number | undefined): AccountKey {
  return { exchange: exchangeId(api.baseUrl), profileId: profileId ?? null, onBehalfOf: api.onBehalfOf ?? null };
}

export type RedeemOutcome = RedeemResult & {
  /** "answer": paid now; "already": paid by an earlier run whose answer pm could not read. */
  via: 'answer' | 'already';
  /** That earlier run's time, for `already`. */
  earlier?: string | undefined;
};

/**
 * Claims one market once. Journals the claim, sends it; an answer pm cannot read is unknown
 * (exit 7: re-run the same command); "already redeemed" (409) after an unknown claim of the same
 * account is that claim's success.
 * @example await redeemOnce(api, { conditionId, market: 'eth-5k-2025' }, { journal, profileId: 1001, rerun: 'pm redeem eth-5k-2025' })
 */
export async function redeemOnce(
  api: ApiClient,
  claim: { conditionId: string; market: string },
  o: { journal: RedemptionJournal; profileId?: number | undefined; rerun?: string | undefined },
): Promise<RedeemOutcome> {
  const account = redemptionAccount(api, o.profileId);
  const earlier = o.journal.open(account).find((e) => e.conditionId.toLowerCase() === claim.conditionId.toLowerCase());
  const id = earlier?.id ?? `rd-${randomBytes(8).toString('hex')}`;
  const rec = (state: RedemptionState, extra: Partial<RedemptionEntry> = {}): void =>
    o.journal.record({ id, state, conditionId: claim.conditionId, market: claim.market, ...account, ...extra });
  rec('pending');
  let r: RedeemResult;
  try {
    r = await redeem(api, claim.conditionId);
  } catch (e) {
    if (e instanceof ConflictError && earlier) {
      rec('redeemed', { via: 'already' });
      return {
        hash: '',
        userOperationHash: '',
        transactionId: '',
        walletAddress: '',
        conditionId: claim.conditionId,
        marketId: 0,
        via: 'already',
        earlier: earlier.ts,
      };
    }
    if (e instanceof NetworkError && e.ambiguous) {
      rec('unknown', { error: errorMessage(e) });
      throw new UnknownStateError(
        `the claim on ${claim.market} may or may not have been paid: pm could not read its answer (${errorMessage(e)})`,
        {
          cause: e,
          status: e.status,
          hint: `Run exactly this again (a market is never paid twice):\n  ${o.rerun ?? 'the same redeem call'}`,
        },
      );
    }
    // A refusal is the exchange's answer about this claim; a request that never left (a refused
    // connection) says nothing of an earlier unknown one, which stays open.
    const unsent = !(e instanceof PmError) || e.status === undefined;
    rec(unsent && earlier ? 'unknown' : 'failed', { error: errorMessage(e) });
    if (e instanceof ConflictError && !e.hint)
      throw withHint(
        e,
        `This claim was paid already (by another run or another client): nothing is left to claim on it. ${api.words === 'flags' ? 'pm positions' : 'portfolio.positions()'} shows what is still redeemable.`,
      );
    // (A refusal: not resolved, no winning shares, nothing posted yet. The exchange's message says which.)
    if (e instanceof ExchangeValidationError && !e.hint)
      throw withHint(
        e,
        api.words === 'flags'
          ? `Only a resolved market where you hold winning shares can be redeemed: if ${claim.market} is not resolved yet, wait for it; if it is resolved, you hold none of its winning shares. pm positions shows what is redeemable now.`
          : `Only a resolved market where you hold winning shares can be redeemed: if ${claim.market} is not resolved yet, wait for it; if it is resolved, you hold none of its winning shares. portfolio.positions() shows what is redeemable now (redeemable: true).`,
      );
    throw e;
  }
  rec('redeemed', { via: 'answer', ...(r.payout !== undefined ? { payout: r.payout } : {}) });
  return { ...r, via: 'answer' };
}
