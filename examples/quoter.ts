// A small market-making bot on pm's library: it quotes both sides of one market around the mid
// (a bid to buy YES, and an ask expressed as a bid to buy NO, so USDC alone backs both), moves its
// quotes with one cancel-replace each when the book's mid moves, and cancels everything on Ctrl-C.
//
//   pm sandbox start --simulate --ephemeral &        # a market that moves by itself
//   PM_BASE_URL=http://127.0.0.1:8787 PM_PRIVATE_KEY=… PM_TOKEN_ID=… PM_TOKEN_SECRET=… \
//     node examples/quoter.ts btc-100k-2026 --spread 0.04 --size 10
//
// Node ≥ 22.18 runs TypeScript as it is; on Node 20 compile it first (tsc, or any bundler).
// Credentials come from the environment here (a bot's choice), or use { profile, passphrase }.
// Prices are whole ticks (0.001) from the book's decimal strings to the orders' decimal strings:
// no float ever becomes a price.
import { parseArgs } from 'node:util';
import { createClient, PmError } from 'pm-cli';
import type { OrderBookJson, Outcome } from 'pm-cli';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { spread: { type: 'string', default: '0.04' }, size: { type: 'string', default: '10' } },
});
const market = positionals[0] ?? 'btc-100k-2026';
const size = values.size;
const env = process.env;

const pm = createClient({
  baseUrl: env['PM_BASE_URL'],
  privateKey: env['PM_PRIVATE_KEY'],
  token: env['PM_TOKEN_ID'] ? { tokenId: env['PM_TOKEN_ID'], secret: env['PM_TOKEN_SECRET'] ?? '' } : undefined,
  profile: env['PM_TOKEN_ID'] ? undefined : env['PM_PROFILE'],
  passphrase: env['PM_PASSPHRASE'],
});
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());

const log = (msg: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), ...msg })}\n`);
};

/** A price of the book ("0.42", "0.415") in ticks of 0.001 (420, 415); prices have at most 3 decimals. */
function ticks(price: string): number {
  const [whole = '0', frac = ''] = price.split('.');
  return Number(whole) * 1000 + Number(frac.padEnd(3, '0').slice(0, 3));
}
/** Ticks as the decimal string an order takes: 420 → "0.420". */
const price = (t: number): string => `0.${String(Math.min(990, Math.max(10, t))).padStart(3, '0')}`;
const spread = ticks(values.spread);

/** Twice the mid of a book, in ticks (bid + ask); null when a side is empty. */
function twiceMid(book: OrderBookJson): number | null {
  return book.bestBid === null || book.bestAsk === null ? null : ticks(book.bestBid) + ticks(book.bestAsk);
}
/** Twice the mid in ticks as a decimal: 835 → "0.4175". */
const midText = (m: number): string => `0.${String(m * 5).padStart(4, '0')}`;

const quotes: { bid: string | null; ask: string | null; mid: number | null } = { bid: null, ask: null, mid: null };

/**
 * Moves one quote with one request (the old order cancelled and the new one resting, or neither).
 * A quote that is gone (filled, or cancelled elsewhere) cannot be cancelled: that side is quoted afresh.
 */
async function move(id: string, outcome: Outcome, p: string): Promise<{ id: string; ok: boolean }> {
  const r = await pm.orders.replace(id, { price: p, size }, { signal: stop.signal });
  if (r.replacement) return { id: r.replacement.order.id, ok: true };
  if (r.cancelled.status !== 'NOT_FOUND') return { id, ok: false };
  const fresh = await pm.orders.place({ market, side: 'BUY', outcome, price: p, size, postOnly: true }, { signal: stop.signal });
  return { id: fresh.order.id, ok: true };
}

async function quote(mid: number): Promise<void> {
  const bidPrice = price(Math.floor((mid - spread) / 2));
  const askYes = Math.ceil((mid + spread) / 2);
  // Selling YES at p is buying NO at 1 − p: the ask side needs USDC only.
  const askPrice = price(1000 - askYes);
  const shown = { mid: midText(mid), bid: bidPrice, askYes: price(askYes) };
  if (quotes.bid === null || quotes.ask === null) {
    const bid = await pm.orders.place(
      { market, side: 'BUY', outcome: 'YES', price: bidPrice, size, postOnly: true },
      { signal: stop.signal },
    );
    const ask = await pm.orders.place(
      { market, side: 'BUY', outcome: 'NO', price: askPrice, size, postOnly: true },
      { signal: stop.signal },
    );
    quotes.bid = bid.order.id;
    quotes.ask = ask.order.id;
    log({ quoting: market, ...shown, orders: [quotes.bid, quotes.ask] });
  } else {
    const b = await move(quotes.bid, 'YES', bidPrice);
    const a = await move(quotes.ask, 'NO', askPrice);
    quotes.bid = b.id;
    quotes.ask = a.id;
    log({ requoted: market, ...shown, ok: b.ok && a.ok });
  }
  quotes.mid = mid;
}

/** An error as one log line, with pm's exit code for it. */
function report(e: unknown, during: string): void {
  if (e instanceof PmError) log({ error: e.code, during, message: e.shortMessage, hint: e.hint });
  else log({ error: 'UNEXPECTED', during, message: String(e) });
  process.exitCode = e instanceof PmError ? e.exitCode : 1;
}

try {
  await quote(twiceMid(await pm.markets.book(market, {}, { signal: stop.signal })) ?? 1000);
  for await (const ev of pm.watch.prices([market], { signal: stop.signal })) {
    if (ev.event !== 'orderbookUpdate') continue;
    const m = twiceMid(ev.book);
    if (m !== null && quotes.mid !== null && Math.abs(m - quotes.mid) >= 2) await quote(m);
  }
} catch (e) {
  if (!stop.signal.aborted) report(e, 'quoting');
} finally {
  // The kill switch for this market, whatever happened above (a fresh call: it runs after an abort).
  try {
    const done = await pm.orders.cancelAll({ market });
    log({ stopped: market, canceled: done.results.filter((x) => x.status === 'CANCELLED').length });
  } catch (e) {
    report(e, 'cancelling');
  }
  await pm.close();
}
