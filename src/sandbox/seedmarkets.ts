// The seed's markets: one spec per market across categories (CLOB, a NegRisk group and its
// children, AMM, resolved, expired), made into wire-shaped records with a price history.
// Deterministic: same spec, id and time, same market.
import { createHash } from 'node:crypto';
import type { Hex, MarketRecord } from './types.js';

const ONE = 1_000_000n;
const SIMPLE_EXCHANGE: Hex = '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5';
const NEGRISK_EXCHANGE: Hex = '0xe3E00BA3a9888d1DE4834269f62ac008b4BB5C47';
const NEGRISK_ADAPTER: Hex = '0x6151EF8368b6316c1aa3C68453EF083ad31E712D';
const USDC = { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, symbol: 'USDC' };

export const CATEGORIES: Record<string, number> = { Crypto: 1, Politics: 2, Sports: 3, Economics: 4, Tech: 5 };

export const sha = (s: string): Buffer => createHash('sha256').update(s).digest();
const hex32 = (s: string): Hex => `0x${sha(s).toString('hex')}`;
/** A large decimal token id, like the exchange's position ids. */
const positionId = (s: string): string => BigInt(`0x${sha(s).toString('hex')}`).toString(10);

interface MarketSpec {
  slug: string;
  title: string;
  description: string;
  category: string;
  tags: string[];
  fair: number; // YES fair price in ticks (of 1000)
  days: number; // deadline offset from now
  volume: bigint; // whole USDC
  kind?: 'clob' | 'amm' | 'group' | 'child';
  group?: string;
  status?: 'FUNDED' | 'RESOLVED';
  winner?: 0 | 1;
}

export const SPECS: MarketSpec[] = [
  {
    slug: 'btc-100k-2026',
    title: 'Will Bitcoin trade above $100,000 on Dec 31, 2026?',
    description: 'Resolves YES if the BTC/USD index price is above $100,000 at 23:59 UTC on December 31, 2026.',
    category: 'Crypto',
    tags: ['bitcoin', 'btc', 'price'],
    fair: 620,
    days: 39,
    volume: 1_284_500n,
  },
  {
    slug: 'eth-flip-btc',
    title: 'Will Ethereum flip Bitcoin by market cap in 2026?',
    description: 'Resolves YES if ETH market capitalisation exceeds BTC market capitalisation on any day before the deadline.',
    category: 'Crypto',
    tags: ['ethereum', 'bitcoin', 'flippening'],
    fair: 80,
    days: 39,
    volume: 312_040n,
  },
  {
    slug: 'sol-500-2026',
    title: 'Will Solana reach $500 before 2027?',
    description: 'Resolves YES if SOL/USD trades at or above $500 before January 1, 2027.',
    category: 'Crypto',
    tags: ['solana', 'sol', 'price'],
    fair: 220,
    days: 39,
    volume: 98_760n,
  },
  {
    slug: 'fed-cut-december',
    title: 'Will the Fed cut rates at the December meeting?',
    description: 'Resolves YES if the FOMC lowers the federal funds target range at its December 2026 meeting.',
    category: 'Economics',
    tags: ['fed', 'rates', 'fomc'],
    fair: 710,
    days: 24,
    volume: 2_050_300n,
  },
  {
    slug: 'world-cup-2026-brazil',
    title: 'Will Brazil win the 2026 FIFA World Cup?',
    description: 'Resolves YES if Brazil wins the final of the 2026 FIFA World Cup.',
    category: 'Sports',
    tags: ['football', 'world cup', 'brazil'],
    fair: 180,
    days: 230,
    volume: 640_900n,
  },
  {
    slug: 'gpt-6-release-2026',
    title: 'Will GPT-6 be released before the end of 2026?',
    description: 'Resolves YES if a model named GPT-6 is generally available before January 1, 2027.',
    category: 'Tech',
    tags: ['ai', 'openai', 'llm'],
    fair: 350,
    days: 39,
    volume: 455_120n,
  },
  {
    slug: 'us-election-2028',
    title: 'US presidential election 2028: winning party',
    description: 'Which party wins the 2028 US presidential election? One market per outcome; exactly one resolves YES.',
    category: 'Politics',
    tags: ['election', 'usa'],
    fair: 0,
    days: 715,
    volume: 3_900_000n,
    kind: 'group',
  },
  {
    slug: 'us-election-2028-democrat',
    title: 'Democratic Party wins the 2028 US presidential election',
    description: 'Child market of us-election-2028.',
    category: 'Politics',
    tags: ['election', 'usa'],
    fair: 480,
    days: 715,
    volume: 1_900_000n,
    kind: 'child',
    group: 'us-election-2028',
  },
  {
    slug: 'us-election-2028-republican',
    title: 'Republican Party wins the 2028 US presidential election',
    description: 'Child market of us-election-2028.',
    category: 'Politics',
    tags: ['election', 'usa'],
    fair: 470,
    days: 715,
    volume: 1_850_000n,
    kind: 'child',
    group: 'us-election-2028',
  },
  {
    slug: 'us-election-2028-other',
    title: 'Another party wins the 2028 US presidential election',
    description: 'Child market of us-election-2028.',
    category: 'Politics',
    tags: ['election', 'usa'],
    fair: 50,
    days: 715,
    volume: 150_000n,
    kind: 'child',
    group: 'us-election-2028',
  },
  {
    slug: 'rain-in-london-weekend',
    title: 'Will it rain in London this weekend?',
    description: 'An AMM market: resolves YES if the Met Office records rain at Heathrow on Saturday or Sunday.',
    category: 'Economics',
    tags: ['weather', 'amm'],
    fair: 640,
    days: 6,
    volume: 12_400n,
    kind: 'amm',
  },
  {
    slug: 'eth-5k-2025',
    title: 'Did Ethereum trade above $5,000 in 2025?',
    description: 'Resolved YES.',
    category: 'Crypto',
    tags: ['ethereum', 'price'],
    fair: 1000,
    days: -40,
    volume: 870_000n,
    status: 'RESOLVED',
    winner: 0,
  },
  {
    slug: 'sp500-7000-nov-2026',
    title: 'Will the S&P 500 close above 7,000 on Nov 20, 2026?',
    description: 'Past its deadline, awaiting resolution.',
    category: 'Economics',
    tags: ['stocks', 'sp500'],
    fair: 400,
    days: -2,
    volume: 220_000n,
  },
];

/** A deterministic pseudo-random sequence (mulberry32) from a string seed. */
export function prng(seed: string): () => number {
  let a = sha(seed).readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A new tradable CLOB market (for the admin market-creation route): no trades, YES at `fairTicks`/1000. */
export function clobMarket(slug: string, title: string, id: number, nowMs: number, fairTicks = 500, days = 30): MarketRecord {
  const m = market({ slug, title, description: title, category: 'Crypto', tags: [], fair: fairTicks, days, volume: 0n }, id, nowMs);
  return {
    ...m,
    createdAt: new Date(nowMs).toISOString(),
    updatedAt: new Date(nowMs).toISOString(),
    lastTradePrice: null,
    priceHistory: [],
  };
}

/** Slug of the synthetic market with this id (see syntheticMarkets). */
export const syntheticSlug = (id: number): string => `synthetic-${id}`;

/**
 * `count` synthetic open CLOB markets with ids `firstId`…, for listing benchmarks and tests
 * (POST /__sandbox/markets/synthetic): deterministic from (firstId, count, nowMs), spread over
 * the categories, prices, deadlines and volumes; no resting orders.
 */
export function syntheticMarkets(firstId: number, count: number, nowMs: number): MarketRecord[] {
  const cats = Object.keys(CATEGORIES);
  const out: MarketRecord[] = [];
  for (let k = 0; k < count; k++) {
    const id = firstId + k;
    const slug = syntheticSlug(id);
    const spec: MarketSpec = {
      slug,
      title: `Synthetic market #${id}`,
      description: `A synthetic CLOB market (id ${id}) seeded for listing benchmarks.`,
      category: cats[id % cats.length] ?? 'Crypto',
      tags: ['synthetic'],
      fair: 50 + ((id * 37) % 900),
      days: 5 + (id % 400),
      volume: BigInt(1_000 + ((id * 7_919) % 1_000_000)),
    };
    out.push(market(spec, id, nowMs));
  }
  return out;
}

export function market(spec: MarketSpec, id: number, nowMs: number): MarketRecord {
  const iso = new Date(nowMs - (30 - (id % 20)) * 86_400_000).toISOString();
  const expiration = nowMs + spec.days * 86_400_000;
  const kind = spec.kind ?? 'clob';
  const tradable = kind === 'clob' || kind === 'child';
  const rnd = prng(spec.slug);
  const history: { t: number; price: bigint }[] = [];
  let p = spec.fair;
  for (let h = 47; h >= 0; h--) {
    p = Math.min(990, Math.max(10, p + Math.round((rnd() - 0.5) * 20)));
    history.push({ t: nowMs - h * 3_600_000, price: BigInt(h === 0 ? spec.fair : p) * 1000n });
  }
  return {
    id,
    slug: spec.slug,
    title: spec.title,
    description: spec.description,
    tradeType: kind === 'child' ? 'clob' : kind,
    marketType: kind === 'group' ? 'group' : 'single',
    status: spec.status ?? 'FUNDED',
    categories: [spec.category],
    tags: spec.tags,
    createdAt: iso,
    updatedAt: iso,
    expirationTimestamp: expiration,
    expired: spec.days < 0,
    conditionId: kind === 'group' ? null : hex32(`condition:${spec.slug}`),
    positionIds: tradable || spec.status === 'RESOLVED' ? [positionId(`yes:${spec.slug}`), positionId(`no:${spec.slug}`)] : null,
    venue:
      tradable || spec.status === 'RESOLVED'
        ? kind === 'child'
          ? { exchange: NEGRISK_EXCHANGE, adapter: NEGRISK_ADAPTER }
          : { exchange: SIMPLE_EXCHANGE, adapter: null }
        : null,
    negRiskRequestId: kind === 'child' || kind === 'group' ? hex32(`negrisk:${spec.group ?? spec.slug}`) : null,
    groupSlug: spec.group ?? null,
    winningOutcomeIndex: spec.winner ?? null,
    address: kind === 'amm' ? (`0x${sha(`amm:${spec.slug}`).toString('hex').slice(0, 40)}` as Hex) : null,
    volume: spec.volume * ONE,
    liquidity: (spec.volume * ONE) / 12n,
    openInterest: (spec.volume * ONE) / 5n,
    lastTradePrice: tradable || spec.status === 'RESOLVED' ? BigInt(spec.fair) * 1000n : null,
    priceHistory: kind === 'group' ? [] : history,
    extra: {
      collateralToken: USDC,
      creator: { name: 'Limitless', imageURI: 'https://limitless.exchange/logo.png', link: 'https://limitless.exchange' },
      metadata: { fee: true, isBannered: false, shouldMarketMake: tradable },
      settings: { minSize: '1000000', maxSpread: 0.05, dailyReward: '0', rewardsEpoch: 1, c: 3, takerDelayMs: 0 },
      automationType: 'manual',
      priorityIndex: id,
      categoryIds: [CATEGORIES[spec.category] ?? 0],
    },
  };
}
