// The library's results of money moves, as the CLI's JSON has money: a decimal string plus its
// …Raw integer string (the exchange's answers carry raw units only).
import { formatUnits, rawFromWire } from './money.js';

/** What `funds.redeem` returns: the claim as `pm --json redeem <slug>` prints it. */
export interface RedeemJson {
  market: string;
  conditionId: string;
  status: 'redeemed';
  /** USDC paid, as a decimal plus raw; null when the answer did not say. */
  payout: string | null;
  payoutRaw: string | null;
  userOperationHash: string | null;
  transactionId: string | null;
  /** "answer": paid now; "already": paid by an earlier call whose answer was lost (payout then null). */
  via: 'answer' | 'already';
}

/** An answer of POST /portfolio/redeem as RedeemJson. @example redeemJson('m', '0x…', { payout: '7936000' }).payout // '7.936' */
export function redeemJson(
  market: string,
  conditionId: string,
  r: { payout?: string | undefined; userOperationHash?: string | undefined; transactionId?: string | undefined },
  via: RedeemJson['via'] = 'answer',
): RedeemJson {
  const payout = r.payout === undefined ? null : rawFromWire(r.payout);
  return {
    market,
    conditionId,
    status: 'redeemed',
    payout: payout === null ? null : formatUnits(payout),
    payoutRaw: payout === null ? null : payout.toString(),
    userOperationHash: r.userOperationHash || null,
    transactionId: r.transactionId || null,
    via,
  };
}

/** What `funds.withdraw` returns: the exchange's answer with `amount` as a decimal and `amountRaw` (it sends raw units). */
export type WithdrawJson<T extends { amount: string }> = Omit<T, 'amount'> & { amount: string; amountRaw: string };

export function withdrawJson<T extends { amount: string }>(r: T): WithdrawJson<T> {
  const raw = rawFromWire(r.amount);
  return { ...r, amount: formatUnits(raw), amountRaw: raw.toString() };
}
