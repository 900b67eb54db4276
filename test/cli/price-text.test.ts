// A price in a line of text is printed as every table prints prices: three decimals at least. The
// order lines echoed the exchange's own strings ("BUY YES 10 @ 0.5" beside a book and tables of
// "0.500"). --json keeps the exchange's strings as they are.
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { priceText } from '../../src/core/money.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const pm = (...argv: string[]) => runPm(argv, { env: accountEnv(sb.current, 'alice', home) });

describe('prices in lines of text', () => {
  it('order place and order replace print "@ 0.500", not "@ 0.5"; --json keeps "0.5"', async () => {
    const placed = await pm('order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.5', '--size', '2', '--client-id', 'pt-1');
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.stdout).toMatch(/GTC BUY YES 2 @ 0\.500\b/);
    const json = await pm('--json', 'order', 'status', '--client-id', 'pt-1');
    expect(json.stdout).toContain('"price":"0.5"');
    const id = /order id\s+(\S+)/.exec(placed.stdout)?.[1] ?? '';
    const moved = await pm('order', 'replace', id, '--price', '0.4', '--new-client-id', 'pt-2');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/BUY YES 2 @ 0\.400 \(client id pt-2/);
  });

  it('a fill\'s average price: "at avg 0.650", not "at avg 0.65"', async () => {
    // bob's seeded asks start at 0.63: a 1 USDC FOK BUY fills at one level's price.
    const r = await pm('order', 'place', 'btc-100k-2026', 'buy', 'yes', '--type', 'fok', '--amount', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/shares at avg 0\.\d{3,}\b/);
  });

  it('three decimals at least; a finer price is kept whole; text that is no decimal is kept as it is', () => {
    expect(priceText('0.5')).toBe('0.500');
    expect(priceText('1')).toBe('1.000');
    expect(priceText('0.4213')).toBe('0.4213');
    expect(priceText('0.42')).toBe('0.420');
    expect(priceText('?')).toBe('?');
  });
});
