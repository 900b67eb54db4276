// Shape checks for what the sandbox reads back from its data dir: each logged event and each
// part of a snapshot is checked field by field before it is applied, so a damaged entry is a
// clear error naming the entry and the field, never a TypeError deep in the reducer and never
// a silent default. Only the fields the reducer and the routes rely on are checked; extra
// fields are allowed (older and newer records carry a few more).
import type { SandboxState } from './types.js';
import type { LogEntry, StateEvent } from './events.js';

/** A value that does not have the expected shape; `path` names the field (orders[3].price). */
export class ShapeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
  ) {
    super(`${path || 'the entry'} should be ${expected}`);
  }
}

type Check = (v: unknown, path: string) => void;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (path: string, k: string | number): string => (typeof k === 'number' ? `${path}[${k}]` : path ? `${path}.${k}` : k);

const str: Check = (v, p) => {
  if (typeof v !== 'string') throw new ShapeError(p, 'a string');
};
const num: Check = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ShapeError(p, 'a number');
};
const int: Check = (v, p) => {
  if (!Number.isSafeInteger(v)) throw new ShapeError(p, 'an integer');
};
const big: Check = (v, p) => {
  if (typeof v !== 'bigint') throw new ShapeError(p, 'a tagged bigint ({"$bigint":"…"})');
};
const bool: Check = (v, p) => {
  if (typeof v !== 'boolean') throw new ShapeError(p, 'true or false');
};
const anyObj: Check = (v, p) => {
  if (!isObj(v)) throw new ShapeError(p, 'an object');
};
const nul =
  (c: Check): Check =>
  (v, p) => {
    if (v !== null) c(v, p);
  };
const opt =
  (c: Check): Check =>
  (v, p) => {
    if (v !== undefined) c(v, p);
  };
const oneOf =
  (...values: readonly (string | number)[]): Check =>
  (v, p) => {
    if (!values.includes(v as string | number)) throw new ShapeError(p, `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
  };
const arr =
  (c: Check): Check =>
  (v, p) => {
    if (!Array.isArray(v)) throw new ShapeError(p, 'a list');
    v.forEach((x, i) => c(x, at(p, i)));
  };
const rec =
  (c: Check): Check =>
  (v, p) => {
    if (!isObj(v)) throw new ShapeError(p, 'an object');
    for (const [k, x] of Object.entries(v)) c(x, at(p, k));
  };
const obj =
  (fields: Record<string, Check>): Check =>
  (v, p) => {
    if (!isObj(v)) throw new ShapeError(p, 'an object');
    for (const [k, c] of Object.entries(fields)) c(v[k], at(p, k));
  };

const SETTLEMENT = ['UNMATCHED', 'MATCHED', 'MINED', 'CONFIRMED', 'RETRYING', 'FAILED', 'CANCELED'] as const;

const profile = obj({
  id: int,
  name: str,
  role: oneOf('trader', 'market_maker', 'partner', 'sub_account'),
  address: str,
  privateKey: opt(str),
  feeRateBps: num,
  parentProfileId: opt(int),
  serverWallet: opt(bool),
  serverWalletAddress: opt(str),
  walletSalt: opt(str),
  displayName: str,
  createdAt: str,
});
/** A token as stored: its secret is usually left out (derived again on load). */
const token = obj({
  tokenId: str,
  secret: opt(str),
  profileId: int,
  scopes: arr(str),
  label: nul(str),
  createdAt: str,
  lastUsedAt: nul(str),
  revokedAt: nul(str),
});
const apiKey = obj({ key: str, profileId: int });
const identityToken = obj({ token: str, profileId: int });
const position = obj({ shares: big, locked: big, cost: big, realisedPnl: big });
const account = obj({ profileId: int, usdc: big, lockedUsdc: big, positions: rec(position) });
const market = obj({
  id: num,
  slug: str,
  title: str,
  tradeType: oneOf('clob', 'amm', 'group'),
  status: str,
  categories: arr(str),
  tags: arr(str),
  positionIds: nul(arr(str)),
  groupSlug: nul(str),
  winningOutcomeIndex: nul(oneOf(0, 1)),
  volume: big,
  liquidity: big,
  openInterest: big,
  lastTradePrice: nul(big),
  priceHistory: arr(obj({ t: num, price: big })),
});
const orderTrade = obj({
  id: str,
  role: oneOf('taker', 'maker'),
  tradeEventId: str,
  takerOrderId: str,
  matchedSize: str,
  price: str,
  settlementStatus: oneOf(...SETTLEMENT),
  txHash: nul(str),
  createdAt: str,
});
const order = obj({
  id: str,
  clientOrderId: nul(str),
  marketSlug: str,
  ownerId: int,
  tokenId: str,
  outcome: oneOf('YES', 'NO'),
  side: oneOf('BUY', 'SELL'),
  orderType: oneOf('GTC', 'FOK', 'FAK'),
  price: nul(big),
  originalSize: big,
  remainingSize: big,
  makerAmount: big,
  takerAmount: big,
  postOnly: bool,
  status: oneOf('LIVE', 'MATCHED', 'CANCELED', 'UNMATCHED'),
  settlementStatus: oneOf(...SETTLEMENT),
  createdAt: str,
  updatedAt: str,
  seq: int,
  signedOrder: anyObj,
  makerMatches: arr(anyObj),
  execution: anyObj,
  tradeEventId: nul(str),
  txHash: nul(str),
  trades: opt(arr(orderTrade)),
  orderHash: opt(str),
});
const ledgerEntry = obj({
  kind: oneOf('deposit', 'withdrawal', 'grant', 'trade', 'redemption'),
  at: str,
  usdc: big,
  shares: opt(big),
  fee: opt(big),
  cost: opt(big),
});
const allowanceTarget = obj({
  type: oneOf('USDC_ALLOWANCE', 'CTF_APPROVAL'),
  label: str,
  status: oneOf('confirmed', 'missing', 'submitted', 'failed'),
});
const withdrawalAddress = obj({ id: str, profileId: int, destinationAddress: str, label: str, createdAt: str, deletedAt: nul(str) });
const fill = obj({
  makerOrderId: str,
  kind: oneOf('direct', 'mint', 'merge'),
  size: big,
  makerPrice: big,
  takerPrice: big,
  makerUsd: big,
  takerUsd: big,
  matchId: str,
});
const serverKeyValue: Check = (v, p) => {
  // Older snapshots kept the key in the state (moved to server.key on load).
  if (v !== null && (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v))) throw new ShapeError(p, 'null or a 64-digit hex key');
};
const tokenRecord = obj({ tokenId: str, profileId: int, scopes: arr(str), label: nul(str), createdAt: str });

const replayProgress = obj({ file: str, applied: int, recordedTime: num, passes: int, done: bool });

/** Every event type and its shape: the loader reads exactly these (one entry per StateEvent type). */
const EVENTS: { [K in StateEvent['type']]: Check } = {
  seed: obj({ at: num }),
  reset: obj({ at: num }),
  'order.placed': obj({
    at: num,
    order,
    fills: arr(fill),
    stpCanceled: arr(str),
    totals: obj({ contracts: big, usdGross: big, usdFee: big, usdNet: big }),
    feed: nul(anyObj),
  }),
  'order.cancelled': obj({ at: num, orderId: str }),
  'market.created': obj({ at: num, market }),
  'markets.synthetic': obj({ at: num, firstId: int, count: int }),
  'profile.created': obj({ at: num, profile }),
  'token.derived': obj({ at: num, token: tokenRecord }),
  'token.revoked': obj({ at: num, tokenId: str }),
  allowances: obj({ at: num, profileId: int, targets: arr(allowanceTarget) }),
  settlement: obj({ at: num, tradeEventId: str, takerOrderId: str, makerOrderIds: arr(str), to: oneOf('MINED', 'CONFIRMED'), txHash: str }),
  'funds.deposited': obj({ at: num, profileId: int, amount: big, txHash: str }),
  'funds.withdrawn': obj({ at: num, profileId: int, amount: big, token: str, destination: str, txHash: str }),
  'market.resolved': obj({ at: num, slug: str, winningOutcomeIndex: oneOf(0, 1), payoutPosted: bool, txHash: str, canceled: arr(str) }),
  'position.redeemed': obj({
    at: num,
    profileId: int,
    conditionId: str,
    payouts: arr(obj({ tokenId: str, shares: big, usdc: big })),
    txHash: str,
    onChain: opt(bool),
  }),
  'replay.progress': obj({ at: num, progress: replayProgress }),
  'allowlist.added': obj({ entry: withdrawalAddress }),
  'allowlist.removed': obj({ id: str, at: str }),
};

/** Every event type the log holds (and the loader reads). */
export const EVENT_TYPES = Object.keys(EVENTS) as StateEvent['type'][];

/**
 * Types an older sandbox wrote: tokens, profiles and keys as whole records found by diffing the
 * state (put/del/set), and the simulator's deposits. They are refused, not guessed at.
 */
const LEGACY_TYPES = new Set(['put', 'del', 'set', 'deposit']);

/** A log entry of a type an older sandbox wrote (LEGACY_TYPES). */
export class LegacyEventError extends ShapeError {
  constructor(readonly type: string) {
    super('type', `an event type this version reads, not ${JSON.stringify(type)}`);
  }
}

/** Checks one decoded log line; returns it typed. Throws ShapeError naming the field. */
export function checkLogEntry(v: unknown): LogEntry {
  if (!isObj(v)) throw new ShapeError('', 'an object');
  if (!Number.isSafeInteger(v['seq']) || (v['seq'] as number) < 1) throw new ShapeError('seq', 'a positive integer');
  const type = v['type'];
  if (typeof type !== 'string') throw new ShapeError('type', 'a string');
  if (LEGACY_TYPES.has(type)) throw new LegacyEventError(type);
  const check = Object.hasOwn(EVENTS, type) ? EVENTS[type as StateEvent['type']] : undefined;
  if (!check) throw new ShapeError('type', `a known event type, not ${JSON.stringify(type)}`);
  check(v, '');
  return v as unknown as LogEntry;
}

/** The snapshot's state part (orders, feed and ledger are checked with it once put back). */
export function checkState(v: unknown): SandboxState {
  obj({
    version: oneOf(1),
    seededAt: str,
    nextProfileId: int,
    nextSeq: int,
    profiles: arr(profile),
    tokens: arr(token),
    apiKeys: arr(apiKey),
    identityTokens: arr(identityToken),
    accounts: opt(rec(account)), // older snapshots: the projection, rebuilt from the ledger on load
    markets: arr(market),
    orders: arr(order),
    feed: arr(anyObj),
    feesCollected: opt(str),
    serverKey: opt(serverKeyValue),
    ledger: opt(rec(arr(ledgerEntry))),
    allowances: opt(rec(arr(allowanceTarget))),
    withdrawalAddresses: opt(arr(withdrawalAddress)),
    replay: opt(replayProgress),
  })(v, '');
  return v as SandboxState;
}
