// What a batch reports: in text mode the stdout table has a row for every line (locally invalid
// ones too) and the summary counts exactly those rows; --json prints one record per line in the
// input's order, -o ndjson as each line completes (each with its line); a money field given as a
// JSON number refuses the line (money is never a float).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { ndjson, runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const pm = (...argv: string[]) => runPm(argv, { env: accountEnv(sb.current, 'alice', home) });
const ordersOf = (clientId: string) => sb.current.ctx.state.orders.filter((o) => o.clientOrderId === clientId);

/** A batch of 7 lines: 1, 3, 6, 7 valid; 2 a number price, 4 not JSON, 5 an unknown market. */
function batch(tag: string): string {
  const file = join(home, `${tag}.ndjson`);
  const line = (price: string | number, n: number, market = 'gpt-6-release-2026') =>
    JSON.stringify({ market, side: 'buy', outcome: 'yes', price, size: '1', clientId: `${tag}-${n}` });
  writeFileSync(
    file,
    `${[line('0.011', 1), line(0.5, 2), line('0.012', 3), 'not json', line('0.013', 5, 'no-such-market'), line('0.014', 6), line('0.015', 7)].join('\n')}\n`,
  );
  return file;
}

beforeAll(async () => {
  await postAdmin(sb.current, 'faults', { rateLimit: false });
});

describe('a batch report', () => {
  it('text: a row for every line, the invalid ones too, and the summary counts those rows', async () => {
    const r = await pm('order', 'place', '--file', batch('text'));
    expect(r.code, r.stderr).toBe(8);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('LINE\tRESULT\tORDER ID\tCLIENT ID\tSTATUS\tFILLED');
    const cells = rows.slice(1).map((l) => l.split('\t'));
    expect(cells.map((c) => c[0])).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    const results = cells.map((c) => c[1]);
    expect(results.filter((x) => x === 'placed')).toHaveLength(4);
    expect(cells[1]?.[1]).toBe('NOT SENT');
    expect(cells[1]?.[4]).toMatch(/price must be a decimal string/);
    expect(cells[3]?.[1]).toBe('NOT SENT');
    const summary = /^(\d+) placed, (\d+) skipped, (\d+) failed/m.exec(r.stderr);
    expect(summary?.slice(1, 4), r.stderr).toEqual(['4', '0', '3']);
    expect(ordersOf('text-2')).toHaveLength(0);
  });

  it('--json: one record per line in the input order', async () => {
    const r = await pm('--json', 'order', 'place', '--file', batch('json'));
    expect(r.code).toBe(8);
    const out = ndjson<{ line: number; ok: boolean; error?: { code: string; message: string } }>(r.stdout);
    expect(out.map((o) => o.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(out.map((o) => o.ok)).toEqual([true, false, true, false, false, true, true]);
    expect(out[1]?.error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/price must be a decimal string/) });
    expect(ordersOf('json-2')).toHaveLength(0);
  });

  it('-o ndjson: one record per line as each completes, each with its line', async () => {
    const r = await pm('-o', 'ndjson', 'order', 'place', '--file', batch('nd'));
    expect(r.code).toBe(8);
    const out = ndjson<{ line: number; ok: boolean }>(r.stdout);
    expect(out.map((o) => o.line).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a JSON number for size or amount refuses the line too, before anything is sent', async () => {
    const file = join(home, 'numbers.ndjson');
    writeFileSync(
      file,
      `${[
        { market: 'gpt-6-release-2026', side: 'buy', outcome: 'yes', price: '0.02', size: 1, clientId: 'num-size' },
        { market: 'gpt-6-release-2026', side: 'buy', outcome: 'yes', type: 'fok', amount: 1, clientId: 'num-amount' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n')}\n`,
    );
    const r = await pm('--json', 'order', 'place', '--file', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/every line of the batch is invalid/);
    expect(ordersOf('num-size')).toHaveLength(0);
  });

  it('order replace --file: a JSON number price or size refuses that line as the batch does (nothing cancelled), the next line is replaced', async () => {
    for (const id of ['rp-1', 'rp-2', 'rp-3']) {
      const placed = await pm(
        '--json',
        'order',
        'place',
        'gpt-6-release-2026',
        'buy',
        'yes',
        '--price',
        '0.02',
        '--size',
        '1',
        '--client-id',
        id,
      );
      expect(placed.code, placed.stderr).toBe(0);
    }
    const file = join(home, 'replace-numbers.ndjson');
    writeFileSync(
      file,
      `${[
        { clientId: 'rp-1', price: 0.03, newClientId: 'rp-1b' },
        { clientId: 'rp-2', size: 2, newClientId: 'rp-2b' },
        { clientId: 'rp-3', price: '0.03', newClientId: 'rp-3b' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n')}\n`,
    );
    const r = await pm('--json', 'order', 'replace', '--file', file);
    expect(r.code, r.stderr).toBe(8);
    const out = ndjson<{ line: number; ok: boolean; error?: { code: string; message: string } }>(r.stdout);
    expect(out.map((o) => [o.line, o.ok])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(out[0]?.error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/price must be a decimal string/) });
    expect(out[1]?.error).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/size must be a decimal string/) });
    // The refused lines' orders rest as they were; nothing was placed for them.
    expect(ordersOf('rp-1').map((o) => o.status)).toEqual(['LIVE']);
    expect(ordersOf('rp-2').map((o) => o.status)).toEqual(['LIVE']);
    expect(ordersOf('rp-1b')).toHaveLength(0);
    expect(ordersOf('rp-2b')).toHaveLength(0);
    expect(ordersOf('rp-3').map((o) => o.status)).toEqual(['CANCELED']);
    expect(ordersOf('rp-3b').map((o) => o.status)).toEqual(['LIVE']);
  });
});
