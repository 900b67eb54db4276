// An RPC URL from --rpc-url or PM_RPC_URL is checked where the settings resolve it, as pm config
// set rpc-url checks it: a usage error (exit 2, nothing sent), not a bug report. Before, "notaurl"
// was exit 1 UNEXPECTED "Invalid URL", and ftp://x was taken. The RPC transport is HTTP only, so
// only http(s) is an RPC URL (a path is fine: providers put the key there).
import { describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, useTempHomes } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const newHome = useTempHomes();

const COMMANDS = [
  ['redeem-onchain', 'eth-5k-2025'],
  ['approve', 'set', 'btc-100k-2026'],
  ['approve', 'check', 'btc-100k-2026'],
];

describe('a bad RPC URL: exit 2 naming where it came from, nothing sent', () => {
  for (const argv of COMMANDS)
    for (const bad of ['notaurl', 'ftp://x', 'ws://127.0.0.1:8545'])
      it(`pm ${argv.join(' ')} --rpc-url ${bad}, and PM_RPC_URL=${bad}`, async () => {
        const home = newHome();
        const flag = await runPm(['--json', '--yes', ...argv, '--rpc-url', bad], { env: accountEnv(sb.current, 'alice', home) });
        expect(flag.code, flag.stderr).toBe(2);
        const e = JSON.parse(flag.stderr).error;
        expect(e.code).toBe('USAGE');
        expect(e.message).toBe(`--rpc-url "${bad}" is not an http(s) URL`);
        const env = await runPm(['--json', '--yes', ...argv], { env: accountEnv(sb.current, 'alice', home, { PM_RPC_URL: bad }) });
        expect(env.code, env.stderr).toBe(2);
        expect(JSON.parse(env.stderr).error.message).toBe(`PM_RPC_URL "${bad}" is not an http(s) URL`);
      });

  it('pm config set rpc-url takes only http(s) too, with a path', async () => {
    const env = { PM_HOME: newHome() };
    expect((await runPm(['config', 'set', 'rpc-url', 'ws://127.0.0.1:8545'], { env })).code).toBe(2);
    expect((await runPm(['config', 'set', 'rpc-url', 'ftp://x'], { env })).code).toBe(2);
    const ok = await runPm(['config', 'set', 'rpc-url', 'https://base-mainnet.example/v2/key'], { env });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a good --rpc-url with a path still goes ahead (it is tried: no usage error)', async () => {
    const r = await runPm(['--json', 'approve', 'check', 'btc-100k-2026', '--rpc-url', 'http://127.0.0.1:9/rpc'], {
      env: accountEnv(sb.current, 'alice', newHome(), { PM_TIMEOUT: '5s' }),
    });
    expect(r.code, r.stderr).not.toBe(2);
    expect(r.code).not.toBe(1);
  });
});

describe('an RPC that cannot be reached', () => {
  // A port that was free a moment ago: nothing listens there (127.0.0.1 only).
  const closedPort = async (): Promise<number> => {
    const net = await import('node:net');
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  };
  for (const argv of [COMMANDS[0] ?? [], COMMANDS[1] ?? []])
    it(`pm ${argv.join(' ')}: exit 7, the hint says to run the same command again (it reads the chain first), not approve check for a redemption`, async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      const r = await runPm(['--json', '--yes', ...argv, '--rpc-url', url], { env: accountEnv(sb.current, 'alice', newHome()) });
      expect(r.code, r.stderr).toBe(7);
      const e = JSON.parse(r.stderr).error as { hint: string };
      expect(e.hint).toMatch(/run the same command again/);
      expect(e.hint).not.toMatch(/approve check/);
    });
});
