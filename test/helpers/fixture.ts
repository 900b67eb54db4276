// A small, self-contained trading state for engine tests and matching benches: three dev
// accounts, a server-wallet sub-account and a few markets. Not the sandbox seed (that is
// src/sandbox/seed.ts); this one is deliberately minimal so tests can compute numbers by hand.
import { openLedgers } from '../../src/sandbox/ledger.js';
import type { Account, Hex, MarketRecord, Profile, SandboxState } from '../../src/sandbox/types.js';

export const FIXTURE_EXCHANGE: Hex = '0x05c748E2f4DcDe0ec9Fa8DDc40DE6b867f923fa5';
const FIXTURE_YES = '19633204485790857949828516737993423758628930235371629943999544859324645414627';
const FIXTURE_NO = '72018851405387006316458327460738766454328962402236102186637946226131733914219';

/** Public dev-mnemonic accounts (test test … junk), indexes 0–3. */
export const DEV = {
  alice: {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Hex,
    key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as Hex,
  },
  bob: {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Hex,
    key: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as Hex,
  },
  partner: {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as Hex,
    key: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' as Hex,
  },
  sub: {
    address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Hex,
    key: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' as Hex,
  },
} as const;

export const IDS = { alice: 1, bob: 2, partner: 3, sub: 4 } as const;

const T0 = '2026-01-01T00:00:00.000Z';

function profile(id: number, name: string, role: Profile['role'], address: Hex, feeRateBps: number, extra: Partial<Profile> = {}): Profile {
  return { id, name, role, address, feeRateBps, displayName: name, createdAt: T0, ...extra };
}

function market(id: number, slug: string, overrides: Partial<MarketRecord> = {}): MarketRecord {
  return {
    id,
    slug,
    title: `Market ${slug}`,
    description: '',
    tradeType: 'clob',
    marketType: 'single',
    status: 'FUNDED',
    categories: [],
    tags: [],
    createdAt: T0,
    updatedAt: T0,
    expirationTimestamp: Date.parse('2100-01-01T00:00:00Z'),
    expired: false,
    conditionId: `0x${id.toString(16).padStart(64, '0')}`,
    positionIds: [`${FIXTURE_YES.slice(0, -2)}${String(id).padStart(2, '0')}`, `${FIXTURE_NO.slice(0, -2)}${String(id).padStart(2, '0')}`],
    venue: { exchange: FIXTURE_EXCHANGE, adapter: null },
    negRiskRequestId: null,
    groupSlug: null,
    winningOutcomeIndex: null,
    address: null,
    volume: 0n,
    liquidity: 0n,
    openInterest: 0n,
    lastTradePrice: null,
    priceHistory: [],
    extra: {},
    ...overrides,
  };
}

function account(profileId: number, usdc: bigint): Account {
  return { profileId, usdc, lockedUsdc: 0n, positions: {} };
}

/**
 * A fresh state: alice 1,000 USDC (fee 300 bps); bob 1,000 USDC plus 500 YES and 500 NO of
 * `btc-100k` at cost 0.50 each (fee 0); partner; a server-wallet sub-account of partner with
 * 100 USDC. Markets: `btc-100k` (open), `eth-10k` (open), `old-expired` (past deadline),
 * `done-resolved` (resolved), `amm-one` (AMM).
 */
export function tradingFixture(): SandboxState {
  const btc = market(1, 'btc-100k');
  const state: SandboxState = {
    version: 1,
    seededAt: T0,
    nextProfileId: 5,
    nextSeq: 1,
    profiles: [
      profile(IDS.alice, 'alice', 'trader', DEV.alice.address, 300),
      profile(IDS.bob, 'bob', 'market_maker', DEV.bob.address, 0),
      profile(IDS.partner, 'partner', 'partner', DEV.partner.address, 300),
      profile(IDS.sub, 'sub-1', 'sub_account', DEV.sub.address, 300, {
        parentProfileId: IDS.partner,
        serverWallet: true,
        privateKey: DEV.sub.key,
      }),
    ],
    tokens: [],
    apiKeys: [],
    identityTokens: [],
    accounts: {
      [IDS.alice]: account(IDS.alice, 1_000_000_000n),
      [IDS.bob]: account(IDS.bob, 1_000_000_000n),
      [IDS.partner]: account(IDS.partner, 0n),
      [IDS.sub]: account(IDS.sub, 100_000_000n),
    },
    markets: [
      btc,
      market(2, 'eth-10k'),
      market(3, 'old-expired', { expirationTimestamp: Date.parse('2020-01-01T00:00:00Z'), expired: true }),
      market(4, 'done-resolved', { status: 'RESOLVED', winningOutcomeIndex: 0 }),
      market(5, 'amm-one', { tradeType: 'amm', positionIds: null, venue: null, address: '0x0000000000000000000000000000000000000a11' }),
    ],
    orders: [],
    feed: [],
  };
  const bob = state.accounts[IDS.bob];
  if (bob && btc.positionIds) {
    bob.positions[btc.positionIds[0]] = { shares: 500_000_000n, locked: 0n, cost: 250_000_000n, realisedPnl: 0n };
    bob.positions[btc.positionIds[1]] = { shares: 500_000_000n, locked: 0n, cost: 250_000_000n, realisedPnl: 0n };
  }
  // The balances above become the opening entries of each ledger, and the accounts its projection.
  openLedgers(state, T0);
  return state;
}
