// Withdrawals are not idempotent on the exchange (no client id) and the contract has no list of
// them, so an answer pm cannot read (lost, cut, garbled, a 5xx) must never be met with a blind
// re-send. pm journals the intent before sending, infers the outcome from the source wallet's USDC
// balance where it can read it, and otherwise journals the withdrawal as unknown: an identical
// one (same amount, token, source and destination, on the same account of the same exchange,
// however its URL is spelled) is refused until the unknown one is settled, by the user after
// checking the wallet's transfers (`pm withdraw --settle <id> --as sent|not-sent`), never by time.
import { AuthError, ConflictError, errorMessage, NetworkError, UnknownStateError, UsageError, withHint } from './errors.js';
import type { ApiClient } from './http.js';
import { exchangeId, sameAccount } from './journal-account.js';
import type { AccountKey } from './journal-account.js';
import { formatUnits } from './money.js';
import { nodeCrypto } from './node-crypto.js';
import { USDC_ADDRESS, withdraw } from './funds.js';
import type { WithdrawBody, WithdrawResult } from './funds.js';
import { isOpen } from './withdrawal-journal.js';
import type { WithdrawalEntry, WithdrawalJournal, WithdrawalState } from './withdrawal-journal.js';

export interface WithdrawOnceOptions {
  journal: WithdrawalJournal;
  /** The caller's profile id as the exchange reports it (GET /profiles/me), when known. */
  profileId?: number | undefined;
  /** The source wallet, when known. */
  wallet?: string | undefined;
  /** Where a withdrawal without a destination goes (the caller's account address), when known. */
  defaultDestination?: string | undefined;
  /** Reads the source wallet's balance of the token (an RPC is configured), else undefined. */
  balance?: ((wallet: string) => Promise<bigint>) | undefined;
  /**
   * The words of the commands the hints write out (CLI: `pm … withdraw --settle <id> --as sent`);
   * absent (the library): the hints name the library's calls.
   */
  commands?: { settle(id: string, as: 'sent' | 'not-sent'): string; again: string } | undefined;
}

export interface WithdrawOutcome extends WithdrawResult {
  /** "answer": the exchange's reply; "balance": the reply was lost, the wallet's balance fell by the amount. */
  via: 'answer' | 'balance';
  /** The journal's id of this withdrawal. */
  id: string;
}

const same = (a: string | null | undefined, b: string | null | undefined): boolean => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/** What a hint says to do about an unknown withdrawal: check, then settle; only then send again. */
function settleHint(e: WithdrawalEntry, walletName: string, o: WithdrawOnceOptions): string {
  const settle = (as: 'sent' | 'not-sent'): string => o.commands?.settle(e.id, as) ?? `funds.settleWithdrawal('${e.id}', '${as}')`;
  return [
    `Do not send it again blindly: check the transfers of ${e.wallet ?? walletName} (${checkHow(e.wallet, e.destination, o.defaultDestination)}), then settle it:`,
    `  it went through:      ${settle('sent')}`,
    `  it did not:           ${settle('not-sent')}`,
    `                        and send it again: ${o.commands?.again ?? 'the same withdraw call'}`,
    'pm refuses an identical withdrawal until it is settled.',
  ].join('\n');
}

/**
 * Withdraws once. Journals the intent, sends, and after an answer it cannot read settles the
 * outcome from the source wallet's balance when it can read it; otherwise exit 7 saying how to
 * check and settle, never "retry". An identical withdrawal (amount, token, source, destination)
 * of the same account whose outcome is unknown blocks this one (exit 5) until it is settled.
 * @example await withdrawOnce(api, withdrawBody(10_000_000n), { journal: new WithdrawalJournal(home) })
 */
export async function withdrawOnce(api: ApiClient, body: WithdrawBody, o: WithdrawOnceOptions): Promise<WithdrawOutcome> {
  const account: AccountKey = { exchange: exchangeId(api.baseUrl), profileId: o.profileId ?? null, onBehalfOf: api.onBehalfOf ?? null };
  // The token and destination as they take effect: a default written out is the same withdrawal.
  const key = {
    amount: body.amount,
    token: body.token ?? USDC_ADDRESS,
    destination: body.destination ?? o.defaultDestination ?? null,
    baseUrl: api.baseUrl,
    ...account,
  };
  const past = o.journal.latest();
  const mine = (e: WithdrawalEntry): boolean => sameAccount(e, account);
  const wallet = o.wallet ?? past.filter((e) => mine(e) && e.wallet).at(-1)?.wallet ?? null;
  const sameSource = (e: WithdrawalEntry): boolean =>
    mine(e) ||
    // The same profile and the same source wallet on chain is the same money, however the
    // exchange was reached (a host name and its address, say).
    (e.profileId !== null &&
      e.profileId === account.profileId &&
      e.onBehalfOf === account.onBehalfOf &&
      e.wallet !== null &&
      wallet !== null &&
      same(e.wallet, wallet));
  const twin = (e: WithdrawalEntry): boolean =>
    e.amount === key.amount &&
    same(e.token ?? USDC_ADDRESS, key.token) &&
    // (A destination left to the default where the default was not known may be any: a twin.)
    (e.destination === null || key.destination === null || same(e.destination, key.destination)) &&
    sameSource(e);
  const walletName =
    wallet ?? (account.onBehalfOf === null ? 'your server wallet' : `the server wallet of sub-account ${account.onBehalfOf}`);
  const open = past.find((e) => isOpen(e) && twin(e));
  if (open) {
    throw new ConflictError(
      `an identical withdrawal of ${formatUnits(BigInt(key.amount))} (${open.id}, ${open.ts}) has an unknown outcome: not sending it again`,
      { hint: settleHint(open, walletName, o) },
    );
  }
  const id = `wd-${nodeCrypto().randomBytes(8).toString('hex')}`;
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
    // Only a well-formed refusal, or a request that never left (a refused connection), is "not sent".
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
        id,
      };
    }
    rec('unknown', { error: errorMessage(e) });
    const entry: WithdrawalEntry = { ts: new Date().toISOString(), id, state: 'unknown', ...key, wallet };
    throw new UnknownStateError(
      `the withdrawal ${id} of ${formatUnits(BigInt(key.amount))} may or may not have gone through: pm could not read its answer (${errorMessage(e)})`,
      { cause: e, hint: settleHint(entry, walletName, o) },
    );
  }
  rec('withdrawn', { via: 'answer', transactionId: r.transactionId, wallet: r.walletAddress || wallet });
  return { ...r, via: 'answer', id };
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

/**
 * The refusal of acting "for" the caller's own account: a sub-account's withdrawal whose source
 * cannot be named, which the check for an identical unknown one would miss. In the CLI's words
 * (`flags`) or the library's (`keys`).
 */
export function notOwnAccount(onBehalfOf: number | undefined, ownId: number | undefined, words: 'flags' | 'keys'): void {
  if (onBehalfOf === undefined || ownId !== onBehalfOf) return;
  const cli = words === 'flags';
  throw new UsageError(`${cli ? '--on-behalf-of' : 'onBehalfOf'} ${onBehalfOf} is your own account, not a sub-account: nothing was sent`, {
    hint: cli
      ? "Leave out --on-behalf-of (and the profile's on-behalf-of setting: pm config unset on-behalf-of) to withdraw from your own server wallet."
      : "Leave out createClient's onBehalfOf to withdraw from your own server wallet.",
  });
}

/** The exchange's refusal of a destination off the allowlist, with the library's call that allows it. */
export function allowlistHint(err: unknown, to: string | undefined): never {
  if (err instanceof AuthError && /not allowed/i.test(err.shortMessage))
    throw withHint(err, `Add it to the allowlist first: pm.funds.allowlist.add('${to ?? '0x…'}') (needs identityToken).`, 'replace');
  throw err;
}
