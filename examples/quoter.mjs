#!/usr/bin/env node
// A small market-making bot on pm's library: it quotes both sides of one market around the mid
// (a bid to buy YES, and an ask expressed as a bid to buy NO, so USDC alone backs both), moves its
// quotes with one cancel-replace each when the book's mid moves, and cancels everything on Ctrl-C.
//
//   pm sandbox start --simulate --ephemeral &        # a market that moves by itself
//   PM_BASE_URL=http://127.0.0.1:8787 PM_PRIVATE_KEY=… PM_TOKEN_ID=… PM_TOKEN_SECRET=… \
//     node examples/quoter.mjs btc-100k-2026 --spread 0.04 --size 10
//
// Credentials come from the environment here (a bot's choice), or use { profile, passphrase }.
import { createClient } from 'pm-cli';

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const market = args.find((a) => !a.startsWith('--') && !args[args.indexOf(a) - 1]?.startsWith('--')) ?? 'btc-100k-2026';
const spread = Number(flag('spread', '0.04'));
const size = flag('size', '10');
const env = process.env;

const pm = createClient({
  baseUrl: env.PM_BASE_URL,
  privateKey: env.PM_PRIVATE_KEY,
  token: env.PM_TOKEN_ID ? { tokenId: env.PM_TOKEN_ID, secret: env.PM_TOKEN_SECRET ?? '' } : undefined,
  profile: env.PM_TOKEN_ID ? undefined : env.PM_PROFILE,
  passphrase: env.PM_PASSPHRASE,
});
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());

const log = (msg) => process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), ...msg })}\n`);
const tick = 0.001;
const clamp = (p) => Math.min(0.99, Math.max(0.01, Math.round(p / tick) * tick));
const price = (p) => clamp(p).toFixed(3);

/** The mid of a book as pm returns it (decimal strings); null when a side is empty. */
function midOf(book) {
  const bid = book.bids?.[0]?.price;
  const ask = book.asks?.[0]?.price;
  if (bid === undefined || ask === undefined) return null;
  return (Number(bid) + Number(ask)) / 2;
}

const quotes = { bid: null, ask: null, mid: null };

/**
 * Moves one quote with one request (the old order cancelled and the new one resting, or neither).
 * A quote that is gone (filled, or cancelled elsewhere) cannot be cancelled: that side is quoted afresh.
 */
async function move(id, outcome, p) {
  const r = await pm.orders.replace(id, { price: p, size }, { signal: stop.signal });
  if (r.replacement) return { id: r.replacement.order.id, ok: true };
  if (r.cancelled.status !== 'NOT_FOUND') return { id, ok: false };
  const fresh = await pm.orders.place({ market, side: 'buy', outcome, price: p, size, postOnly: true }, { signal: stop.signal });
  return { id: fresh.order.id, ok: true };
}

async function quote(mid) {
  const bidPrice = price(mid - spread / 2);
  // Selling YES at p is buying NO at 1 − p: the ask side needs USDC only.
  const askPrice = price(1 - (mid + spread / 2));
  if (quotes.bid === null) {
    const bid = await pm.orders.place(
      { market, side: 'buy', outcome: 'yes', price: bidPrice, size, postOnly: true },
      { signal: stop.signal },
    );
    const ask = await pm.orders.place(
      { market, side: 'buy', outcome: 'no', price: askPrice, size, postOnly: true },
      { signal: stop.signal },
    );
    quotes.bid = bid.order.id;
    quotes.ask = ask.order.id;
    log({
      quoting: market,
      mid: mid.toFixed(4),
      bid: bidPrice,
      askYes: (1 - Number(askPrice)).toFixed(3),
      orders: [quotes.bid, quotes.ask],
    });
  } else {
    const b = await move(quotes.bid, 'yes', bidPrice);
    const a = await move(quotes.ask, 'no', askPrice);
    quotes.bid = b.id;
    quotes.ask = a.id;
    log({ requoted: market, mid: mid.toFixed(4), bid: bidPrice, askYes: (1 - Number(askPrice)).toFixed(3), ok: b.ok && a.ok });
  }
  quotes.mid = mid;
}

try {
  const mid = midOf(await pm.markets.book(market, {}, { signal: stop.signal })) ?? 0.5;
  await quote(mid);
  for await (const ev of pm.watch.prices([market], { signal: stop.signal })) {
    if (ev.event !== 'orderbookUpdate') continue;
    const m = midOf(ev.book);
    if (m !== null && quotes.mid !== null && Math.abs(m - quotes.mid) >= tick) await quote(m);
  }
} catch (e) {
  if (!stop.signal.aborted) {
    log({ error: e.code ?? 'UNEXPECTED', message: e.shortMessage ?? e.message, hint: e.hint });
    process.exitCode = e.exitCode ?? 1;
  }
} finally {
  // The kill switch for this market, whatever happened above.
  const done = await pm.orders.cancelAll({ market });
  log({ stopped: market, canceled: done.results.filter((x) => x.status === 'CANCELLED').length });
  await pm.close();
}
