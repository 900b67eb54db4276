// `pm sandbox start --simulate`: with nobody else trading, `pm watch prices <slug> --json`
// receives book updates within seconds; without --simulate only the snapshot comes.
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run.js';

const BIN = 'bin/pm.js';
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PATH: process.env['PATH'], PM_HOME: home, NO_COLOR: '1' };

interface Ready {
  baseUrl: string;
  wsUrl: string;
  simulate?: { rate: number; accounts: { name: string }[] };
}

async function sandboxProcess(extra: string[]) {
  const proc = execa('node', [BIN, 'sandbox', 'start', '--port', '0', '--ephemeral', '--json', ...extra], {
    env,
    reject: false,
    buffer: false,
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let buf = '';
    proc.stdout?.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)) as Ready);
    });
    proc.once('exit', (code) => reject(new Error(`sandbox exited early (${code})`)));
  });
  return { proc, ready };
}

function records(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('pm sandbox start --simulate', () => {
  it('moves the book: watch prices gets updates after the snapshot, nobody else trading', async () => {
    const sb = await sandboxProcess(['--simulate', '--simulate-rate', '20']);
    try {
      expect(sb.ready.simulate?.rate).toBe(20);
      expect(sb.ready.simulate?.accounts.map((a) => a.name)).toContain('bob');
      const t0 = Date.now();
      const r = await execa('node', [BIN, '--json', 'watch', 'prices', 'btc-100k-2026', '--count', '4', '--timeout', '10s'], {
        env: { ...env, PM_BASE_URL: sb.ready.baseUrl, PM_WS_URL: sb.ready.wsUrl },
        reject: false,
        timeout: 20_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(Date.now() - t0).toBeLessThan(15_000);
      const evs = records(r.stdout).filter((x) => x['event'] !== 'lifecycle');
      expect(evs).toHaveLength(4);
      expect(evs[0]?.['event']).toBe('orderbookUpdate'); // the snapshot…
      const books = evs.filter((x) => x['event'] === 'orderbookUpdate');
      const versions = books.map((b) => Number(b['version']));
      expect(new Set(versions).size).toBe(versions.length); // …then new versions of the book
      expect(evs.every((x) => x['marketSlug'] === 'btc-100k-2026')).toBe(true);
    } finally {
      sb.proc.kill('SIGTERM');
      const exit = await sb.proc;
      expect(exit.exitCode).toBe(0); // stopped cleanly, with the simulator running
    }
  }, 40_000);

  it('without --simulate nothing moves: only the snapshot arrives', async () => {
    const sb = await sandboxProcess([]);
    try {
      expect(sb.ready.simulate).toBeUndefined();
      const until = new Date(Date.now() + 3500).toISOString();
      const r = await execa('node', [BIN, '--json', 'watch', 'prices', 'btc-100k-2026', '--until', until], {
        env: { ...env, PM_BASE_URL: sb.ready.baseUrl, PM_WS_URL: sb.ready.wsUrl },
        reject: false,
        timeout: 20_000,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const evs = records(r.stdout).filter((x) => x['event'] !== 'lifecycle');
      expect(evs.map((x) => x['event'])).toEqual(['orderbookUpdate']);
    } finally {
      sb.proc.kill('SIGTERM');
      await sb.proc;
    }
  }, 40_000);

  it('refuses --simulate-rate without --simulate (exit 2)', async () => {
    const r = await execa('node', [BIN, 'sandbox', 'start', '--port', '0', '--ephemeral', '--simulate-rate', '5'], {
      env,
      reject: false,
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--simulate-rate needs --simulate/);
  });
});
