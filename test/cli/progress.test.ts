// Live progress on a TTY (issue 14): a batch shows placed / failed / remaining, rate and ETA on
// stderr; locally invalid lines are reported before the first order and printed once; a slow
// markets list --all shows progress too. Nothing of it without a TTY.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = () => accountEnv(sb.current, 'alice', home);
// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '');

describe('progress on a TTY', () => {
  it('a batch shows placed / failed / remaining, rate and ETA; an invalid line is printed once, before any order', async () => {
    const file = join(home, 'orders.ndjson');
    const line = (price: string) => JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price, size: '5' });
    writeFileSync(
      file,
      [
        line('0.11'),
        JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '7', size: '5' }),
        line('0.12'),
        line('0.13'),
      ].join('\n'),
    );
    const r = await runPm(['order', 'place', '--file', file, '--batch-id', 'progress-1'], { env: env(), tty: true, columns: 160 });
    const err = plain(r.stderr);
    expect(r.code).toBe(8);
    expect(err).toMatch(/placing .* 3\/3 \| 3 placed, 0 failed, 0 unknown, 0 left \| [\d.]+\/s \| ETA/);
    // Said once on stderr, before any order; the stdout table has its row too (a row for every
    // line, so the summary counts what the table shows).
    expect(err.match(/price 7 is out of range/g)).toHaveLength(1);
    expect(plain(r.stdout)).toMatch(/NOT SENT/);
    expect(err.indexOf('line 2:')).toBeLessThan(err.indexOf('placing'));
    const piped = await runPm(['order', 'place', '--file', file, '--batch-id', 'progress-2'], { env: env() });
    expect(piped.stderr).not.toMatch(/placing/);
  });

  it('markets list --all shows progress when it takes more than a moment', async () => {
    await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 900, match: 'GET /markets/active' }),
    });
    try {
      const r = await runPm(['markets', 'list', '--all'], { env: env(), tty: true, columns: 160 });
      expect(r.code).toBe(0);
      expect(plain(r.stderr)).toMatch(/markets .* (\d+)\/\1/);
    } finally {
      await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs: 0, match: '' }),
      });
    }
    const quick = await runPm(['markets', 'list', '--all'], { env: env(), tty: true, columns: 160 });
    expect(plain(quick.stderr)).not.toMatch(/ETA/);
  });

  it('portfolio history --all shows a live count when it takes more than a moment', async () => {
    await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 900, match: 'GET /portfolio/history' }),
    });
    try {
      const r = await runPm(['portfolio', 'history', '--all'], { env: env(), tty: true, columns: 160 });
      expect(r.code).toBe(0);
      expect(plain(r.stderr)).toMatch(/history \d+ entries \| \d+ pages/);
    } finally {
      await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs: 0, match: '' }),
      });
    }
    const quick = await runPm(['portfolio', 'history', '--all'], { env: env(), tty: true, columns: 160 });
    expect(quick.code).toBe(0);
    expect(plain(quick.stderr)).not.toMatch(/entries \|/);
    const piped = await runPm(['portfolio', 'history', '--all'], { env: env() });
    expect(piped.stderr).not.toMatch(/entries \|/);
  });
});
