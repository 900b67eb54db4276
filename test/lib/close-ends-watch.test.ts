// pm.close() ends the client's streams too: a bot that closes its client while a `for await` over
// pm.watch.* is running sees the loop end, and its process can exit. Before: close() resolved, the
// stream's next() stayed pending for ever and its socket kept the process alive.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { seeded } from '../helpers/account-env.js';
import { eventually } from '../helpers/eventually.js';
import { useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();

describe('pm.close()', () => {
  it('ends a running watch: the for-await loop returns', async () => {
    const alice = seeded(sb.current, 'alice');
    const pm = createClient({ home: newHome(), baseUrl: sb.current.baseUrl, privateKey: alice.privateKey, token: alice.token });
    const seen: string[] = [];
    let ended = false;
    const loop = (async () => {
      for await (const r of pm.watch.orders()) seen.push(r.event === 'lifecycle' ? `lifecycle:${r.type}` : r.event);
      ended = true;
    })();
    await eventually(() => seen.includes('lifecycle:subscribed'), { what: 'the stream connected' });
    await pm.close();
    await eventually(() => ended, { what: 'the loop ended after close()', timeoutMs: 5000 });
    await loop;
    expect(ended).toBe(true);
  });
});
