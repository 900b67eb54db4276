// Orders spelled once for the tests: the words of `pm order place` for one order, a limit order
// (price and size) or a market order (type and amount), further flags following them; and the
// body a partner posts for a server-wallet child.

/** `order place MARKET SIDE OUTCOME --price PRICE --size SIZE`. */
export function limitOrder(market: string, side: string, outcome: string, price: string, size: string): string[] {
  return ['order', 'place', market, side, outcome, '--price', price, '--size', size];
}

/** `order place MARKET SIDE OUTCOME --type TYPE --amount USDC`. */
export function marketOrder(market: string, side: string, outcome: string, type: string, amount: string): string[] {
  return ['order', 'place', market, side, outcome, '--type', type, '--amount', amount];
}

const ZERO = '0x0000000000000000000000000000000000000000';

/**
 * The POST /orders body of a partner's delegated order for a server-wallet child: GTC BUY of 5
 * shares of `tokenId` at 0.40 (2 USDC), maker and signer left empty (the server signs).
 */
export function delegatedBuyBody(childId: number, tokenId: string, slug: string, salt: number) {
  return {
    order: {
      salt,
      maker: ZERO,
      signer: ZERO,
      taker: ZERO,
      tokenId,
      makerAmount: 2_000_000,
      takerAmount: 5_000_000,
      expiration: '0',
      nonce: 0,
      side: 0,
      signatureType: 0,
      price: 0.4,
    },
    orderType: 'GTC',
    marketSlug: slug,
    ownerId: childId,
    onBehalfOf: childId,
  };
}
