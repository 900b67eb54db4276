// pm watch orders with a token the exchange refuses: the open-orders snapshot it asks for first
// (GET /portfolio/positions) is refused too, and a refusal is not asked again. Before: the
// snapshot was retried with backoff and held the stream back up to 3 s, so a wrong secret was
// reported after ~3 s and 3-4 refused requests; the library's watch.orders the same.
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { AuthError } from '../../src/core/errors.js';
import { useFaultProxy } from '../helpers/fault-proxy.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const proxy = useFaultProxy(sb);
const { home, cleanup } = tempHome();
afterAll(cleanup);

const WRONG = Buffer.from('wrong secret').toString('base64');
const alice = () => {
  const a = sb.current.info.accounts.find((x) => x.name === 'alice');
  if (!a) throw new Error('no alice');
  return a;
};

describe('a refused token on a private stream', () => {
  it("pm watch orders: exit 3 with the exchange's refusal, the refused snapshot asked once", async () => {
    proxy.current.reset();
    const r = await runPm(['--json', 'watch', 'orders'], {
      env: {
        PM_HOME: home,
        PM_BASE_URL: proxy.current.baseUrl,
        PM_WS_URL: sb.current.wsUrl,
        PM_TOKEN_ID: alice().token.tokenId,
        PM_TOKEN_SECRET: WRONG,
      },
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/refused the stream: Invalid HMAC authentication/);
    expect(JSON.parse(r.stderr).error.hint).toMatch(/pm whoami/);
    expect(proxy.current.count('GET', '/portfolio/positions')).toBe(1);
  });

  it('the library: watch.orders rejects with AuthError, the refused snapshot asked once', async () => {
    proxy.current.reset();
    const pm = createClient({
      home,
      baseUrl: proxy.current.baseUrl,
      wsUrl: sb.current.wsUrl,
      token: { tokenId: alice().token.tokenId, secret: WRONG },
    });
    const run = async () => {
      for await (const _record of pm.watch.orders()) {
        // until it ends
      }
    };
    const e = await run().then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(AuthError);
    // In the library's words: its option, not the CLI's pm whoami or PM_TOKEN_ID.
    expect((e as AuthError).hint).toMatch(/createClient/);
    expect((e as AuthError).hint).not.toMatch(/pm whoami|PM_TOKEN/);
    await pm.close();
    expect(proxy.current.count('GET', '/portfolio/positions')).toBe(1);
  });
});
