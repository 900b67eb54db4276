// Turning placement results into stable JSON and tables.
import type { Output } from '../../cli/output.js';
import { formatUnits, parseUnits, priceText } from '../../core/money.js';
import type { OrderSummary, Placed } from '../../core/trade/index.js';

export { placedJson } from '../../core/trade/views.js';

/** The human block for one placed order. */
export function placedText(out: Output, p: Placed, _s: OrderSummary | null): void {
  const v = p.order;
  const s =
    v.side !== null && v.type !== null
      ? { side: v.side, outcome: v.outcome ?? '?', type: v.type, size: v.size, price: v.price, amount: v.amount }
      : null;
  const t = p.totals;
  const pairs: [string, string][] = [
    ['order id', p.orderId],
    ['client id', p.clientOrderId],
    ['market', p.marketSlug],
  ];
  if (s)
    pairs.push([
      'order',
      `${s.type} ${s.side} ${s.outcome} ${s.size !== null ? `${s.size} @ ${priceText(s.price ?? '')}` : `${s.amount ?? ''} ${s.side === 'BUY' ? 'USDC' : 'shares'}`}`,
    ]);
  const immediate = s !== null && s.type !== 'GTC';
  const stp = p.reason === 'STP_TAKER_REJECTED';
  // (A re-run reports the order as it stands: it may have been cancelled since.)
  const cancelled = p.status === 'CANCELED' && !immediate;
  const state = stp
    ? p.matched
      ? 'partially matched; the rest was cancelled: it would have matched your own resting order (--stp cancel_taker/cancel_both)'
      : 'cancelled: it would have matched your own resting order (--stp cancel_taker/cancel_both)'
    : cancelled
      ? t.contractsGross > 0n
        ? 'partially filled, then cancelled'
        : 'cancelled'
      : p.matched
        ? immediate && s?.type === 'FAK' && s.size !== null && t.contractsGross < parseUnits(s.size)
          ? 'partially filled; the rest was killed (FAK)'
          : 'matched'
        : p.settlementStatus === 'CANCELED'
          ? `cancelled by the exchange${p.reason ? ` (${p.reason})` : ''}`
          : immediate
            ? `killed: nothing filled (${s?.type ?? ''} does not rest)`
            : 'resting on the book';
  pairs.push(['status', `${state}, settlement ${p.settlementStatus}`]);
  if (t.contractsGross > 0n) {
    pairs.push([
      'filled',
      `${formatUnits(t.contractsNet)} shares at avg ${priceText(formatUnits((t.usdGross * 1_000_000n) / t.contractsGross))} ($${formatUnits(t.usdGross, 6, 2)})`,
    ]);
    pairs.push(['fees', `$${formatUnits(t.usdFee, 6, 2)}`]);
  }
  out.keyValue(pairs);
  if (p.alreadyPlaced) out.info(`note: this client id was already placed; reporting the existing order (no second order was placed).`);
}
