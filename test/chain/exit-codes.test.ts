// Exit codes of the on-chain commands (issue 33, item 7): `approve check` exits 8 when approvals
// are missing (0 when all are in place), and an RPC that is not Base (a node of chain id 8453
// without Base's contracts: "returned no data") exits 7 with a hint naming --rpc-url, never 1.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/index.js';
import { accountEnv } from '../helpers/account-env.js';
import { useAnvil } from '../helpers/anvil.js';
import { runPm, tempHome } from '../helpers/run.js';

const anvil = useAnvil();
const empty = useAnvil({ chainId: 8453 });
const { home, cleanup } = tempHome();
afterAll(cleanup);

let sb: SandboxHandle | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

interface ErrorJson {
  error: { code: string; message: string; hint?: string };
}

describe('on-chain exit codes', () => {
  it('approve check: exit 8 with the approvals missing (and the command that sets them), 0 when none is', async () => {
    sb = await startSandbox({ port: 0, dataDir: null, chain: { rpcUrl: anvil.rpcUrl } });
    const alice = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env: accountEnv(sb, 'alice', home) });
    expect(alice.code, alice.stderr).toBe(8);
    expect((JSON.parse(alice.stdout) as { missing: number }).missing).toBe(2);
    const err = (JSON.parse(alice.stderr) as ErrorJson).error;
    expect(err.message).toMatch(/2 approvals missing/);
    expect(err.hint).toMatch(/pm approve set btc-100k-2026/);
    const text = await runPm(['approve', 'check', 'btc-100k-2026'], { env: accountEnv(sb, 'alice', home) });
    expect(text.code).toBe(8);
    expect(text.stdout).toMatch(/missing/);
    const bob = await runPm(['--json', 'approve', 'check', 'btc-100k-2026'], { env: accountEnv(sb, 'bob', home) });
    expect(bob.code, bob.stderr).toBe(0);
  });

  it('an RPC without the contracts (not Base): exit 7 naming --rpc-url, never 1', async () => {
    sb = await startSandbox({ port: 0, dataDir: null });
    const r = await runPm(['--json', 'approve', 'check', 'btc-100k-2026', '--rpc-url', empty.rpcUrl], {
      env: accountEnv(sb, 'alice', home),
    });
    expect(r.code, r.stderr).toBe(7);
    const err = (JSON.parse(r.stderr) as ErrorJson).error;
    expect(err.hint).toMatch(/--rpc-url/);
    expect(err.message).toMatch(/no contract/);
  });
});
