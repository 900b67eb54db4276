// Turning placement results into stable JSON and tables.
import type { Output } from '../../cli/output.js';
import { formatUnits, parseUnits } from '../../core/money.js';
import type { OrderSummary, Placed } from '../../core/trade/index.js';

/** The documented JSON of one placed order (amounts as decimal strings plus raw integers). */
export function placedJson(p: Placed, s: OrderSummary | null): Record<string, unknown> {
  const t = p.totals;
  const avg = t.contractsGross > 0n ? formatUnits((t.usdGross * 1_000_000n) / t.contractsGross) : null;
  return {
    orderId: p.orderId,
    clientOrderId: p.clientOrderId,
    market: p.marketSlug,
    ...(s ? { side: s.side, outcome: s.outcome, type: s.type, price: s.price, size: s.size, amount: s.amount } : {}),
    matched: p.matched,
    settlementStatus: p.settlementStatus,
    filled: {
      shares: formatUnits(t.contractsNet),
      sharesRaw: t.contractsNet.toString(),
      averagePrice: avg,
      usd: formatUnits(t.usdGross),
      usdRaw: t.usdGross.toString(),
      fee: formatUnits(t.usdFee),
      feeRaw: t.usdFee.toString(),
      net: formatUnits(t.usdNet),
      netRaw: t.usdNet.toString(),
    },
    makerMatches: p.makerMatches,
    alreadyPlaced: p.alreadyPlaced,
  };
}

/** The human block for one placed order. */
export function placedText(out: Output, p: Placed, s: OrderSummary | null): void {
  const t = p.totals;
  const pairs: [string, string][] = [
    ['order id', p.orderId],
    ['client id', p.clientOrderId],
    ['market', p.marketSlug],
  ];
  if (s) pairs.push(['order', `${s.type} ${s.side} ${s.outcome} ${s.size !== null ? `${s.size} @ ${s.price ?? ''}` : `${s.amount ?? ''} ${s.side === 'BUY' ? 'USDC' : 'shares'}`}`]);
  const immediate = s !== null && s.type !== 'GTC';
  const state = p.matched
    ? immediate && s?.type === 'FAK' && s.size !== null && t.contractsGross < parseUnits(s.size)
      ? 'partially filled; the rest was killed (FAK)'
      : 'matched'
    : immediate
      ? `killed: nothing filled (${s?.type ?? ''} does not rest)`
      : 'resting on the book';
  pairs.push(['status', `${state}, settlement ${p.settlementStatus}`]);
  if (t.contractsGross > 0n) {
    pairs.push(['filled', `${formatUnits(t.contractsNet)} shares at avg ${formatUnits((t.usdGross * 1_000_000n) / t.contractsGross)} ($${formatUnits(t.usdGross, 6, 2)})`]);
    pairs.push(['fees', `$${formatUnits(t.usdFee, 6, 2)}`]);
  }
  out.keyValue(pairs);
  if (p.alreadyPlaced) out.info(`note: this client id was already placed; reporting the existing order (nothing new was sent).`);
}
