// pm watch --json into a slow pipe: a burst of events goes out in few writes (one per burst,
// not one per event), and when stdout is full (write() returns false) the stream stops reading
// from the exchange until 'drain', then delivers everything, in order, nothing lost.
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/app/main.js';
import type { IO } from '../../src/cli/output.js';
import { StreamClient } from '../../src/core/stream.js';
import { ndjson } from '../../src/commands/watch/run.js';
import { eventually } from '../helpers/eventually.js';
import { useSandbox } from '../helpers/sandbox.js';
import { tempHome } from '../helpers/run.js';
import { newMarket, place } from '../helpers/stream.js';

const sb = useSandbox();
const home = tempHome();
afterAll(() => home.cleanup());
afterEach(() => vi.restoreAllMocks());

const until = (pred: () => boolean, what: string): Promise<true> => eventually(pred, { what, intervalMs: 5 });

describe('pm watch output under backpressure', () => {
  it('batches a burst, pauses the stream while stdout is full, resumes on drain, loses nothing', async () => {
    const N = 300;
    await newMarket(sb.current, 'bp-market');
    const pause = vi.spyOn(StreamClient.prototype, 'pause');
    const resume = vi.spyOn(StreamClient.prototype, 'resume');
    const writes: string[] = [];
    let full = false;
    const stdout = Object.assign(new EventEmitter(), {
      isTTY: false,
      write: (s: string): boolean => {
        writes.push(s);
        return !full;
      },
    });
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    const io: IO = {
      stdout,
      stderr: { write: () => true, isTTY: false },
      stdin: Object.assign((async function* () {})(), { isTTY: false }),
      env: {
        PM_HOME: home.home,
        PM_BASE_URL: sb.current.baseUrl,
        PM_WS_URL: sb.current.wsUrl,
        PM_TOKEN_ID: alice?.token.tokenId,
        PM_TOKEN_SECRET: alice?.token.secret,
      },
      cwd: process.cwd(),
    };
    const done = main(['--json', 'watch', 'orders', '--market', 'bp-market', '--count', String(N)], io);
    const text = (): string => writes.join('');
    await until(() => text().includes('"type":"subscribed"'), 'the subscription');
    await eventually(
      async () => {
        const socks = (await (await fetch(`${sb.current.baseUrl}/__sandbox/sockets`)).json()) as {
          profileId: number | null;
          subscriptions: { orders: boolean };
        }[];
        return socks.some((s) => s.profileId === 1001 && s.subscriptions.orders);
      },
      { what: 'the sandbox to see the subscription' },
    );
    const before = writes.length;
    full = true; // the reader stops reading
    // One burst: N orders committed at once, as a batch request does.
    for (let i = 0; i < N; i++)
      place(sb.current, 1001, { slug: 'bp-market', side: 'BUY', price: 100_000n, size: 1_000_000n, clientOrderId: `bp-${i}` });
    await until(() => pause.mock.calls.length > 0, `the stream to pause (${writes.length} writes, last ${writes.at(-1)?.slice(0, 200)})`);
    expect(resume).not.toHaveBeenCalled();
    full = false;
    stdout.emit('drain'); // the reader caught up
    expect(resume).toHaveBeenCalledTimes(1);
    expect(await done).toBe(0);
    const records = text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r['event'] === 'orderEvent');
    expect(records.map((r) => r['clientOrderId'])).toEqual(Array.from({ length: N }, (_, i) => `bp-${i}`));
    expect(records.every((r) => r['type'] === 'PLACEMENT')).toBe(true);
    expect(writes.length - before).toBeLessThan(N / 4); // a write per burst, not per event
  }, 30_000);

  it('ndjson puts the event name first and keeps the payload as is', () => {
    expect(ndjson('orderEvent', { a: 1, b: 'x' })).toBe('{"event":"orderEvent","a":1,"b":"x"}\n');
    expect(ndjson('lifecycle', {})).toBe('{"event":"lifecycle"}\n');
    expect(JSON.parse(ndjson('orderEvent', { event: 'own', n: [1, { k: null }] }))).toEqual({ event: 'own', n: [1, { k: null }] }); // as {event, ...payload}
  });
});
