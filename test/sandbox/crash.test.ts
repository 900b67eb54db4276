// The sandbox as a real process (bin/pm.js, built by `npm test`): kill -9 mid-stream loses no
// acknowledged order, and the state lock refuses a second sandbox on the same PM_HOME even
// when server.json is gone or corrupt.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Wallet } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { sdkOrderBody } from '../helpers/eip712.js';
import { until } from '../helpers/stream.js';

const BIN = join(process.cwd(), 'bin', 'pm.js');
const children: ChildProcess[] = [];
const homes: string[] = [];
/** Detached sandboxes (not children of this process). */
const detached: number[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of detached.splice(0))
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

interface Ready {
  baseUrl: string;
  pid: number;
  accounts: { name: string; privateKey: string; profileId: number; apiKey: string }[];
}

/** Runs pm in a child; resolves with the first stdout line (or the exit, whichever first). */
function pm(
  home: string,
  args: string[],
): { child: ChildProcess; first: Promise<{ line: string | null; code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], PM_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  const first = new Promise<{ line: string | null; code: number | null; stderr: string }>((resolve) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ line: out.slice(0, nl), code: null, stderr: err });
    });
    child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('exit', (code) => resolve({ line: null, code, stderr: err }));
  });
  return { child, first };
}

async function startChild(home: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const { child, first } = pm(home, ['--json', 'sandbox', 'start', '--port', '0']);
  const r = await first;
  if (r.line === null) throw new Error(`sandbox exited ${r.code}: ${r.stderr}`);
  return { child, ready: JSON.parse(r.line) as Ready };
}

function tempHome(): string {
  const h = mkdtempSync(join(tmpdir(), 'pm-crash-'));
  homes.push(h);
  return h;
}

/** A GTC BUY of 10 shares at 0.10 (far below the asks, so every order rests), signed by `wallet`. */
function signedBody(
  wallet: Wallet,
  ownerId: number,
  fee: number,
  exchange: string,
  slug: string,
  tokenId: string,
  salt: number,
): Promise<Record<string, unknown>> {
  return sdkOrderBody({ wallet, exchange, slug, tokenId, ownerId, feeRateBps: fee, price: '0.1', salt, clientOrderId: `crash-${salt}` });
}

describe('sandbox process', () => {
  it('kill -9 mid-stream: every order answered 2xx is there after a restart on the same PM_HOME', { timeout: 30_000 }, async () => {
    const home = tempHome();
    const { child, ready } = await startChild(home);
    const slug = 'btc-100k-2026';
    const market = (await (await fetch(`${ready.baseUrl}/markets/${slug}`)).json()) as {
      venue: { exchange: string };
      positionIds: string[];
    };
    const tokenId = market.positionIds[0] ?? '';
    const fees: Record<string, number> = { alice: 300, bob: 0, partner: 300 };
    const acked: string[] = [];
    let stop = false;
    let salt = 1_000;
    const stream = async (acct: Ready['accounts'][number]): Promise<void> => {
      const wallet = new Wallet(acct.privateKey);
      while (!stop) {
        const body = await signedBody(wallet, acct.profileId, fees[acct.name] ?? 0, market.venue.exchange, slug, tokenId, salt++);
        const started = Date.now();
        try {
          const r = await fetch(`${ready.baseUrl}/orders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': acct.apiKey },
            body: JSON.stringify(body),
          });
          if (r.status >= 200 && r.status < 300) acked.push(((await r.json()) as { order: { id: string } }).order.id);
        } catch {
          return; // the process died mid-request: no answer, no promise
        }
        await new Promise((res) => setTimeout(res, Math.max(0, 320 - (Date.now() - started))));
      }
    };
    const streams = ready.accounts.filter((a) => a.name in fees).map(stream);
    // Kill once a few orders were acknowledged, while the streams keep requests in flight.
    const deadline = Date.now() + 12_000;
    while (acked.length < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 300)));
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(streams);
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    expect(acked.length).toBeGreaterThanOrEqual(6);
    const sb = await startSandbox({ port: 0, dataDir: join(home, 'sandbox') });
    try {
      const ids = new Set(sb.ctx.state.orders.map((o) => o.id));
      expect(acked.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await sb.close();
    }
  });

  it('a second `sandbox start` on the same state exits 5 naming the pid, even without server.json; status finds it', async () => {
    const home = tempHome();
    const { ready } = await startChild(home);
    rmSync(join(home, 'sandbox', 'server.json'), { force: true });
    const second = await pm(home, ['--json', 'sandbox', 'start', '--port', '0']).first;
    expect(second.line).toBeNull();
    expect(second.code).toBe(5);
    expect(second.stderr).toContain(`a sandbox is already running on this state (pid ${ready.pid})`);
    // A corrupt run file: status still sees the running sandbox through its lock.
    writeFileSync(join(home, 'sandbox', 'server.json'), '{"pid": tr');
    const status = pm(home, ['--json', 'sandbox', 'status']);
    let out = '';
    status.child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const code = await new Promise<number | null>((r) => status.child.on('exit', r));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ running: true, pid: ready.pid, baseUrl: ready.baseUrl });
  });

  it('an --ephemeral sandbox beside the running one leaves it the one status and stop act on', async () => {
    const home = tempHome();
    const { child, ready } = await startChild(home);
    const eph = await pm(home, ['--json', 'sandbox', 'start', '--port', '0', '--ephemeral']).first;
    expect(eph.line, eph.stderr).not.toBeNull();
    const ephemeral = JSON.parse(eph.line ?? '{}') as Ready;
    const run = async (args: string[]): Promise<{ code: number | null; out: string }> => {
      const p = pm(home, args);
      let out = '';
      p.child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
      const code = await new Promise<number | null>((r) => p.child.on('exit', r));
      return { code, out };
    };
    // (It named the ephemeral one, whose start had overwritten server.json: stop ended it instead.)
    const status = await run(['--json', 'sandbox', 'status']);
    expect(JSON.parse(status.out)).toMatchObject({ running: true, pid: ready.pid, baseUrl: ready.baseUrl });
    const gone = new Promise((r) => child.once('exit', r));
    const stop = await run(['--json', 'sandbox', 'stop']);
    expect(JSON.parse(stop.out)).toMatchObject({ stopped: true, pid: ready.pid });
    await gone;
    expect(() => process.kill(ephemeral.pid, 0)).not.toThrow();
  });

  it('a second start while the first still loads its state (its event loop busy) names its pid: starting', async () => {
    const home = tempHome();
    // A holder of the state lock that is busy the way a sandbox is while StateStore.open() reads
    // a large state: the lock socket accepts connections but nobody answers.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { acquireDirLock } = await import(${JSON.stringify(pathToFileURL(join(process.cwd(), 'dist/sandbox/lock.js')).href)});
await acquireDirLock(${JSON.stringify(join(home, 'sandbox'))});
process.stdout.write('locked\\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(holder);
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.on('data', (c: Buffer) => c.toString('utf8').includes('locked') && resolve());
      holder.on('exit', (code) => reject(new Error(`the lock holder exited ${code}`)));
    });
    const second = await pm(home, ['sandbox', 'start', '--port', '0']).first;
    expect(second.code).toBe(5);
    expect(second.stderr).toContain(`a sandbox is starting on this state (pid ${holder.pid})`);
    expect(second.stderr).not.toContain('pid 0');
    // The sandbox's own lock says the same when it meets the busy holder.
    await expect(startSandbox({ port: 0, dataDir: join(home, 'sandbox') })).rejects.toThrow(
      `a sandbox is starting on this state (pid ${holder.pid})`,
    );
    const status = pm(home, ['--json', 'sandbox', 'status']);
    let out = '';
    status.child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    expect(await new Promise<number | null>((r) => status.child.on('exit', r))).toBe(7);
    expect(JSON.parse(out)).toEqual({ running: true, starting: true, healthy: false, pid: holder.pid });
  });

  it('two `sandbox start --detach` at once: the one that loses the lock exits 5 naming the holder, not 1', {
    timeout: 30_000,
  }, async () => {
    const home = tempHome();
    const run = () => {
      const { child } = pm(home, ['--json', 'sandbox', 'start', '--detach', '--port', '0']);
      let out = '';
      let err = '';
      child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
      child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
      return new Promise<{ code: number | null; out: string; err: string }>((r) => child.on('exit', (code) => r({ code, out, err })));
    };
    const both = await Promise.all([run(), run()]);
    const won = both.find((r) => r.code === 0);
    if (won) detached.push((JSON.parse(won.out) as Ready).pid);
    expect(both.map((r) => r.code).sort()).toEqual([0, 5]);
    const lost = both.find((r) => r.code === 5);
    const error = (JSON.parse(lost?.err ?? '{}') as { error?: { code?: string; message?: string } }).error;
    expect(error, lost?.err).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/^a sandbox is (starting|already running) on this state \(pid [1-9]\d*\)$/),
    });
  });

  it.runIf(process.platform === 'linux')(
    'a sandbox killed with -9 that its parent has not reaped yet (a zombie, as where PID 1 reaps late) is not running',
    { timeout: 30_000 },
    async () => {
      const home = tempHome();
      // A process whose parent never waits for it: once it exits it stays a zombie (state Z).
      const pidFile = join(home, 'zombie.pid');
      const parent = spawn('bash', ['-c', `sh -c 'echo $$ > ${pidFile}; exec sleep 0.2' & exec sleep 30`], { stdio: 'ignore' });
      children.push(parent);
      let zombie = 0;
      await until(() => {
        if (!existsSync(pidFile)) return false;
        zombie = Number(readFileSync(pidFile, 'utf8').trim());
        try {
          const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
          return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
        } catch {
          return false;
        }
      }, 10_000);
      // The run file of a sandbox that was that process.
      const { ready } = await startChild(home);
      const first = children.at(-1);
      first?.kill('SIGKILL');
      await new Promise((r) => first?.once('exit', r));
      writeFileSync(
        join(home, 'sandbox', 'server.json'),
        JSON.stringify({
          pid: zombie,
          baseUrl: ready.baseUrl,
          wsUrl: ready.baseUrl.replace('http', 'ws'),
          startedAt: new Date().toISOString(),
          ephemeral: false,
        }),
      );
      const status = pm(home, ['--json', 'sandbox', 'status']);
      let out = '';
      status.child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
      await new Promise((r) => status.child.on('exit', r));
      expect(JSON.parse(out)).toMatchObject({ running: false });
      const again = await startChild(home);
      expect(again.ready.pid).not.toBe(zombie);
    },
  );

  it('a kill -9 releases the lock: the next start takes the state over (stale lock.sock replaced)', async () => {
    const home = tempHome();
    const { child } = await startChild(home);
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    expect(existsSync(join(home, 'sandbox', 'lock.sock'))).toBe(true);
    const again = await startChild(home);
    expect(again.ready.pid).not.toBe(child.pid);
  });
});
