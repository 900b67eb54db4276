// pm withdraw --on-behalf-of naming the caller's own account: refused before anything is sent
// (exit 2). Before: it was sent as a sub-account's withdrawal whose source wallet pm could not
// name, so the journal's check for an identical withdrawal with an unknown outcome (same amount,
// token, source and destination) did not see the one sent without the flag, and the same money
// left twice.
import { describe, expect, it } from 'vitest';
import { accountEnv, seeded } from '../helpers/account-env.js';
import { countEvents, logMark } from '../helpers/fault-proxy.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const home = useTempHomes();

describe('pm withdraw --on-behalf-of <your own profile id>', () => {
  it('is refused locally, exit 2, nothing withdrawn', async () => {
    const carol = seeded(sb.current, 'carol');
    const env = accountEnv(sb.current, 'carol', home());
    const mark = logMark(sb.current);
    const r = await runPm(['--json', 'withdraw', '1', '--yes', '--on-behalf-of', String(carol.profileId)], { env });
    expect(r.code, r.stderr).toBe(2);
    const err = (JSON.parse(r.stderr) as { error: { message: string; hint: string } }).error;
    expect(err.message).toMatch(/your own account/);
    expect(err.hint).toMatch(/Leave out --on-behalf-of/);
    expect(countEvents(sb.current, 'funds.withdrawn', undefined, mark)).toBe(0);
  });
});
