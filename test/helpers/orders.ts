// The words of `pm order place` for one order, spelled once for the tests that place one: a
// limit order (price and size) or a market order (type and amount). Further flags follow them.

/** `order place MARKET SIDE OUTCOME --price PRICE --size SIZE`. */
export function limitOrder(market: string, side: string, outcome: string, price: string, size: string): string[] {
  return ['order', 'place', market, side, outcome, '--price', price, '--size', size];
}

/** `order place MARKET SIDE OUTCOME --type TYPE --amount USDC`. */
export function marketOrder(market: string, side: string, outcome: string, type: string, amount: string): string[] {
  return ['order', 'place', market, side, outcome, '--type', type, '--amount', amount];
}
