// Conformance of shapes: every response the SDK hands to its users carries each field the SDK's
// published types declare as required (read from the installed @limitless-exchange/sdk d.ts).
import { describe, expect, it } from 'vitest';
import { OrderType, Side } from '@limitless-exchange/sdk';
import { useSandbox } from '../helpers/sandbox.js';
import { account, eventually, publicClient, sdkClient } from './helpers.js';
import { missingFields, requiredFields } from './sdk-types.js';

const sb = useSandbox();
const SLUG = 'btc-100k-2026';

/** One entry per (SDK interface, value) pair, so a failure names every gap at once. */
function gaps(checks: [string, unknown][]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of checks) {
    const missing = missingFields(name, value);
    if (missing.length > 0) out[name] = missing;
  }
  return out;
}

describe("responses carry the SDK's required fields", () => {
  it('reads the declarations (guards the reader itself)', () => {
    expect(requiredFields('Venue')).toEqual(['exchange', 'adapter']);
    expect(requiredFields('WithdrawServerWalletResponse')).toEqual([
      'hash',
      'userOperationHash',
      'transactionId',
      'walletAddress',
      'token',
      'destination',
      'amount',
    ]);
    expect(missingFields('Venue', { exchange: '0x' })).toEqual(['adapter']);
  });

  it('market data: Market (every active one and a group), Venue, OrderBook, navigation and pages', async () => {
    const c = publicClient(sb.current);
    const active = await c.markets.getActiveMarkets({ limit: 25 });
    const market = await c.markets.getMarket(SLUG);
    const group = await c.markets.getMarket('us-election-2028');
    const book = await c.markets.getOrderBook(SLUG);
    const nav = await c.pages.getNavigation();
    const page = await c.pages.getMarketPageByPath(nav[0]?.path ?? '/');
    const listed = await c.pages.getMarkets(page.id, { page: 1, limit: 2 });
    const keys = await c.pages.getPropertyKeys();
    expect(
      gaps([
        ...active.data.map((m): [string, unknown] => ['Market$1', m]),
        ['Market$1', market],
        ['Market$1', group],
        ['Venue', market.venue],
        ['CollateralToken', market.collateralToken],
        ['OrderBook', book],
        ['OrderbookEntry', book.bids[0]],
        ['OrderbookEntry', book.asks[0]],
        ['NavigationNode', nav[0]],
        ['MarketPage', page],
        ['OffsetPagination', 'pagination' in listed ? listed.pagination : undefined],
        ...keys.map((k): [string, unknown] => ['PropertyKey', k]),
        ...keys.flatMap((k) => k.options ?? []).map((o): [string, unknown] => ['PropertyOption', o]),
      ]),
    ).toEqual({});
  });

  it('trading and portfolio: created order, execution, matches, positions, history, profile', async () => {
    const c = sdkClient(sb.current, 'alice');
    const orders = c.newOrderClient(account(sb.current, 'alice').privateKey);
    const market = await c.markets.getMarket(SLUG);
    const r = await orders.createOrder(
      { tokenId: market.tokens?.yes ?? '', makerAmount: 6.3, side: Side.BUY, orderType: OrderType.FOK, marketSlug: SLUG },
      { withRawResponse: true },
    );
    const raw = r.getRaw().data as { order: unknown; execution: { totalsRaw: unknown }; makerMatches: unknown[] };
    const positions = await c.portfolio.getPositions();
    const clob = positions.clob.find((p) => p.market.slug === SLUG);
    const history = await c.portfolio.getUserHistory(undefined, 5);
    const me = await c.portfolio.getProfile();
    expect(
      gaps([
        ['CreatedOrder', raw.order],
        ['CreatedOrder', r.data.order],
        ['Execution', raw.execution],
        ['ExecutionTotalsRaw', raw.execution.totalsRaw],
        ['OrderMatch', raw.makerMatches[0]],
        ['PortfolioPositionsResponse', positions],
        ['CLOBPosition', clob],
        ['PositionMarket', clob?.market],
        ['TokenBalance', clob?.tokensBalance],
        ['LatestTrade', clob?.latestTrade],
        ['HistoryResponse', history],
        ['HistoryEntry', history.data[0]],
        ['UserProfile', me],
      ]),
    ).toEqual({});
  });

  it('partner: tokens, capabilities, sub-accounts, allowances, withdrawal address, withdraw', async () => {
    const p = account(sb.current, 'partner');
    const c = sdkClient(sb.current, 'partner');
    const caps = await c.apiTokens.getCapabilities(p.identityToken);
    const derived = await c.apiTokens.deriveToken(p.identityToken, { scopes: ['trading'] });
    const tokens = await c.apiTokens.listTokens();
    const child = await c.partnerAccounts.createAccount({ createServerWallet: true });
    const allowances = await c.partnerAccounts.checkAllowances(child.profileId);
    const list = await c.partnerAccounts.listAccounts();
    const address = await c.partnerAccounts.addWithdrawalAddress(p.identityToken, {
      address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    });
    const funded = await fetch(`${sb.current.baseUrl}/__sandbox/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ profileId: child.profileId, amount: '2000000' }),
    });
    expect(funded.status).toBe(200);
    const withdrawn = await c.serverWallets.withdraw({ amount: '1000000', onBehalfOf: child.profileId });
    expect(
      gaps([
        ['PartnerCapabilities', caps],
        ['DeriveApiTokenResponse', derived],
        ['ApiToken', tokens[0]],
        ['PartnerAccountResponse', child],
        ['PartnerAccountAllowanceResponse', allowances],
        ['PartnerAccountAllowanceSummary', allowances.summary],
        ['PartnerAccountAllowanceTarget', allowances.targets[0]],
        ['ListPartnerAccountsResponse', list],
        ['PartnerAccountListItem', list.data[0]],
        ['PartnerWithdrawalAddressResponse', address],
        ['WithdrawServerWalletResponse', withdrawn],
      ]),
    ).toEqual({});
  });

  it('stream: orderbookUpdate, OME and SETTLEMENT orderEvents, lifecycle events', async () => {
    const c = sdkClient(sb.current, 'alice');
    const ws = c.newWebSocketClient({ url: sb.current.wsUrl, autoReconnect: false });
    const seen: [string, unknown][] = [];
    for (const name of ['orderbookUpdate', 'orderEvent', 'marketCreated', 'marketResolved'] as const)
      ws.on(name, (x: unknown) => seen.push([name, x]));
    await ws.connect();
    try {
      await ws.subscribe('subscribe_order_events');
      await ws.subscribe('subscribe_market_lifecycle');
      await ws.subscribe('subscribe_market_prices', { marketSlugs: [SLUG] });
      await eventually(() => seen.some(([n]) => n === 'orderbookUpdate'));
      const orders = c.newOrderClient(account(sb.current, 'alice').privateKey);
      const market = await c.markets.getMarket(SLUG);
      await orders.createOrder({
        tokenId: market.tokens?.yes ?? '',
        price: 0.3,
        size: 1,
        side: Side.BUY,
        orderType: OrderType.GTC,
        marketSlug: SLUG,
      });
      await orders.createOrder({
        tokenId: market.tokens?.yes ?? '',
        makerAmount: 1.26,
        side: Side.BUY,
        orderType: OrderType.FOK,
        marketSlug: SLUG,
      });
      const post = (path: string, body: unknown): Promise<Response> =>
        fetch(`${sb.current.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post('/__sandbox/markets', { slug: 'shape-check', title: 'Shape check' })).status).toBe(201);
      expect((await post('/__sandbox/resolve', { slug: 'shape-check', winningOutcome: 'YES' })).status).toBe(200);
      const of = (n: string, pred: (x: Record<string, unknown>) => boolean = () => true): Record<string, unknown> | undefined =>
        seen.find(([name, x]) => name === n && pred(x as Record<string, unknown>))?.[1] as Record<string, unknown> | undefined;
      await eventually(() => of('marketResolved') && of('orderEvent', (x) => x['source'] === 'SETTLEMENT'));
      const book = of('orderbookUpdate');
      expect(
        gaps([
          ['OrderbookUpdate', book],
          ['OrderbookData', book?.['orderbook']],
          ['OmeOrderEvent', of('orderEvent', (x) => x['source'] === 'OME')],
          ['SettlementOrderEvent', of('orderEvent', (x) => x['source'] === 'SETTLEMENT')],
          ['MarketCreatedEvent', of('marketCreated')],
          ['MarketResolvedEvent', of('marketResolved')],
        ]),
      ).toEqual({});
    } finally {
      await ws.disconnect();
    }
  });
});
