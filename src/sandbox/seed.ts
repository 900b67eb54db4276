// The deterministic seed: dev accounts from the public mnemonic, tokens, markets across
// categories (CLOB, a NegRisk group, AMM, resolved, expired), bob's resting orders, price
// history and feed. Same nowMs, same state.
import { formatRaw } from './orders/amounts.js';
import { market, prng, sha, SPECS } from './seedmarkets.js';
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

/** Deterministic token credentials of a seeded account. */
export function seededToken(name: string): { tokenId: string; secret: string } {
  return { tokenId: Buffer.from(`sandbox-${name}`).toString('base64url'), secret: sha(`pm-sandbox-secret:${name}`).toString('base64') };
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

/** The seeded profiles (private keys from the public dev mnemonic). */
function seedProfiles(iso: string): Profile[] {
  return DEV_ACCOUNTS.map((a) => {
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
}

/** The seeded accounts' API tokens (deterministic secrets). */
function seedTokens(iso: string): ApiToken[] {
  return DEV_ACCOUNTS.map((a) => ({
    ...seededToken(a.name),
    profileId: a.id,
    scopes: [...a.scopes],
    label: `${a.name} (seeded)`,
    createdAt: iso,
    lastUsedAt: null,
    revokedAt: null,
  }));
}

/** bob's quotes in one market: 3 bids below and 3 asks above the fair price, resting, their reservations held. */
function bobQuotes(state: SandboxState, bob: Account, m: MarketRecord, yes: string, fair: bigint, iso: string): void {
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
}

/** A few past trades of one market for the feed. */
function seedFeed(state: SandboxState, m: MarketRecord, fair: bigint, nowMs: number): void {
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

/** alice and carol hold positions on the resolved market. */
function seedPositions(markets: readonly MarketRecord[], accounts: Record<string, Account>): void {
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
}

/** The seed state for `nowMs`: identical for identical input. */
export function seedState(nowMs: number): SandboxState {
  const iso = new Date(nowMs).toISOString();
  const accounts: Record<string, Account> = {};
  for (const a of DEV_ACCOUNTS) accounts[String(a.id)] = emptyAccount(a.id, a.usdc);
  const markets = SPECS.map((s, i) => market(s, 101 + i, nowMs));
  const state: SandboxState = {
    version: 1,
    seededAt: iso,
    nextProfileId: 2001,
    nextSeq: 1,
    profiles: seedProfiles(iso),
    tokens: seedTokens(iso),
    ...seededCredentials(),
    accounts,
    markets,
    orders: [],
    feed: [],
  };
  // bob quotes every open CLOB market, and holds 5,000 YES and NO of each.
  const bob = accounts['1002'];
  if (!bob) throw new Error('seed: bob missing');
  for (const m of markets) {
    if (m.tradeType !== 'clob' || m.status !== 'FUNDED' || m.expired || !m.positionIds || m.lastTradePrice === null) continue;
    const [yes, no] = m.positionIds;
    bob.positions[yes] = { shares: 5_000n * ONE, locked: 0n, cost: 0n, realisedPnl: 0n };
    bob.positions[no] = { shares: 5_000n * ONE, locked: 0n, cost: 0n, realisedPnl: 0n };
    bobQuotes(state, bob, m, yes, m.lastTradePrice, iso);
    seedFeed(state, m, m.lastTradePrice, nowMs);
  }
  seedPositions(markets, accounts);
  return state;
}
