// The test pacer (test/helpers/pacer.ts) that SDK and raw-HTTP tests send through: it spaces
// starts from when the previous request really left, keeps 2 in flight, and retries a 429
// after the wait it names, so a loaded machine slows those tests without failing them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacHeaders } from '../../src/core/hmac.js';
import { eventually, sleep } from '../helpers/eventually.js';
import { GAP_MS, laneOf, paced, pacedFetch } from '../helpers/pacer.js';
import { useSandbox } from '../helpers/sandbox.js';
import { account, sdkClient } from '../sdk/helpers.js';

const sb = useSandbox();
let lanes = 0;
const freshLane = (): string => laneOf('test:', `lane-${++lanes}`);
const never = (): undefined => undefined;
const faults = (b: object): Promise<Response> =>
  fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(b),
  });

/** Holds the event loop, as a loaded machine does to a timer that is due. */
function busy(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spin
  }
}

describe('spacing', () => {
  it('spaces each start GAP_MS after the previous one really started, even when a timer fired late', async () => {
    const lane = freshLane();
    const starts: number[] = [];
    // The second request's wait ends during a 400 ms stall: it starts late, and the third must
    // be spaced from that late start, not from when the second was planned.
    setTimeout(() => busy(400), 100);
    await Promise.all([0, 1, 2, 3].map(() => paced(lane, async () => null, never, { onStart: (t) => starts.push(t) })));
    expect(starts).toHaveLength(4);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(GAP_MS);
  });

  it('keeps at most 2 requests of a lane in flight', async () => {
    const lane = freshLane();
    let inFlight = 0;
    let peak = 0;
    const gate: (() => void)[] = [];
    const send = async (): Promise<null> => {
      peak = Math.max(peak, ++inFlight);
      await new Promise<void>((r) => gate.push(r));
      inFlight--;
      return null;
    };
    const all = Promise.all([0, 1, 2, 3].map(() => paced(lane, send, never)));
    await eventually(() => gate.length === 2);
    // Without the cap a third request would have started by now (GAP_MS after the second).
    // Under load this may prove less, never fail wrongly.
    await sleep(2 * GAP_MS);
    expect(inFlight).toBe(2);
    for (let answered = 0; answered < 4; answered++) {
      await eventually(() => gate.length > 0);
      gate.shift()?.();
    }
    await all;
    expect(peak).toBe(2);
  });

  it('on a credential measured on arrival, starts the next request GAP_MS after the previous answer', async () => {
    const lane = freshLane();
    const starts: number[] = [];
    const answers: number[] = [];
    const send = async (): Promise<null> => {
      await sleep(200);
      answers.push(Date.now());
      return null;
    };
    for (let i = 0; i < 2; i++) await paced(lane, send, never, { arrival: true, onStart: (t) => starts.push(t) });
    // The first request may have arrived as late as its answer came back.
    expect(starts[1]! - answers[0]!).toBeGreaterThanOrEqual(GAP_MS);
  });
});

describe('429', () => {
  const signedGet = (target: string) => {
    const a = account(sb.current, 'alice');
    return () =>
      fetch(`${sb.current.baseUrl}${target}`, { headers: { ...hmacHeaders(a.token.tokenId, a.token.secret, 'GET', target, '') } });
  };

  it('retries a 429 after the Retry-After it names, signing afresh, and resolves with the answer that follows', async () => {
    await faults({ burst429: 2, match: 'GET /profiles/me' });
    const sent: number[] = [];
    const get = signedGet('/profiles/me');
    const res = await pacedFetch(laneOf(sb.current.baseUrl, account(sb.current, 'alice').token.tokenId), () => {
      sent.push(Date.now());
      return get();
    });
    expect(res.status).toBe(200);
    expect(sent).toHaveLength(3);
    // The sandbox's injected 429 says Retry-After: 1.
    for (let i = 1; i < sent.length; i++) expect(sent[i]! - sent[i - 1]!).toBeGreaterThanOrEqual(1000);
  });

  it("retries the SDK's RateLimitError (a paced SDK client never surfaces a pacing 429)", async () => {
    await faults({ burst429: 1, match: 'GET /profiles/me' });
    const me = await sdkClient(sb.current, 'bob').portfolio.getProfile();
    expect(me).toMatchObject({ id: account(sb.current, 'bob').profileId });
    const f = (await (await fetch(`${sb.current.baseUrl}/__sandbox/faults`)).json()) as { burst429: number };
    expect(f.burst429).toBe(0); // the 429 was served, and retried
  });

  describe('against a server that names its own waits', () => {
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      if (req.url === '/long') res.writeHead(429, { 'retry-after': '30' }).end('{"message":"allowance retry rate limited"}');
      else if (req.url === '/body' && hits % 2 === 1) res.writeHead(429).end('{"retryAfterSeconds":0}');
      else res.writeHead(200).end('{}');
    });
    let url = '';
    beforeAll(async () => {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((r) => server.close(r)));

    it('returns a 429 that names a long wait: a limit the test is about, not pacing', async () => {
      hits = 0;
      const res = await pacedFetch(freshLane(), () => fetch(`${url}/long`));
      expect(res.status).toBe(429);
      expect(hits).toBe(1);
      expect(await res.json()).toEqual({ message: 'allowance retry rate limited' }); // the body is still there
    });

    it("honours a body's retryAfterSeconds when there is no Retry-After", async () => {
      hits = 0;
      const res = await pacedFetch(freshLane(), () => fetch(`${url}/body`));
      expect(res.status).toBe(200);
      expect(hits).toBe(2);
    });
  });
});
