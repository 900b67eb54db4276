// Human rendering of stream events: one line per event, and the full-screen book.
import type { Colors } from '../../cli/colors.js';
import type { Lifecycle } from '../../core/stream.js';
import { formatUnits } from '../../core/money.js';
import { textTime } from '../../cli/text.js';
import { formatPrice } from '../markets/render.js';
import { priceFromWire, rawFromWire } from '../../core/money.js';

type P = Record<string, unknown>;

/** A value as shown: '' for nothing, else its String form. */
const shown = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** The event's time in the one text form (docs/output.md); now, when the event has none. */
function clock(ts: unknown): string {
  const t = typeof ts === 'number' ? ts : typeof ts === 'string' ? Date.parse(ts) : Number.NaN;
  return textTime(Number.isFinite(t) ? t : Date.now());
}

/** A price at the tick's precision, as the static book prints it (0.650). */
const price = (v: unknown): string => formatPrice(priceFromWire(v));

const shares = (v: unknown): string => formatUnits(rawFromWire(v), 6, 0);

function sideWord(c: Colors, side: unknown, token: unknown): string {
  const s = `${shown(side)} ${shown(token)}`.trim();
  return shown(side) === 'SELL' ? c.red(s) : c.green(s);
}

/** One readable line for one event. */
export function eventLine(name: string, p: P, c: Colors): string {
  const t = c.dim(clock(p['timestamp']));
  const slug = shown(p['marketSlug'] ?? p['slug']);
  switch (name) {
    case 'orderEvent': {
      const kind =
        p['source'] === 'SETTLEMENT' ? `${shown(p['type'])}` : p['type'] === 'EXECUTION' ? `${shown(p['status'])}` : shown(p['type']);
      const parts = [t, slug, c.bold(kind.padEnd(16)), sideWord(c, p['side'], p['token'])];
      if (p['source'] === 'SETTLEMENT') {
        parts.push(`${shares(p['amountContracts'])} @ ${price(p['price'])}`);
        if (p['txHash']) parts.push(c.dim(`tx ${shown(p['txHash']).slice(0, 12)}…`));
      } else {
        parts.push(`@ ${price(p['price'])}`, `remaining ${shares(p['remainingSize'])}`);
        if (p['reason']) parts.push(c.yellow(shown(p['reason'])));
      }
      parts.push(c.dim(`order ${shown(p['orderId']).slice(0, 8)}`));
      if (p['clientOrderId']) parts.push(c.cyan(`[${shown(p['clientOrderId'])}]`));
      if (p['replayed'] === true) parts.push(c.dim('(replayed)'));
      return parts.join('  ');
    }
    case 'orderbookUpdate': {
      const ob = (p['orderbook'] ?? {}) as { bids?: P[]; asks?: P[]; adjustedMidpoint?: unknown };
      const bid = ob.bids?.[0];
      const ask = ob.asks?.[0];
      const b = bid ? c.green(`${price(bid['price'])} × ${shares(bid['size'])}`) : c.dim('no bids');
      const a = ask ? c.red(`${price(ask['price'])} × ${shares(ask['size'])}`) : c.dim('no asks');
      return [t, slug, c.bold('BOOK'.padEnd(16)), `bid ${b}`, `ask ${a}`, `mid ${price(ob.adjustedMidpoint)}`].join('  ');
    }
    case 'newPriceData': {
      const u = (Array.isArray(p['updatedPrices']) ? p['updatedPrices'][0] : p['updatedPrices']) as P | undefined;
      return [
        t,
        slug || shown(p['marketAddress']),
        c.bold('PRICE'.padEnd(16)),
        `YES ${price(u?.['yesPrice'] ?? u?.['yes'])}`,
        `NO ${price(u?.['noPrice'] ?? u?.['no'])}`,
      ].join('  ');
    }
    case 'positions': {
      const ps = Array.isArray(p['positions']) ? (p['positions'] as P[]) : [];
      return [
        t,
        slug,
        c.bold('POSITION'.padEnd(16)),
        ...ps.map(
          (x) =>
            `${shown(x['outcome'] ?? x['outcomeIndex'])} ${shares(x['balance'])}${rawFromWire(x['locked']) > 0n ? ` (locked ${shares(x['locked'])})` : ''}`,
        ),
      ].join('  ');
    }
    case 'tx':
      return [
        t,
        slug,
        c.bold(shown(p['status']).padEnd(16)),
        sideWord(c, p['side'], ''),
        `${shares(p['amountContracts'])} @ ${price(p['price'])}`,
        `$${formatUnits(rawFromWire(p['amountCollateral']), 6, 2)}`,
        c.dim(`tx ${shown(p['txHash']).slice(0, 12)}…`),
      ].join('  ');
    case 'marketCreated':
    case 'market.created':
      return [c.dim(clock(p['createdAt'])), slug, c.bold('CREATED'.padEnd(16)), shown(p['type']), JSON.stringify(shown(p['title']))].join(
        '  ',
      );
    case 'marketResolved':
    case 'market.resolved':
      return [c.dim(clock(p['resolutionDate'])), slug, c.bold('RESOLVED'.padEnd(16)), `winner ${shown(p['winningOutcome'])}`].join('  ');
    default:
      return [t, name, JSON.stringify(p)].join('  ');
  }
}

/** The stderr line for a connection change. */
export function lifecycleLine(l: Lifecycle): string {
  switch (l.type) {
    case 'connected':
      return `connected to ${l.url}`;
    case 'subscribed':
      return `subscribed: ${l.channels.join(', ')}${l.confirmed ? '' : ' (not confirmed by the exchange yet)'}`;
    case 'disconnected':
      return `disconnected (${l.reason}); reconnecting…`;
    case 'reconnected':
      return `reconnected after ${(l.afterMs / 1000).toFixed(1)} s (${l.attempts} attempt${l.attempts === 1 ? '' : 's'})`;
    case 'resubscribed':
      return `resubscribed: ${l.channels.join(', ')}${l.confirmed ? '' : ' (not confirmed by the exchange yet)'}`;
    case 'retrying':
      return `cannot connect (${l.error}); retrying…`;
    case 'caught-up':
      return `caught up: ${l.replayed} missed event${l.replayed === 1 ? '' : 's'} replayed from REST`;
    case 'catch-up-failed':
      return `could not fill the gap from REST (${l.error}); retrying in ${(l.retryInMs / 1000).toFixed(0)} s`;
  }
}

/** The whole book as one screen (cursor home, clear, redraw). */
export function bookScreen(p: P, c: Colors, depth: number): string {
  const ob = (p['orderbook'] ?? {}) as { bids?: P[]; asks?: P[]; adjustedMidpoint?: unknown };
  const asks = (ob.asks ?? []).slice(0, depth).reverse();
  const bids = (ob.bids ?? []).slice(0, depth);
  const row = (side: string, l: P): string => `${side}  ${price(l['price']).padStart(6)}  ${shares(l['size']).padStart(12)}`;
  const lines = [
    c.bold(`${shown(p['marketSlug'])}  order book (YES)`) + c.dim(`   ${clock(p['timestamp'])}  v${shown(p['version'])}`),
    '',
    c.dim(`side   price        shares`),
    ...asks.map((l) => c.red(row('ask', l))),
    c.dim(`       mid ${price(ob.adjustedMidpoint)}`),
    ...bids.map((l) => c.green(row('bid', l))),
    '',
    c.dim('Ctrl-C to quit'),
  ];
  return `\x1b[H\x1b[2J${lines.join('\r\n')}\r\n`;
}
