// `pm portfolio pnl` draws a line chart (asciichart) when stdout is a terminal: checked through
// a real pseudo-terminal running the built CLI, after a redemption gives carol realised PnL.
import { afterAll, describe, expect, it } from 'vitest';
import { seeded } from '../helpers/account-env.js';
import { runInPty } from '../helpers/pty.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

const carolEnv = () => {
  const a = seeded(sb.current, 'carol');
  return { PM_HOME: home, PM_BASE_URL: sb.current.baseUrl, PM_TOKEN_ID: a.token.tokenId, PM_TOKEN_SECRET: a.token.secret };
};

describe('pm portfolio pnl on a terminal', () => {
  it('draws a line chart through a pseudo-terminal, and only a plain series with --json', async () => {
    // not a pacing test: under a loaded machine the GET + POST pair could meet the per-token limit
    await fetch(`${sb.current.baseUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"rateLimit":false}',
    });
    const redeemed = await runPm(['--json', 'redeem', '--all'], { env: carolEnv() });
    expect(redeemed.code, redeemed.stdout + redeemed.stderr).toBe(0);
    const { CI: _ci, ...rest } = process.env;
    const { code, screen } = await runInPty(['node', 'bin/pm.js', 'portfolio', 'pnl', '--timeframe', '1d'], [], {
      ...rest,
      ...carolEnv(),
      NO_COLOR: '1',
    });
    expect(code, screen).toBe(0);
    expect(screen).toMatch(/realised PnL\s+110\.00/);
    // asciichart's axis and line glyphs, and the top of the scale at carol's realised 110
    expect(screen).toMatch(/┤/);
    expect(screen).toMatch(/[╭╰─]/);
    expect(screen).toMatch(/110\.00 ┤|110\.00 ┼/);
    const json = await runPm(['--json', 'portfolio', 'pnl', '--timeframe', '1d'], { env: carolEnv() });
    expect(json.stdout).not.toMatch(/┤/);
    expect(json.json<{ points: { value: string; valueRaw: string }[] }>().points.at(-1)).toMatchObject({
      value: '110',
      valueRaw: '110000000',
    });
    // piped (no TTY): a sparkline, not the chart
    const piped = await runPm(['portfolio', 'pnl', '--timeframe', '1d'], { env: carolEnv() });
    expect(piped.stdout).not.toMatch(/┤/);
    expect(piped.stdout).toMatch(/[▁█]/);
  });

  it('pm markets history draws the same chart on a terminal, and keeps its JSON', async () => {
    const tty = await runPm(['markets', 'history', 'btc-100k-2026'], { env: carolEnv(), tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toMatch(/┤/);
    const piped = await runPm(['markets', 'history', 'btc-100k-2026'], { env: carolEnv() });
    expect(piped.stdout).not.toMatch(/┤/);
    const json = await runPm(['--json', 'markets', 'history', 'btc-100k-2026'], { env: carolEnv(), tty: true });
    expect(json.json<{ price: string }[]>().length).toBeGreaterThan(1);
  });
});
