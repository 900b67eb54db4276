// PM_PACE=off (for a sandbox whose rate limit is off) paces nothing, so it keeps no record shared
// with other processes either: no lock cycles under PM_HOME/run for each request (~4 ms of CPU a
// request, 14% of an in-process order place). Any other PM_PACE still paces across processes.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { limitOrder } from '../helpers/orders.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();
beforeAll(async () => expect(await postAdmin(sb.current, 'faults', { rateLimit: false })).toBe(200));
const paceRecords = (home: string) =>
  existsSync(join(home, 'run')) ? readdirSync(join(home, 'run')).filter((f) => f.startsWith('limit-')) : [];

describe('PM_PACE', () => {
  it('off: the order is placed and no pacing record is kept; 2/25: the record shared by the processes of the home', async () => {
    for (const [pace, kept] of [
      ['off', false],
      ['2/25', true],
    ] as const) {
      const home = newHome();
      const r = await runPm([...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '1')], {
        env: accountEnv(sb.current, 'alice', home, { PM_PACE: pace }),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(paceRecords(home).length > 0, `PM_PACE=${pace}: ${paceRecords(home).join(', ')}`).toBe(kept);
    }
  });
});
