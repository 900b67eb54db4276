// The deterministic seed: dev accounts from the public mnemonic, tokens, markets across
// categories (CLOB, a NegRisk group, AMM, resolved, expired), bob's resting orders, price
// history and feed. Same nowMs, same state.
import { createHash } from 'node:crypto';
import { formatRaw } from './orders/amounts.js';
import type { Account, ApiToken, Hex, MarketRecord, OrderRecord, Profile, SandboxState, Scope } from './types.js';

/** Public dev accounts (mnemonic `test test … junk`, m/44'/60'/0'/0/i). */
export const DEV_ACCOUNTS = [
  {
    name: 'alice',
    role: 'trader',
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    id: 1001,
    fee: 300,
    usdc: 10_000n,
    scopes: ['trading'],
  },
  {
    name: 'bob',
    role: 'market_maker',
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
    id: 1002,
    fee: 0,
    usdc: 1_000_000n,
    scopes: ['trading'],
  },
  {
    name: 'partner',
    role: 'partner',
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    key: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
    id: 1003,
    fee: 300,
    usdc: 50_000n,
    scopes: ['trading', 'account_creation', 'delegated_signing', 'withdrawal'],
  },
  // carol trades from a managed server wallet (SERVER_WALLETS): her USDC and positions live there.
  {
    name: 'carol',
    role: 'trader',
    address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    key: '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
    id: 1004,
    fee: 300,
    usdc: 5_000n,
    scopes: ['trading', 'withdrawal'],
  },
] as const;

/** Managed server wallets of seeded accounts (dev mnemonic index 7; the exchange holds the key). */
export const SERVER_WALLETS: Record<string, Hex> = { carol: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f' };
/** Their keys (public: the dev mnemonic), which sign when the sandbox runs a local chain. */
export const SERVER_WALLET_KEYS: Record<string, Hex> = { carol: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97' };

/** Dev keys for server-wallet sub-accounts created later (indexes 3…). */
export const SPARE_DEV_KEYS: { address: Hex; key: Hex }[] = [
  { address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', key: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' },
  { address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', key: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a' },
  { address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', key: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba' },
];

export const ALLOWED_SCOPES: Record<string, Scope[]> = { partner: ['trading', 'account_creation', 'delegated_signing', 'withdrawal'] };

const ONE = 1_000_000n;
const SIMPLE_EXCHANGE: Hex = '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5';
const NEGRISK_EXCHANGE: Hex = '0xe3E00BA3a9888d1DE4834269f62ac008b4BB5C47';
const NEGRISK_ADAPTER: Hex = '0x6151EF8368b6316c1aa3C68453EF083ad31E712D';
const USDC = { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6, symbol: 'USDC' };

export const CATEGORIES: Record<string, number> = { Crypto: 1, Politics: 2, Sports: 3, Economics: 4, Tech: 5 };

const sha = (s: string): Buffer => createHash('sha256').update(s).digest();
const hex32 = (s: string): Hex => `0x${sha(s).toString('hex')}`;
/** A large decimal token id, like the exchange's position ids. */
const positionId = (s: string): string => BigInt(`0x${sha(s).toString('hex')}`).toString(10);

/** Deterministic token credentials of a seeded account. */
export function seededToken(name: string): { tokenId: string; secret: string } {
  return { tokenId: Buffer.from(`sandbox-${name}`).toString('base64url'), secret: sha(`pm-sandbox-secret:${name}`).toString('base64') };
}

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

const SPECS: MarketSpec[] = [
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
function prng(seed: string): () => number {
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

function market(spec: MarketSpec, id: number, nowMs: number): MarketRecord {
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

/** The seeded accounts' legacy API keys and identity tokens (derived from their names, never stored). */
export function seededCredentials(): Pick<SandboxState, 'apiKeys' | 'identityTokens'> {
  return {
    apiKeys: DEV_ACCOUNTS.map((a) => ({ key: `lmts_sandbox_${a.name}`, profileId: a.id })),
    identityTokens: DEV_ACCOUNTS.map((a) => ({ token: `idt_sandbox_${a.name}`, profileId: a.id })),
  };
}

function emptyAccount(profileId: number, usdc: bigint): Account {
  return { profileId, usdc: usdc * ONE, lockedUsdc: 0n, positions: {} };
}

/** The seed state for `nowMs`: identical for identical input. */
export function seedState(nowMs: number): SandboxState {
  const iso = new Date(nowMs).toISOString();
  const profiles: Profile[] = DEV_ACCOUNTS.map((a) => {
    const p: Profile = {
      id: a.id,
      name: a.name,
      role: a.role,
      address: a.address,
      privateKey: a.key,
      feeRateBps: a.fee,
      displayName: a.name,
      createdAt: iso,
    };
    const sw = SERVER_WALLETS[a.name];
    if (sw) {
      p.serverWallet = true;
      p.serverWalletAddress = sw;
    }
    return p;
  });
  const tokens: ApiToken[] = DEV_ACCOUNTS.map((a) => ({
    ...seededToken(a.name),
    profileId: a.id,
    scopes: [...a.scopes],
    label: `${a.name} (seeded)`,
    createdAt: iso,
    lastUsedAt: null,
    revokedAt: null,
  }));
  const accounts: Record<string, Account> = {};
  for (const a of DEV_ACCOUNTS) accounts[String(a.id)] = emptyAccount(a.id, a.usdc);
  const markets = SPECS.map((s, i) => market(s, 101 + i, nowMs));
  const state: SandboxState = {
    version: 1,
    seededAt: iso,
    nextProfileId: 2001,
    nextSeq: 1,
    profiles,
    tokens,
    ...seededCredentials(),
    accounts,
    markets,
    orders: [],
    feed: [],
  };

  // bob quotes every open CLOB market: 3 bids below and 3 asks above the fair price.
  const bob = accounts['1002'];
  if (!bob) throw new Error('seed: bob missing');
  for (const m of markets) {
    if (m.tradeType !== 'clob' || m.status !== 'FUNDED' || m.expired || !m.positionIds || m.lastTradePrice === null) continue;
    const [yes, no] = m.positionIds;
    bob.positions[yes] = { shares: 5_000n * ONE, locked: 0n, cost: 0n, realisedPnl: 0n };
    bob.positions[no] = { shares: 5_000n * ONE, locked: 0n, cost: 0n, realisedPnl: 0n };
    const fair = m.lastTradePrice;
    for (let lvl = 1; lvl <= 3; lvl++) {
      const size = BigInt(100 * lvl) * ONE;
      for (const side of ['BUY', 'SELL'] as const) {
        const price = side === 'BUY' ? fair - BigInt(10 * lvl) * 1000n : fair + BigInt(10 * lvl) * 1000n;
        if (price <= 0n || price >= ONE) continue;
        const collateral = side === 'BUY' ? (size * price + ONE - 1n) / ONE : (size * price) / ONE;
        const seq = state.nextSeq++;
        const id = `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`;
        const makerAmount = side === 'BUY' ? collateral : size;
        const takerAmount = side === 'BUY' ? size : collateral;
        const order: OrderRecord = {
          id,
          clientOrderId: `bob-seed-${m.slug}-${side.toLowerCase()}-${lvl}`,
          marketSlug: m.slug,
          ownerId: 1002,
          tokenId: yes,
          outcome: 'YES',
          side,
          orderType: 'GTC',
          price,
          originalSize: size,
          remainingSize: size,
          makerAmount,
          takerAmount,
          postOnly: false,
          status: 'LIVE',
          settlementStatus: 'UNMATCHED',
          createdAt: iso,
          updatedAt: iso,
          seq,
          signedOrder: {
            salt: 1_700_000_000_000_000 + seq,
            maker: bob.profileId === 1002 ? DEV_ACCOUNTS[1].address : '',
            signer: DEV_ACCOUNTS[1].address,
            taker: '0x0000000000000000000000000000000000000000',
            tokenId: yes,
            makerAmount: Number(makerAmount),
            takerAmount: Number(takerAmount),
            expiration: '0',
            nonce: 0,
            feeRateBps: 0,
            side: side === 'BUY' ? 0 : 1,
            signatureType: 0,
            price: Number(price) / 1e6,
            signature: null,
          },
          makerMatches: [],
          execution: {
            matched: false,
            settlementStatus: 'UNMATCHED',
            feeRateBps: 0,
            effectiveFeeBps: 0,
            totalsRaw: { contractsGross: '0', contractsFee: '0', contractsNet: '0', usdGross: '0', usdFee: '0', usdNet: '0' },
          },
          tradeEventId: null,
          txHash: null,
        };
        state.orders.push(order);
        if (side === 'BUY') bob.lockedUsdc += collateral;
        else {
          const pos = bob.positions[yes];
          if (pos) pos.locked += size;
        }
      }
    }
    // A few past trades for the feed.
    const rnd = prng(`feed:${m.slug}`);
    for (let i = 0; i < 4; i++) {
      const contracts = BigInt(10 + Math.floor(rnd() * 90));
      const px = fair + BigInt(Math.round((rnd() - 0.5) * 20)) * 1000n;
      state.feed.push({
        marketSlug: m.slug,
        eventType: 'NEW_TRADE',
        timestamp: new Date(nowMs - (4 - i) * 1_800_000).toISOString(),
        user: { id: 1002, name: 'bob', rankName: 'Market maker', account: DEV_ACCOUNTS[1].address, points: '0' },
        data: {
          title: m.title,
          strategy: i % 2 ? 'Sell' : 'Buy',
          outcome: 'YES',
          address: DEV_ACCOUNTS[1].address,
          contracts: contracts.toString(),
          // USDC as live trades give it (shares × price, a decimal).
          tradeAmount: formatRaw(contracts * px),
          tradeAmountUSD: formatRaw(contracts * px),
          marketId: m.id,
        },
      });
    }
  }

  // alice holds a redeemable YES position on the resolved market.
  const resolved = markets.find((m) => m.slug === 'eth-5k-2025');
  const alice = accounts['1001'];
  if (resolved?.positionIds && alice)
    alice.positions[resolved.positionIds[0]] = { shares: 150n * ONE, locked: 0n, cost: 60n * ONE, realisedPnl: 0n };
  // carol holds 200 winning YES (cost 80) and 50 losing NO (cost 10) there, in her server wallet.
  const carol = accounts['1004'];
  if (resolved?.positionIds && carol) {
    carol.positions[resolved.positionIds[0]] = { shares: 200n * ONE, locked: 0n, cost: 80n * ONE, realisedPnl: 0n };
    carol.positions[resolved.positionIds[1]] = { shares: 50n * ONE, locked: 0n, cost: 10n * ONE, realisedPnl: 0n };
  }
  return state;
}
