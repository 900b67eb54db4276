// pm book --depth N: the same levels in the table, --json, -o ndjson and --watch (a terminal's
// screen or NDJSON snapshots); piped, stdout is the levels alone (the summary on stderr);
// --count and --until are for --watch and refused without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/index.js';
import { accountEnv } from '../helpers/account-env.js';
import { limitOrder } from '../helpers/orders.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = () => ({ ...accountEnv(sb.current, 'alice', home), PM_WS_URL: sb.current.wsUrl });
const pm = (...argv: string[]) => runPm(argv, { env: env() });
const MARKET = 'btc-100k-2026';

interface Level {
  price: string;
  size: string;
  sizeRaw: string;
}

beforeAll(async () => {
  // Alice's bids under bob's quotes: at least five levels a side.
  for (const price of ['0.30', '0.31', '0.32', '0.33', '0.34']) {
    const r = await pm(...limitOrder(MARKET, 'buy', 'yes', price, '5'));
    expect(r.code, r.stderr).toBe(0);
  }
  const full = (await pm('--json', 'book', MARKET, '--depth', '50')).json<{ bids: Level[]; asks: Level[] }>();
  expect(full.bids.length).toBeGreaterThan(3);
  expect(full.asks.length).toBeGreaterThan(1);
});

describe('pm book --depth', () => {
  it('--json: at most N levels a side, the best ones (the depth totals are the whole book)', async () => {
    const full = (await pm('--json', 'book', MARKET, '--depth', '50')).json<{ bids: Level[]; asks: Level[]; depth: unknown }>();
    for (const n of [1, 2]) {
      const r = await pm('--json', 'book', MARKET, '--depth', String(n));
      expect(r.code, r.stderr).toBe(0);
      const b = r.json<{ bids: Level[]; asks: Level[]; depth: unknown }>();
      expect(b.bids).toEqual(full.bids.slice(0, n));
      expect(b.asks).toEqual(full.asks.slice(0, n));
      expect(b.depth).toEqual(full.depth);
    }
    // --outcome no: the mirrored book, cut the same way.
    const no = (await pm('--json', 'book', MARKET, '--outcome', 'no', '--depth', '1')).json<{ bids: Level[]; asks: Level[] }>();
    expect([no.bids.length, no.asks.length]).toEqual([1, 1]);
  });

  it("--outcome no names the NO token, in the CLI's JSON and the library's", async () => {
    const m = sb.current.ctx.state.markets.find((x) => x.slug === MARKET);
    const [yesId, noId] = m?.positionIds ?? [];
    expect(noId).toBeTruthy();
    const yes = (await pm('--json', 'book', MARKET)).json<{ tokenId: string; outcome: string }>();
    expect(yes).toMatchObject({ tokenId: yesId, outcome: 'YES' });
    const no = (await pm('--json', 'book', MARKET, '--outcome', 'no')).json<{ tokenId: string; outcome: string }>();
    expect(no).toMatchObject({ tokenId: noId, outcome: 'NO' });
    const client = createClient({ baseUrl: sb.current.baseUrl });
    try {
      expect(await client.markets.book(MARKET, { outcome: 'no' })).toMatchObject({ tokenId: noId, outcome: 'NO' });
    } finally {
      await client.close();
    }
  });

  it('-o ndjson: N levels a side, one a line', async () => {
    const r = await pm('-o', 'ndjson', 'book', MARKET, '--depth', '2');
    expect(r.code, r.stderr).toBe(0);
    const lines = ndjson<{ side: string }>(r.stdout);
    expect(lines.map((l) => l.side)).toEqual(['ask', 'ask', 'bid', 'bid']);
  });

  it('the table: N levels a side, and piped (pm book X > f) the levels alone on stdout, the summary on stderr', async () => {
    const r = await pm('book', MARKET, '--depth', '2');
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('SIDE\tPRICE\tSHARES\tUSD');
    expect(rows.slice(1).map((l) => l.split('\t')[0])).toEqual(['ask', 'ask', 'bid', 'bid']);
    expect(r.stderr).toMatch(/^best bid \/ ask +0\.\d+ \/ 0\.\d+$/m);
    const help = await pm('book', '--help');
    expect(help.stdout).toMatch(/levels alone/);
  });

  it('--watch --depth N: each NDJSON snapshot has N levels a side (pm book --watch and pm watch book)', async () => {
    for (const argv of [
      ['book', MARKET, '--watch', '--count', '1', '--depth', '1'],
      ['--json', 'watch', 'book', MARKET, '--count', '1', '--depth', '2'],
    ]) {
      const r = await pm(...argv);
      expect(r.code, r.stderr).toBe(0);
      const n = Number(argv.at(-1));
      const snaps = ndjson<{ event: string; orderbook?: { bids: unknown[]; asks: unknown[] } }>(r.stdout).filter((s) => s.orderbook);
      expect(snaps.length, r.stdout).toBe(1);
      expect([snaps[0]?.orderbook?.bids.length, snaps[0]?.orderbook?.asks.length]).toEqual([n, n]);
    }
  });

  it('--count and --until without --watch are refused (exit 2), nothing silently ignored', async () => {
    for (const extra of [
      ['--count', '3'],
      ['--until', '2030-01-01T00:00:00Z'],
    ]) {
      const r = await pm('book', MARKET, ...extra);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/--watch/);
    }
  });
});
