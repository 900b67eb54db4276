// Reading a recording (`pm record`, format "pm-recording" version 1, docs/recording.md) for a
// replay (replay.ts): the header and every line parsed at the boundary into typed values, with
// the sandbox's own code (it never imports the client's). A last line without its newline was
// cut short by a crash and is ignored; anything else that does not parse is refused, naming the
// line. Prices and sizes become raw units (bigint) from the decimal text, never through floats.
import { readFileSync } from 'node:fs';
import { ONE, PRICE_TICK, SIZE_STEP, parseDecimal6, parseWireInt } from './orders/amounts.js';

const FORMAT = 'pm-recording';
const VERSION = 1;

/** A recording that cannot be replayed (not format pm-recording v1, or a line that does not parse). */
export class RecordingError extends Error {
  readonly code = 'ERECORDING';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'RecordingError';
  }
}

/** One price level of the YES book: price in micro-units, size in raw shares. */
export interface Level {
  price: bigint;
  size: bigint;
}

/** A recorded market as the replay re-creates it. */
export interface RecordedMarket {
  slug: string;
  title: string;
  /** The market's minimum order size in raw shares, when the header says it. */
  minSize: bigint | null;
}

/** One line after the header: what the replay does with it (`other`: nothing but count it). */
export type RecordedLine =
  | { kind: 'book'; t: number; market: string; bids: Level[]; asks: Level[] }
  /**
   * A trade, in YES terms: `lift` took asks (bought YES or sold NO), else it hit bids. `price` is
   * the YES price it reached, rounded to the tick away from the book it took (never further).
   */
  | { kind: 'trade'; t: number; market: string; lift: boolean; price: bigint; size: bigint }
  | { kind: 'resolved'; t: number; market: string; winner: 0 | 1 }
  | { kind: 'other'; t: number };

export interface Recording {
  file: string;
  /** The recording's start (epoch ms). */
  startedAt: number;
  markets: RecordedMarket[];
  lines: RecordedLine[];
  /** Whether a torn last line (no newline) was dropped. */
  torn: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads and parses a recording; throws RecordingError naming what is wrong. */
export function readRecording(file: string): Recording {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new RecordingError(file, code === 'ENOENT' ? 'no such file' : `cannot be read (${String(code ?? 'error')})`);
  }
  return parseRecording(file, text);
}

/** Parses the text of a recording (see readRecording). */
export function parseRecording(file: string, text: string): Recording {
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const torn = last !== '';
  const [headerText, ...rest] = parts;
  const header = headerText === undefined ? undefined : json(headerText);
  if (!isObj(header) || header['format'] !== FORMAT || header['version'] !== VERSION)
    throw new RecordingError(
      file,
      `not a recording of format ${FORMAT} version ${VERSION} (its first line is the header pm record writes)`,
    );
  const startedAt = time(header['startedAt']);
  const markets = header['markets'];
  if (startedAt === null || !Array.isArray(markets) || markets.length === 0)
    throw new RecordingError(file, 'the header has no startedAt time or no markets');
  const lines: RecordedLine[] = [];
  rest.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = parseLine(json(raw));
    if (typeof line === 'string') throw new RecordingError(file, `line ${i + 2}: ${line}`);
    lines.push(line);
  });
  return { file, startedAt, markets: markets.map((m, i) => parseMarket(file, m, i)), lines, torn };
}

function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function time(v: unknown): number | null {
  if (typeof v !== 'string' || !/^\d{4}-\d\d-\d\dT/.test(v)) return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

function parseMarket(file: string, v: unknown, i: number): RecordedMarket {
  const slug = isObj(v) ? v['slug'] : undefined;
  if (!isObj(v) || typeof slug !== 'string' || !/^[a-z0-9][a-z0-9-]{0,99}$/.test(slug))
    throw new RecordingError(file, `header market ${i + 1} has no valid slug`);
  const title = typeof v['title'] === 'string' && v['title'] !== '' ? v['title'] : slug;
  const settings = isObj(v['settings']) ? v['settings'] : {};
  const minSize = parseWireInt(settings['minSize']);
  return { slug, title, minSize: minSize !== null && minSize > 0n ? minSize : null };
}

/** One line, or what is wrong with it. */
function parseLine(v: unknown): RecordedLine | string {
  if (!isObj(v)) return 'not a JSON object';
  const t = time(v['t']);
  if (t === null) return 'no time t';
  const market = v['market'];
  const data = v['data'];
  if (!isObj(data)) return 'no data object';
  switch (v['type']) {
    case 'book':
      return typeof market === 'string' ? parseBook(t, market, data) : 'a book line without its market';
    case 'trade':
      return typeof market === 'string' ? parseTrade(t, market, data) : 'a trade line without its market';
    case 'resolved': {
      const w = data['winningOutcome'] ?? data['winningIndex'] ?? data['winningOutcomeIndex'];
      const winner = w === 'YES' || w === 0 ? 0 : w === 'NO' || w === 1 ? 1 : null;
      if (typeof market !== 'string' || winner === null) return 'a resolved line without its market or winner';
      return { kind: 'resolved', t, market, winner };
    }
    default:
      // price, lifecycle, gap, end, and types of later versions: nothing to re-create.
      return { kind: 'other', t };
  }
}

/** A book state: `data.orderbook.{bids,asks}` as the stream sends it (or `data.{bids,asks}`). */
function parseBook(t: number, market: string, data: Obj): RecordedLine | string {
  const book = isObj(data['orderbook']) ? data['orderbook'] : data;
  const bids = levels(book['bids']);
  const asks = levels(book['asks']);
  if (bids === null || asks === null) return 'a book line whose levels are not {price, size} pairs (price a decimal, size raw units)';
  return { kind: 'book', t, market, bids, asks };
}

function levels(v: unknown): Level[] | null {
  if (!Array.isArray(v)) return null;
  const out: Level[] = [];
  for (const l of v) {
    if (!isObj(l)) return null;
    const price = parseDecimal6(l['price']);
    const size = parseWireInt(l['size']);
    if (price === null || size === null || price <= 0n || price >= ONE || size < 0n) return null;
    if (size > 0n) out.push({ price: (price / PRICE_TICK) * PRICE_TICK, size: (size / SIZE_STEP) * SIZE_STEP });
  }
  return out;
}

/** A NEW_TRADE feed entry: strategy Buy/Sell of outcome YES/NO, contracts and their USDC amount. */
function parseTrade(t: number, market: string, entry: Obj): RecordedLine | string {
  const d = isObj(entry['data']) ? entry['data'] : {};
  const strategy = d['strategy'];
  const outcome = d['outcome'];
  const size = parseDecimal6(d['contracts']);
  const usd = parseDecimal6(d['tradeAmount']);
  if (
    (strategy !== 'Buy' && strategy !== 'Sell') ||
    (outcome !== 'YES' && outcome !== 'NO') ||
    size === null ||
    usd === null ||
    size === 0n
  )
    return 'a trade line without strategy, outcome, contracts and tradeAmount';
  const perShare = (usd * ONE) / size; // the outcome's average price
  const yes = outcome === 'YES' ? perShare : ONE - perShare;
  const lift = (strategy === 'Buy') === (outcome === 'YES');
  // Rounded towards the side it took: a lift reached at least this ask, a hit at most this bid.
  const price = lift ? (yes / PRICE_TICK) * PRICE_TICK : ((yes + PRICE_TICK - 1n) / PRICE_TICK) * PRICE_TICK;
  if (price <= 0n || price >= ONE) return 'a trade line whose price is not between 0 and 1';
  return { kind: 'trade', t, market, lift, price, size: (size / SIZE_STEP) * SIZE_STEP };
}
