// The library on a PM_HOME profile whose keystore a session agent (pm unlock) holds open: every
// call of one client signs through the agent, never asking for the passphrase it was not given.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { startAgent } from '../../src/keystore/agent-server.js';
import { Keystore } from '../../src/keystore/store.js';
import { seeded } from '../helpers/account-env.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const PASS = 'agent-lib-pass-1';

describe('createClient({ profile }) with the session agent and no passphrase', () => {
  it('places, cancels and places again with one client (the second authenticated call was "the keystore is locked", exit 3)', async () => {
    const alice = seeded(sb.current, 'alice');
    const ks = new Keystore(home, { scrypt: { n: 1024 } });
    await ks.importWalletKey('w', alice.privateKey, PASS);
    await ks.saveSecrets('s', { tokenId: alice.token.tokenId, tokenSecret: alice.token.secret }, PASS);
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ version: 1, profiles: { sb: { baseUrl: sb.current.baseUrl, wallet: 'w', secrets: 's' } }, activeProfile: 'sb' }),
    );
    const agent = await startAgent({ home, passphrase: PASS, ttlMs: 60_000 });
    const pm = createClient({ home, profile: 'sb' });
    try {
      const order = { market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.21', size: '5' } as const;
      const first = await pm.orders.place({ ...order, clientId: 'agent-lib-1' });
      expect(first.status).toBe('LIVE');
      const cancelled = await pm.orders.cancel(first.order.id);
      expect(cancelled.results[0]?.status).toBe('CANCELLED');
      const second = await pm.orders.place({ ...order, clientId: 'agent-lib-2' });
      expect(second.status).toBe('LIVE');
      const all = await pm.orders.cancelAll({ market: 'btc-100k-2026' });
      expect(all.results.map((r) => r.order.id)).toEqual([second.order.id]);
    } finally {
      await pm.close();
      await agent.close();
    }
  });
});
