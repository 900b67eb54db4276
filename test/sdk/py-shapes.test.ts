// Conformance of shapes with the official Python SDK (`limitless-sdk`): every response model it
// parses (and HistoryResponse, which it exports for parsing GET /portfolio/history) holds against
// the sandbox's real answers over HTTP, with pydantic v2's lax rules (str takes only a string; int
// takes an integer, an integer string or a bool; Optional takes null; a field without a default
// must be present; extra keys are ignored). No Python runs here: PyPI is out of reach in CI, so the
// models are written down as data below, read from
//   limitless-labs-group/limitless-sdk @ eb8e70ad7523779620127474bcd0a8a43637cc3e (v1.0.7, 2026-04-21),
//   limitless_sdk/types/{markets,market_pages,orders,delegated_orders,api_tokens,partner_accounts,
//   server_wallets,portfolio,user}.py, and where each is parsed: limitless_sdk/**/service.py, fetcher.py.
// Left out on purpose: the request models (…Input, …Params, …Dto, OrderArgs, HMACCredentials…);
// UserData (built by the SDK from a profile, never parsed); MarketPrice and MarketsResponse
// (exported, but no SDK call parses them and no route the SDK calls answers in their shape); the
// websocket/types.py TypedDicts (never validated at run time). Position and PortfolioResponse are
// exported too, yet get_positions returns GET /portfolio/positions raw: they describe a shape the
// newer TS SDK does not ({positions: [{marketSlug, tokenId, balance}]} against {clob, amm, group}),
// so they are a known difference below (NOT_PARSED), proven real against the sandbox's answer.
import { describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { hmac, type Json, send, seeded, signedOrderBody, unpaced } from '../helpers/http.js';
import { useSandbox } from '../helpers/sandbox.js';

/**
 * A field's type: str, int, float, bool, any, dict, dict<T>, list<T>, lit:a,b (a Literal), a
 * model's name, or alternatives joined by | (null for Optional). intlike and numlike are the
 * SDK's own before-validators on orders (_parse_integer_like, _parse_number_like). A key ending
 * in ? has a default in the model, so it may be absent.
 */
type Fields = Record<string, string>;

const MODELS: Record<string, Fields> = {
  // types/markets.py
  CollateralToken: { address: 'str', decimals: 'int', symbol: 'str' },
  MarketCreator: { name: 'str', 'imageURI?': 'str|null', 'link?': 'str|null' },
  MarketMetadata: {
    fee: 'bool',
    'isBannered?': 'bool|null',
    'isPolyArbitrage?': 'bool|null',
    'shouldMarketMake?': 'bool|null',
    'openPrice?': 'str|null',
  },
  MarketSettings: {
    minSize: 'str',
    maxSpread: 'float',
    dailyReward: 'str',
    rewardsEpoch: 'str|int|float',
    c: 'str|int|float',
    'rebateRate?': 'float|null',
  },
  TradePrices: { buy: 'dict<list<float>>', sell: 'dict<list<float>>' },
  PriceOracleMetadata: { ticker: 'str', assetType: 'str', pythAddress: 'str', symbol: 'str', name: 'str', logo: 'str' },
  OrderbookEntry: { price: 'float', size: 'int', side: 'str' },
  OrderBook: {
    bids: 'list<OrderbookEntry>',
    asks: 'list<OrderbookEntry>',
    tokenId: 'str',
    adjustedMidpoint: 'float',
    maxSpread: 'str',
    minSize: 'str',
    lastTradePrice: 'float',
  },
  MarketOutcome: { id: 'int', title: 'str', tokenId: 'str', 'price?': 'float|null' },
  Venue: { exchange: 'str', 'adapter?': 'str|null' },
  MarketTokens: { yes: 'str', no: 'str' },
  Market: {
    id: 'int',
    slug: 'str',
    title: 'str',
    'proxyTitle?': 'str|null',
    'description?': 'str|null',
    collateralToken: 'CollateralToken',
    expirationDate: 'str',
    expirationTimestamp: 'int',
    'expired?': 'bool|null',
    createdAt: 'str',
    updatedAt: 'str',
    categories: 'list<str>',
    status: 'str',
    creator: 'MarketCreator',
    tags: 'list<str>',
    tradeType: 'str',
    marketType: 'str',
    priorityIndex: 'int',
    metadata: 'MarketMetadata',
    'volume?': 'str|null',
    'volumeFormatted?': 'str|null',
    'openInterest?': 'str|null',
    'openInterestFormatted?': 'str|null',
    'liquidity?': 'str|null',
    'liquidityFormatted?': 'str|null',
    'conditionId?': 'str|null',
    'negRiskRequestId?': 'str|null',
    'tokens?': 'MarketTokens|null',
    'prices?': 'list<float>|null',
    'tradePrices?': 'TradePrices|null',
    'isRewardable?': 'bool|null',
    'settings?': 'MarketSettings|null',
    'venue?': 'Venue|null',
    'logo?': 'str|null',
    'imageUrl?': 'str|null',
    'priceOracleMetadata?': 'PriceOracleMetadata|null',
    'orderInGroup?': 'int|null',
    'winningOutcomeIndex?': 'int|null',
    'automationType?': 'str|null',
    'trends?': 'any',
    'positionIds?': 'list<str>|null',
    'outcomeTokens?': 'list<str>|null',
    'ogImageURI?': 'str|null',
    'negRiskMarketId?': 'str|null',
    'markets?': 'list<Market>|null',
    'dailyReward?': 'str|null',
    'outcomes?': 'list<MarketOutcome>|null',
    'type?': 'str|null',
    'address?': 'str|null',
    'resolutionDate?': 'str|null',
  },
  ActiveMarketsResponse: { data: 'list<Market>', totalMarketsCount: 'int' },
  // types/market_pages.py
  NavigationNode: { id: 'str', name: 'str', slug: 'str', path: 'str', 'icon?': 'str|null', 'children?': 'list<NavigationNode>' },
  FilterGroupOption: { label: 'str', value: 'str', 'metadata?': 'dict|null' },
  FilterGroup: {
    'name?': 'str|null',
    'slug?': 'str|null',
    'allowMultiple?': 'bool|null',
    'presentation?': 'str|null',
    'options?': 'list<FilterGroupOption>|null',
    'source?': 'dict|null',
  },
  BreadcrumbItem: { name: 'str', slug: 'str', path: 'str' },
  MarketPage: {
    id: 'str',
    name: 'str',
    slug: 'str',
    fullPath: 'str',
    'description?': 'str|null',
    baseFilter: 'dict',
    'filterGroups?': 'list<FilterGroup>',
    'metadata?': 'dict',
    'breadcrumb?': 'list<BreadcrumbItem>',
  },
  PropertyOption: {
    id: 'str',
    propertyKeyId: 'str',
    value: 'str',
    label: 'str',
    sortOrder: 'int',
    'parentOptionId?': 'str|null',
    'metadata?': 'dict',
    createdAt: 'str',
    updatedAt: 'str',
  },
  PropertyKey: {
    id: 'str',
    name: 'str',
    slug: 'str',
    type: 'lit:select,multi-select',
    'metadata?': 'dict',
    isSystem: 'bool',
    'options?': 'list<PropertyOption>|null',
    createdAt: 'str',
    updatedAt: 'str',
  },
  OffsetPagination: { page: 'int', limit: 'int', total: 'int', totalPages: 'int' },
  CursorPagination: { nextCursor: 'str|null' },
  // market_pages/fetcher.py get_markets: `data` items are Market, then one of these two by key.
  MarketPageMarketsOffsetResponse: { data: 'list<Market>', pagination: 'OffsetPagination' },
  MarketPageMarketsCursorResponse: { data: 'list<Market>', cursor: 'CursorPagination' },
  // types/orders.py (SignedOrder extends UnsignedOrder)
  SignedOrder: {
    salt: 'intlike',
    maker: 'str',
    signer: 'str',
    taker: 'str',
    tokenId: 'str',
    makerAmount: 'intlike',
    takerAmount: 'intlike',
    'expiration?': 'int|null',
    nonce: 'int',
    feeRateBps: 'int',
    side: 'int',
    signatureType: 'int',
    'price?': 'numlike',
    signature: 'str',
    'id?': 'str|null',
    'status?': 'str|null',
    'size?': 'float|null',
    'createdAt?': 'str|null',
    'updatedAt?': 'str|null',
  },
  MakerMatch: { id: 'str', 'createdAt?': 'str|null', 'matchedSize?': 'str|null', 'orderId?': 'str|null' },
  OrderResponse: { order: 'SignedOrder', 'makerMatches?': 'list<MakerMatch>|null' },
  // types/delegated_orders.py (also what api_tokens/service.py revoke_token reads: response["message"])
  CancelResponse: { message: 'str' },
  // types/api_tokens.py
  ApiTokenProfile: { id: 'int', account: 'str' },
  DeriveApiTokenResponse: {
    apiKey: 'str',
    secret: 'str',
    tokenId: 'str',
    createdAt: 'str',
    scopes: 'list<str>',
    profile: 'ApiTokenProfile',
  },
  ApiToken: { tokenId: 'str', 'label?': 'str|null', scopes: 'list<str>', createdAt: 'str', 'lastUsedAt?': 'str|null' },
  PartnerCapabilities: { partnerProfileId: 'int', tokenManagementEnabled: 'bool', allowedScopes: 'list<str>' },
  // types/partner_accounts.py
  PartnerAccountResponse: { profileId: 'int', account: 'str' },
  // types/server_wallets.py (both extend ServerWalletTransactionEnvelope: hash … walletAddress)
  RedeemServerWalletResponse: {
    hash: 'str',
    userOperationHash: 'str',
    transactionId: 'str',
    walletAddress: 'str',
    conditionId: 'str',
    marketId: 'int',
  },
  WithdrawServerWalletResponse: {
    hash: 'str',
    userOperationHash: 'str',
    transactionId: 'str',
    walletAddress: 'str',
    token: 'str',
    destination: 'str',
    amount: 'str',
  },
  // types/portfolio.py (cursor-based since 1.0.7)
  HistoryMarketCollateral: { symbol: 'str', id: 'str', decimals: 'int' },
  HistoryMarket: {
    'closed?': 'bool',
    'collateral?': 'HistoryMarketCollateral|null',
    'group?': 'any',
    'conditionId?': 'str|null',
    'funding?': 'str|null',
    'id?': 'str',
    'slug?': 'str',
    'title?': 'str',
    'expirationDate?': 'str|null',
  },
  HistoryEntry: {
    'blockTimestamp?': 'int|null',
    'collateralAmount?': 'str|null',
    'market?': 'HistoryMarket|null',
    'outcomeIndex?': 'int|null',
    'outcomeTokenAmount?': 'str|null',
    'outcomeTokenAmounts?': 'list<str>|null',
    'outcomeTokenPrice?': 'any',
    'strategy?': 'str|null',
    'transactionHash?': 'str|null',
  },
  HistoryResponse: { 'data?': 'list<HistoryEntry>', 'nextCursor?': 'str|null' },
  // Exported, never parsed by the SDK (get_positions returns the answer raw): see NOT_PARSED.
  Position: {
    marketSlug: 'str',
    tokenId: 'str',
    balance: 'str',
    'marketTitle?': 'str|null',
    'outcomeTitle?': 'str|null',
    'price?': 'float|null',
    'value?': 'str|null',
  },
  PortfolioResponse: { positions: 'list<Position>', 'totalValue?': 'str|null' },
  // types/user.py: UserProfile is exported for GET /profiles/{address}; orders/client.py reads
  // profile["id"], profile["account"] and profile.get("rank", {}).get("feeRateBps", 300).
  UserRank: { id: 'int', name: 'str', feeRateBps: 'int' },
  ReferralData: { createdAt: 'str', id: 'int', referredProfileId: 'int', 'pfpUrl?': 'str|null', displayName: 'str' },
  UserProfile: {
    id: 'int',
    account: 'str',
    client: 'str',
    'rank?': 'UserRank|null',
    'createdAt?': 'str|null',
    'username?': 'str|null',
    'displayName?': 'str|null',
    'pfpUrl?': 'str|null',
    'bio?': 'str|null',
    'socialUrl?': 'str|null',
    'tradeWalletOption?': 'str|null',
    'embeddedAccount?': 'str|null',
    'points?': 'float|null',
    'accumulativePoints?': 'float|null',
    'enrolledInPointsProgram?': 'bool|null',
    'leaderboardPosition?': 'int|null',
    'isTop100?': 'bool|null',
    'isCaptain?': 'bool|null',
    'referralData?': 'list<ReferralData>|null',
    'referredUsersCount?': 'int|null',
  },
};

/**
 * Where the two official SDKs disagree, the sandbox follows the newer one: the TS SDK 1.1.0
 * (npm, published 2026-09-02) against this Python SDK 1.0.7 (2026-04-21). Each entry replaces a
 * Python field type above; a test below proves each difference is real (the Python type refuses
 * an answer the TS type allows), so a fixed Python SDK or a changed sandbox shows up.
 */
const FOLLOWING_TS: Record<string, string> = {
  // TS OrderBook.lastTradePrice: number | null; before a market's first trade the sandbox sends null.
  'OrderBook.lastTradePrice': 'float|null',
};

/**
 * Models the Python SDK exports for a response but parses nowhere, whose shape the newer TS SDK
 * contradicts: the sandbox answers as the TS SDK types it (test/sdk/shapes.test.ts), so these
 * refuse the real answer. A test below proves it, so a fixed Python SDK shows up.
 */
const NOT_PARSED: Record<string, string> = {
  // TS PortfolioPositionsResponse {amm, clob, group, …}; Python's get_positions returns it raw.
  PortfolioResponse: 'GET /portfolio/positions',
};

const SAFE = 2 ** 53 - 1;
const BOOL_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no', '1', 'on', 't', 'true', 'y', 'yes']);

/** Splits `a|list<b|c>|d` at its top-level bars. */
function alternatives(t: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '<') depth++;
    else if (t[i] === '>') depth--;
    else if (t[i] === '|' && depth === 0) {
      out.push(t.slice(from, i));
      from = i + 1;
    }
  }
  out.push(t.slice(from));
  return out;
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => kind(v) === 'object';

/** Problems of `v` against the type `t` at `at` (none when pydantic would accept it). */
function against(t: string, v: unknown, at: string, asPython: boolean): string[] {
  const alts = alternatives(t);
  if (alts.length > 1) {
    const each = alts.map((a) => against(a, v, at, asPython));
    if (each.some((p) => p.length === 0)) return [];
    // Optional[X] given a non-null value: X's own problems say more than "expected X|null".
    const nonNull = alts.filter((a) => a !== 'null');
    if (nonNull.length === 1 && v !== null) return against(nonNull[0] ?? '', v, at, asPython);
    return [`${at}: expected ${t}, got ${kind(v)} ${JSON.stringify(v)?.slice(0, 60)}`];
  }
  const bad = [`${at}: expected ${t}, got ${kind(v)} ${JSON.stringify(v)?.slice(0, 60)}`];
  const list = /^list<(.+)>$/.exec(t);
  if (list?.[1]) return Array.isArray(v) ? v.flatMap((x, i) => against(list[1] ?? '', x, `${at}[${i}]`, asPython)) : bad;
  const dict = /^dict<(.+)>$/.exec(t);
  if (dict?.[1]) return isObject(v) ? Object.entries(v).flatMap(([k, x]) => against(dict[1] ?? '', x, `${at}.${k}`, asPython)) : bad;
  if (t.startsWith('lit:')) return t.slice(4).split(',').includes(String(v)) && typeof v === 'string' ? [] : bad;
  const fields = MODELS[t];
  if (fields) return isObject(v) ? problems(t, v, at, asPython) : bad;
  const ok: Record<string, (x: unknown) => boolean> = {
    any: () => true,
    null: (x) => x === null,
    dict: isObject,
    str: (x) => typeof x === 'string',
    int: (x) =>
      (typeof x === 'number' && Number.isInteger(x)) || typeof x === 'boolean' || (typeof x === 'string' && /^\s*[+-]?\d+\s*$/.test(x)),
    float: (x) =>
      (typeof x === 'number' && Number.isFinite(x)) ||
      typeof x === 'boolean' ||
      (typeof x === 'string' && Number.isFinite(Number(x.trim())) && x.trim() !== ''),
    bool: (x) => typeof x === 'boolean' || x === 0 || x === 1 || (typeof x === 'string' && BOOL_STRINGS.has(x.trim().toLowerCase())),
    intlike: (x) =>
      (typeof x === 'number' && Number.isInteger(x) && Math.abs(x) <= SAFE) || (typeof x === 'string' && /^[+-]?\d+$/.test(x.trim())),
    numlike: (x) =>
      x === null ||
      (typeof x === 'number' && Number.isFinite(x)) ||
      (typeof x === 'string' &&
        x.trim() !== '' &&
        Number.isFinite(Number(x.trim())) &&
        !(/^[+-]?\d+$/.test(x.trim()) && Math.abs(Number(x)) > SAFE)),
  };
  const test = ok[t];
  if (!test) throw new Error(`unknown type ${t} at ${at}`);
  return test(v) ? [] : bad;
}

/**
 * Problems of `value` as the model `name`: each missing required field and each value of a wrong
 * type; with `asPython` false the known differences (FOLLOWING_TS) take the TS SDK's side.
 */
function problems(name: string, value: unknown, at = name, asPython = false): string[] {
  const fields = MODELS[name];
  if (!fields) throw new Error(`no model ${name}`);
  if (!isObject(value)) return [`${at}: expected ${name} (an object), got ${kind(value)}`];
  const out: string[] = [];
  for (const [spec, type] of Object.entries(fields)) {
    const optional = spec.endsWith('?');
    const key = optional ? spec.slice(0, -1) : spec;
    if (!Object.hasOwn(value, key)) {
      if (!optional) out.push(`${at}.${key}: missing (required)`);
      continue;
    }
    out.push(...against((!asPython && FOLLOWING_TS[`${name}.${key}`]) || type, value[key], `${at}.${key}`, asPython));
  }
  return out;
}

const sb = useSandbox();

/** One request as the partner (every scope) or another seeded account; the answer's JSON. */
async function api(method: string, target: string, body?: unknown, who = 'partner'): Promise<unknown> {
  const a = seeded(sb.current, who);
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const r = await send(sb.current, method, target, hmac(a, method, target, raw ?? ''), raw);
  if (r.status >= 300) throw new Error(`${method} ${target}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

async function publicGet(target: string): Promise<unknown> {
  const r = await send(sb.current, 'GET', target, {});
  if (r.status !== 200) throw new Error(`GET ${target}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

async function identity(method: string, target: string, body?: unknown): Promise<unknown> {
  const raw = body === undefined ? undefined : JSON.stringify(body);
  const r = await send(sb.current, method, target, { identity: `Bearer ${seeded(sb.current, 'partner').identityToken}` }, raw);
  if (r.status >= 300) throw new Error(`${method} ${target}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/** Every problem of each (model, value) pair, so a failure lists every gap at once. */
function gaps(checks: [string, unknown][]): string[] {
  return checks.flatMap(([name, v]) => problems(name, v));
}

/** A funded server-wallet sub-account of the partner with its allowances confirmed (create → retry → poll). */
async function serverWalletChild(s: SandboxHandle): Promise<{ profileId: number; account: string }> {
  await send(s, 'POST', '/__sandbox/allowances', {}, JSON.stringify({ confirmAfterMs: 20 }));
  const child = (await api('POST', '/profiles/partner-accounts', { displayName: 'py bot', createServerWallet: true })) as {
    profileId: number;
    account: string;
  };
  await send(s, 'POST', '/__sandbox/fund', {}, JSON.stringify({ profileId: child.profileId, amount: '100000000' }));
  const path = `/profiles/partner-accounts/${child.profileId}/allowances`;
  for (const t0 = Date.now(); Date.now() - t0 < 10_000; ) {
    const a = (await api('GET', path)) as { ready: boolean; targets: { status: string; retryable?: boolean }[] };
    if (a.ready) return child;
    if (a.targets.some((t) => t.status === 'missing' || (t.status === 'failed' && t.retryable))) await api('POST', `${path}/retry`, {});
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('allowances never became ready');
}

/** The unsigned order body of the Python SDK's DelegatedOrderService.create_order (a GTC BUY of `size` shares). */
function delegatedBody(slug: string, tokenId: string, child: number, price: number, size: number): Json {
  const shares = Math.round(size * 1e6);
  return {
    order: {
      salt: Date.now() * 1000 + Math.floor(Math.random() * 1000),
      maker: '0x0000000000000000000000000000000000000000',
      signer: '0x0000000000000000000000000000000000000000',
      taker: '0x0000000000000000000000000000000000000000',
      tokenId,
      makerAmount: Math.round(shares * price),
      takerAmount: shares,
      expiration: '0',
      nonce: 0,
      feeRateBps: 300,
      side: 0,
      signatureType: 0,
      price,
    },
    orderType: 'GTC',
    marketSlug: slug,
    ownerId: child,
    onBehalfOf: child,
  };
}

describe("responses hold the Python SDK's pydantic models", () => {
  it('reads the models (guards the checker itself)', () => {
    expect(problems('Venue', { exchange: '0xabc' })).toEqual([]);
    expect(problems('Venue', { adapter: null })).toEqual(['Venue.exchange: missing (required)']);
    expect(problems('HistoryMarket', { id: 101 })).toEqual(['HistoryMarket.id: expected str, got number 101']);
    expect(problems('OrderbookEntry', { price: '0.5', size: '10', side: 'BUY' })).toEqual([]);
    expect(problems('OrderbookEntry', { price: 0.5, size: 1.5, side: 'BUY' })).toHaveLength(1);
    expect(problems('CursorPagination', {})).toEqual(['CursorPagination.nextCursor: missing (required)']);
    expect(problems('SignedOrder', { ...problemsFreeOrder(), salt: true })).toEqual([
      'SignedOrder.salt: expected intlike, got boolean true',
    ]);
    expect(problems('PropertyKey', { ...propertyKey(), type: 'other' })).toHaveLength(1);
  });

  it('each known difference is real: the Python model refuses the answer the newer TS SDK allows', async () => {
    await send(sb.current, 'POST', '/__sandbox/markets', {}, JSON.stringify({ slug: 'py-untraded', title: 'Untraded' }));
    const book = await publicGet('/markets/py-untraded/orderbook');
    expect(problems('OrderBook', book)).toEqual([]);
    expect(problems('OrderBook', book, 'OrderBook', true)).toEqual(['OrderBook.lastTradePrice: expected float, got null null']);
    expect(Object.keys(FOLLOWING_TS)).toEqual(['OrderBook.lastTradePrice']);
  });

  it('each exported-but-unparsed model is a real difference: the positions answer is not a PortfolioResponse', async () => {
    await unpaced(sb.current);
    expect(Object.entries(NOT_PARSED)).toEqual([['PortfolioResponse', 'GET /portfolio/positions']]);
    const positions = (await api('GET', '/portfolio/positions', undefined, 'alice')) as Record<string, unknown>;
    // The TS SDK's shape (what the Python SDK hands back raw from get_positions) ...
    expect(Object.keys(positions)).toEqual(expect.arrayContaining(['clob', 'amm', 'group']));
    expect((positions['clob'] as unknown[]).length).toBeGreaterThan(0);
    // ... which the Python model refuses.
    expect(problems('PortfolioResponse', positions)).toEqual(['PortfolioResponse.positions: missing (required)']);
    expect(problems('Position', (positions['clob'] as unknown[])[0])).toEqual([
      'Position.marketSlug: missing (required)',
      'Position.tokenId: missing (required)',
      'Position.balance: missing (required)',
    ]);
  });

  it('market data: active markets, each market (single, group, AMM), orderbook, navigation, pages, property keys', async () => {
    // A market made now (no trade yet) and a synthetic one join the seeded markets.
    await send(sb.current, 'POST', '/__sandbox/markets', {}, JSON.stringify({ slug: 'py-fresh', title: 'Fresh' }));
    await send(sb.current, 'POST', '/__sandbox/markets/synthetic', {}, JSON.stringify({ count: 1 }));
    const active = await publicGet('/markets/active?limit=25&page=1');
    const all = sb.current.ctx.state.markets;
    const markets = await Promise.all(all.filter((m) => m.groupSlug === null).map((m) => publicGet(`/markets/${m.slug}`)));
    const books = await Promise.all(all.filter((m) => m.tradeType === 'clob').map((m) => publicGet(`/markets/${m.slug}/orderbook`)));
    const nav = (await publicGet('/navigation')) as { path: string }[];
    const page = (await publicGet(`/market-pages/by-path?path=${encodeURIComponent(nav[0]?.path ?? '/')}`)) as { id: string };
    const offset = await publicGet(`/market-pages/${page.id}/markets?page=1&limit=2`);
    const cursor = await publicGet(`/market-pages/${page.id}/markets?cursor=&limit=2`);
    const keys = (await publicGet('/property-keys')) as { id: string }[];
    const key = await publicGet(`/property-keys/${keys[0]?.id ?? ''}`);
    const options = (await publicGet(`/property-keys/${keys[0]?.id ?? ''}/options`)) as unknown[];
    expect(markets.length).toBeGreaterThan(5);
    expect(options.length).toBeGreaterThan(0);
    expect(
      gaps([
        ['ActiveMarketsResponse', active],
        ...markets.map((m): [string, unknown] => ['Market', m]),
        ...books.map((b): [string, unknown] => ['OrderBook', b]),
        ...nav.map((n): [string, unknown] => ['NavigationNode', n]),
        ['MarketPage', page],
        ['MarketPageMarketsOffsetResponse', offset],
        ['MarketPageMarketsCursorResponse', cursor],
        ...keys.map((k): [string, unknown] => ['PropertyKey', k]),
        ['PropertyKey', key],
        ...options.map((o): [string, unknown] => ['PropertyOption', o]),
      ]),
    ).toEqual([]);
  });

  it('trading: a signed GTC that rests and one that takes (OrderResponse with makerMatches), cancels, history, profile', async () => {
    await unpaced(sb.current);
    const alice = seeded(sb.current, 'alice');
    const resting = await api(
      'POST',
      '/orders',
      await signedOrderBody(sb.current, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 5_000_000n }),
      'alice',
    );
    const taking = await api(
      'POST',
      '/orders',
      await signedOrderBody(sb.current, alice, { slug: 'btc-100k-2026', price: 0.65, shares: 3_000_000n }),
      'alice',
    );
    expect((taking as { makerMatches?: unknown[] }).makerMatches?.length).toBeGreaterThan(0);
    const cancel = await api('DELETE', `/orders/${(resting as { order: { id: string } }).order.id}`, undefined, 'alice');
    await api(
      'POST',
      '/orders',
      await signedOrderBody(sb.current, alice, { slug: 'btc-100k-2026', price: 0.3, shares: 5_000_000n }),
      'alice',
    );
    const cancelAll = await api('DELETE', '/orders/all/btc-100k-2026', undefined, 'alice');
    const history = (await api('GET', '/portfolio/history?cursor=&limit=20', undefined, 'alice')) as { data: unknown[] };
    expect(history.data.length).toBeGreaterThan(0);
    const profile = await api('GET', `/profiles/${alice.address}`, undefined, 'alice');
    expect(
      gaps([
        ['OrderResponse', resting],
        ['OrderResponse', taking],
        ['CancelResponse', cancel],
        ['CancelResponse', cancelAll],
        ['HistoryResponse', history],
        ['UserProfile', profile],
      ]),
    ).toEqual([]);
  });

  it('partner: capabilities, derive, list and revoke tokens, sub-account, delegated order and cancels, withdraw, redeem', async () => {
    await unpaced(sb.current);
    const caps = await identity('GET', '/auth/api-tokens/capabilities');
    const derived = (await identity('POST', '/auth/api-tokens/derive', { label: 'py', scopes: ['trading'] })) as { tokenId: string };
    const tokens = (await api('GET', '/auth/api-tokens')) as unknown[];
    const revoked = await api('DELETE', `/auth/api-tokens/${derived.tokenId}`);
    const child = await serverWalletChild(sb.current);
    const slug = 'gpt-6-release-2026';
    const market = sb.current.ctx.state.markets.find((m) => m.slug === slug);
    const yes = market?.positionIds?.[0] ?? '';
    const delegated = (await api('POST', '/orders', delegatedBody(slug, yes, child.profileId, 0.1, 5))) as { order: { id: string } };
    const cancel = await api('DELETE', `/orders/${delegated.order.id}?onBehalfOf=${child.profileId}`);
    const bought = await api('POST', '/orders', { ...delegatedBody(slug, yes, child.profileId, 0.9, 4) });
    const cancelAll = await api('DELETE', `/orders/all/${slug}?onBehalfOf=${child.profileId}`);
    const withdrawn = await api('POST', '/portfolio/withdraw', { amount: '1000000', onBehalfOf: child.profileId });
    await send(sb.current, 'POST', '/__sandbox/resolve', {}, JSON.stringify({ slug, winningOutcome: 'YES' }));
    const redeemed = await api('POST', '/portfolio/redeem', { conditionId: market?.conditionId, onBehalfOf: child.profileId });
    expect(
      gaps([
        ['PartnerCapabilities', caps],
        ['DeriveApiTokenResponse', derived],
        ...tokens.map((t): [string, unknown] => ['ApiToken', t]),
        ['CancelResponse', revoked],
        ['PartnerAccountResponse', child],
        ['OrderResponse', delegated],
        ['CancelResponse', cancel],
        ['OrderResponse', bought],
        ['CancelResponse', cancelAll],
        ['WithdrawServerWalletResponse', withdrawn],
        ['RedeemServerWalletResponse', redeemed],
      ]),
    ).toEqual([]);
  });
});

function problemsFreeOrder(): Json {
  return {
    salt: '1',
    maker: '0x',
    signer: '0x',
    taker: '0x',
    tokenId: '1',
    makerAmount: 1,
    takerAmount: '1',
    nonce: 0,
    feeRateBps: 300,
    side: 0,
    signatureType: 0,
    signature: '0x',
  };
}

function propertyKey(): Json {
  return { id: 'k', name: 'n', slug: 's', type: 'select', isSystem: false, createdAt: 't', updatedAt: 't' };
}
