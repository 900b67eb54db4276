// `pm watch orders --json` across sandbox crashes: the sandbox is a `pm sandbox start` process on
// a fixed state dir, killed with SIGKILL and started again on the same state and port, three
// times, while orders are placed with `pm order place` all along (while it is down and
// restarting, and right after it is back). Every order pm acknowledged reaches the stream once:
// its placement (or, for a FAK, its execution and settlement) exactly once, and no record twice.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { duplicateKeys, until } from '../helpers/stream.js';

const BIN = join(process.cwd(), 'bin', 'pm.js');
const SLUG = 'btc-100k-2026';
const { home, cleanup } = tempHome();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  cleanup();
});

interface Ready {
  baseUrl: string;
  wsUrl: string;
  accounts: { name: string; privateKey: string; token: { tokenId: string; secret: string } }[];
}

/** `pm sandbox start` on PM_HOME=home; resolves once it prints its ready line. */
async function startSandbox(port: number): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, [BIN, '--json', 'sandbox', 'start', '--port', String(port)], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], PM_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
  });
  return { child, ready };
}

async function kill9(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

interface Line {
  at: number;
  rec: Record<string, unknown>;
}

interface Ack {
  id: string;
  type: 'GTC' | 'FAK';
  at: number;
}

describe('pm watch orders across sandbox crashes', () => {
  it('every acknowledged order reaches the stream exactly once, after three kill -9 and restarts (up to six, until an order is acknowledged within a gap)', {
    timeout: 180_000,
  }, async () => {
    let sandbox = await startSandbox(0);
    const port = Number(new URL(sandbox.ready.baseUrl).port);
    const alice = sandbox.ready.accounts.find((a) => a.name === 'alice');
    if (!alice) throw new Error('no alice');
    const env = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      PM_HOME: home,
      PM_BASE_URL: sandbox.ready.baseUrl,
      PM_WS_URL: sandbox.ready.wsUrl,
      PM_TOKEN_ID: alice.token.tokenId,
      PM_TOKEN_SECRET: alice.token.secret,
    };

    const watch = spawn(process.execPath, [BIN, '--json', '--timeout', '120s', 'watch', 'orders'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(watch);
    const lines: Line[] = [];
    let buf = '';
    let watchErr = '';
    watch.stdout?.on('data', (c: Buffer) => {
      buf += c.toString('utf8');
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      for (const p of parts) lines.push({ at: Date.now(), rec: JSON.parse(p) as Record<string, unknown> });
    });
    watch.stderr?.on('data', (c: Buffer) => (watchErr += c.toString('utf8')));
    const lifecycle = (type: string) => lines.filter((l) => l.rec['event'] === 'lifecycle' && l.rec['type'] === type);
    const events = () => lines.filter((l) => l.rec['event'] === 'orderEvent').map((l) => l.rec);
    const waitLines = (pred: () => boolean, what: string, ms = 60_000) =>
      until(pred, ms).catch(() => {
        throw new Error(
          `timed out waiting for ${what}; watch stderr:\n${watchErr}\nlast lines:\n${lines
            .slice(-20)
            .map((l) => JSON.stringify(l.rec))
            .join('\n')}`,
        );
      });
    await waitLines(() => lifecycle('subscribed').length === 1, 'subscribed');

    // The trader: places orders one after another all along, as alice, through pm itself.
    const acks: Ack[] = [];
    const refusals: string[] = [];
    let n = 0;
    let stop = false;
    // Every third a FAK at 0.99, which takes bob's asks: execution and settlement events.
    const placeOne = async (fak = n % 3 === 2): Promise<void> => {
      const i = n++;
      const argv = ['--json', 'order', 'place', SLUG, 'buy', 'yes', '--price', fak ? '0.99' : '0.05', '--size', fak ? '1' : '2'];
      if (fak) argv.push('--type', 'fak');
      argv.push('--client-id', `crash-${i}`);
      try {
        const r = await runPm(argv, { env: { ...env, PM_PRIVATE_KEY: alice.privateKey } });
        if (r.code === 0) acks.push({ id: r.json<{ orderId: string }>().orderId, type: fak ? 'FAK' : 'GTC', at: Date.now() });
        else refusals.push(`exit ${r.code}`);
      } catch (e) {
        refusals.push(String(e));
      }
    };
    const trader = (async () => {
      while (!stop) await placeOne();
    })();

    // Orders acknowledged while the stream was away (between a disconnect and its resubscribe).
    const gapAcks = () => {
      const gaps = lifecycle('disconnected').map((d, i) => [d.at, lifecycle('resubscribed')[i]?.at ?? Infinity] as const);
      return acks.filter((a) => gaps.some(([from, to]) => a.at > from && a.at < to));
    };
    // Three crashes; a few more (at most six) if no order was acknowledged within a gap yet: the
    // watch may reconnect before the first order after a restart is acknowledged.
    let crashes = 0;
    for (let crash = 1; crash <= 3 || (crash <= 6 && gapAcks().length === 0); crash++) {
      crashes = crash;
      const before = acks.length;
      await until(() => acks.length >= before + 3, 60_000);
      await kill9(sandbox.child);
      sandbox = await startSandbox(port);
      // Right after it is back: very likely before the watch has reconnected.
      await placeOne();
      await placeOne();
      await waitLines(() => lifecycle('caught-up').length === crash, `caught-up after crash ${crash}`);
    }
    stop = true;
    await trader;

    // Every acknowledged order's events, settlement of the FAKs included, reach the stream.
    const have = (id: string, type: string) => events().filter((e) => e['orderId'] === id && e['type'] === type).length;
    await waitLines(
      () => acks.every((a) => (a.type === 'GTC' ? have(a.id, 'PLACEMENT') > 0 : have(a.id, 'EXECUTION') > 0 && have(a.id, 'MINED') > 0)),
      'the events of every acknowledged order',
    );
    // A sentinel placed last arrives after anything still on its way.
    const sentinel = acks.length;
    await placeOne(false);
    const last = acks[sentinel];
    expect(last).toBeDefined();
    await waitLines(() => have(last?.id ?? '', 'PLACEMENT') === 1, 'the sentinel');
    watch.kill('SIGINT');
    expect(await new Promise((r) => watch.once('exit', r))).toBe(130);

    for (const a of acks) {
      if (a.type === 'GTC') expect(have(a.id, 'PLACEMENT'), a.id).toBe(1);
      else expect([have(a.id, 'EXECUTION'), have(a.id, 'MATCHED'), have(a.id, 'MINED')], a.id).toEqual([1, 1, 1]);
    }
    expect(duplicateKeys(lines.map((l) => l.rec))).toEqual([]);
    expect(lifecycle('resubscribed').map((l) => l.rec['confirmed'])).toEqual(Array.from({ length: crashes }, () => true));
    // The gaps were real: orders were acknowledged while the stream was away, and filled in.
    const inGap = gapAcks();
    expect(inGap.length).toBeGreaterThan(0);
    expect(events().filter((e) => e['replayed'] === true).length).toBeGreaterThan(0);
    console.log(
      `crash test: ${acks.length} orders acknowledged (${inGap.length} while the stream was away), ${refusals.length} not acknowledged, ` +
        `${events().filter((e) => e['replayed'] === true).length} events replayed, ${events().length} written`,
    );
  });
});
