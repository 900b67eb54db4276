// What a user types for a market, checked offline (no request): a slug or the exchange's market
// URL, did-you-mean suggestions for a mistyped one, and the history and page query flags.
import { UsageError } from './errors.js';
import { editDistance, suggest } from './suggest.js';

/** The exchange's own web site: a market URL is https://limitless.exchange/markets/<slug>. */
const EXCHANGE_SITE = /^(?:[a-z0-9-]+\.)*limitless\.exchange$/i;
const SLUG = /^[a-z0-9][a-z0-9_.-]{0,199}$/;
const SLUG_HINT =
  'A market is a slug such as btc-100k-2026 (any case) or its page https://limitless.exchange/markets/btc-100k-2026: see pm markets list';

/** Checks a slug (lower-cased: slugs on the exchange are lower case). */
function checkSlug(slug: string, input: string, fromUrl: boolean): string {
  const s = slug.toLowerCase();
  if (!SLUG.test(s)) {
    const what = fromUrl ? `the URL "${input}" names "${slug}", which is not a market slug` : `"${input}" is not a market slug`;
    throw new UsageError(what, { hint: SLUG_HINT });
  }
  return s;
}

/** The slug inside an exchange market URL; any other site, or a URL without a market, is refused. */
function slugFromUrl(input: string, s: string): string {
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    throw new UsageError(`"${input}" is neither a market slug nor a valid URL`, { hint: SLUG_HINT });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new UsageError(`"${input}" is not a web address of the exchange (${u.protocol.replace(/:$/, '')} URL)`, { hint: SLUG_HINT });
  if (!EXCHANGE_SITE.test(u.hostname)) {
    throw new UsageError(
      `${u.hostname} is not the exchange's site: pm takes a slug or a limitless.exchange market URL, not a link to another site`,
      { hint: SLUG_HINT },
    );
  }
  const parts = u.pathname.split('/').filter(Boolean);
  const i = parts.findIndex((p) => p === 'markets' || p === 'market');
  const raw = i >= 0 ? parts[i + 1] : undefined;
  if (raw === undefined || i + 2 < parts.length)
    throw new UsageError(`"${input}" is not a market page: expected https://limitless.exchange/markets/<slug>`, { hint: SLUG_HINT });
  let slug: string;
  try {
    slug = decodeURIComponent(raw);
  } catch {
    throw new UsageError(`the URL "${input}" has a malformed percent-encoding in its market slug`, { hint: SLUG_HINT });
  }
  return checkSlug(slug, input, true);
}

/**
 * A market argument as a slug: a slug in any case, or the exchange's market URL (another site's
 * URL is refused, and the slug decoded from a URL is checked like a typed one).
 * @example slugFrom('https://limitless.exchange/markets/BTC-100k-2026') === 'btc-100k-2026'
 */
export function slugFrom(input: string): string {
  const s = input.trim();
  if (s === '') throw new UsageError('the market is empty', { hint: SLUG_HINT });
  if (/^[a-z][a-z0-9+.-]*:/i.test(s) || s.includes('/') || /^(?:www\.)?limitless\.exchange\b/i.test(s)) return slugFromUrl(input, s);
  return checkSlug(s, input, false);
}

const STOP = new Set([
  'the',
  'will',
  'a',
  'an',
  'of',
  'on',
  'in',
  'by',
  'at',
  'to',
  'be',
  'is',
  'it',
  'its',
  'as',
  'this',
  'that',
  'with',
  'from',
  'than',
  'and',
  'or',
  'for',
  'before',
  'after',
  'above',
  'below',
  // Words every market has: sharing one says nothing.
  'market',
  'markets',
  'yes',
  'no',
  'price',
]);
const words = (s: string): string[] =>
  s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP.has(w));

/**
 * Markets a mistyped slug probably meant, best first (at most `max`): the slugs the one suggester
 * finds near (suggest.ts: prefix, a part of the slug, a few edits), else those sharing a telling
 * word with the title or the slug.
 */
export function suggestMarkets(input: string, markets: { slug: string; title: string }[], max = 3): string[] {
  const near = suggest(
    input,
    markets.map((m) => m.slug),
    max,
  );
  if (near.length > 0) return near;
  const qWords = new Set(words(input.toLowerCase()));
  return markets
    .map((m) => ({
      slug: m.slug,
      shared: new Set(
        [...words(m.title), ...words(m.slug)].filter(
          (w) => qWords.has(w) || [...qWords].some((x) => x.length >= 4 && (w.startsWith(x) || x.startsWith(w))),
        ),
      ).size,
      d: editDistance(input.toLowerCase(), m.slug),
    }))
    .filter((x) => x.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.d - b.d)
    .slice(0, max)
    .map((x) => x.slug);
}

/** History intervals as pm spells them (unambiguous) and as the exchange does (1m is its month). */
export const INTERVALS: Record<string, string> = { '1h': '1h', '6h': '6h', '1d': '1d', '1w': '1w', '1mo': '1m', all: 'all' };

/** An ISO 8601 date or date-time (checked: 2026-02-30 is refused), to milliseconds. */
export function parseIsoTime(input: string, flag: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(input.trim());
  const t = m
    ? Date.parse(
        m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : input.trim().replace(' ', 'T') + (m[7] === undefined ? 'Z' : ''),
      )
    : NaN;
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  const realDay = day !== null && day.getUTCMonth() === Number(m?.[2]) - 1 && day.getUTCDate() === Number(m?.[3]);
  if (!m || Number.isNaN(t) || !realDay) {
    throw new UsageError(`${flag} must be an ISO 8601 date or time such as 2026-01-31 or 2026-01-31T12:00:00Z, got "${input}"`, {
      hint: `A date (${flag} 2026-01-31, midnight UTC) or a time with its zone (${flag} 2026-01-31T12:00:00Z).`,
    });
  }
  return t;
}

/** Checks `markets history` input offline: the interval, the dates, and that the range is not reversed. */
export function historyQuery(q: { interval?: string | undefined; from?: string | undefined; to?: string | undefined }): {
  interval?: string;
  from?: string;
  to?: string;
} {
  const out: { interval?: string; from?: string; to?: string } = {};
  if (q.interval !== undefined) {
    const i = q.interval.toLowerCase();
    const wire = Object.hasOwn(INTERVALS, i) ? INTERVALS[i] : undefined;
    if (wire === undefined) {
      const hint =
        i === '1m'
          ? '1m would be ambiguous (a minute or a month?): a month is 1mo; there is no minute interval.'
          : `Intervals: ${Object.keys(INTERVALS).join(', ')}.`;
      throw new UsageError(`--interval must be one of ${Object.keys(INTERVALS).join(', ')}, got "${q.interval}"`, { hint });
    }
    out.interval = wire;
  }
  const from = q.from !== undefined ? parseIsoTime(q.from, '--from') : undefined;
  const to = q.to !== undefined ? parseIsoTime(q.to, '--to') : undefined;
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError(`the range is reversed: --from ${q.from} is after --to ${q.to}`, {
      hint: 'Swap them: --from is the earlier time.',
    });
  if (from !== undefined) out.from = new Date(from).toISOString();
  if (to !== undefined) out.to = new Date(to).toISOString();
  return out;
}

/** `markets page --sort`: createdAt, updatedAt, deadline or id, optionally prefixed with - (checked offline). */
export function checkPageSort(sort: string | undefined, words: 'flags' | 'keys' = 'flags'): string | undefined {
  if (sort !== undefined && !/^-?(createdAt|updatedAt|deadline|id)$/.test(sort)) {
    throw new UsageError(
      `${words === 'flags' ? '--sort' : 'sort'} must be createdAt, updatedAt, deadline or id (prefix - for descending), got "${sort}"`,
      {
        hint: words === 'flags' ? 'for example --sort -createdAt (the newest first)' : "for example sort: '-createdAt' (the newest first)",
      },
    );
  }
  return sort;
}
