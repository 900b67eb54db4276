// Every command that prints a table, drawn on an 80-column terminal against a sandbox with
// data (alice with open orders, positions, trades and a redeemable market; a partner with a
// sub-account; carol with a withdrawal address): no line wider than the terminal (so no wrapped
// row), every row of the --wide table there, no money value cut, and full order ids. The list of
// table commands comes from the command definitions (src/generated/manifest.json and the modules
// they import that call `.table(`), so a new table command fails here until it is added.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInPty } from '../helpers/pty.js';
import { runPm, tempHome } from '../helpers/run.js';
import { postAdmin, useSandbox } from '../helpers/sandbox.js';
import { startSandbox } from '../../src/sandbox/index.js';

const sb = useSandbox({ settlement: { minedAfterMs: 50, confirmedAfterMs: 50 } });
const { home, cleanup } = tempHome();
const other = tempHome();
afterAll(() => {
  cleanup();
  other.cleanup();
});
const PASS = 'tables-80-pass';
const baseEnv = (h: string) => ({ PM_HOME: h, PM_PASSPHRASE: PASS, PM_SCRYPT_N: '1024' });
const pm = (...argv: string[]) => runPm(argv, { env: baseEnv(home) });

/** What the commands need to know of the data: ids made in beforeAll. */
interface Made {
  orderIds: string[];
  childId: number;
  batch: string;
}
const made: Made = { orderIds: [], childId: 0, batch: join(home, 'batch.ndjson') };

/**
 * The table commands, each with the arguments that give it rows. Each runs twice, at 80 columns
 * and with --wide: `before` each run makes what it consumes again; a command that cannot run twice
 * alike (`once`) runs at 80 columns only.
 */
interface Case {
  runs: (m: Made) => string[][];
  before?: () => Promise<void>;
  once?: boolean;
  /** The exit code when not 0. */
  code?: number;
  /** Drawn by `node bin/pm.js` on a pseudo-terminal (else in-process on a TTY of 80 columns). */
  pty?: boolean;
}
const CASES: Record<string, Case> = {
  book: {
    runs: () => [
      ['book', 'btc-100k-2026'],
      ['book', 'us-election-2028'],
    ],
  },
  balance: { runs: () => [['balance'], ['balance', '--by-market']] },
  'config list': { runs: () => [['config', 'list']] },
  'markets feed': { runs: () => [['markets', 'feed', 'btc-100k-2026']] },
  'markets history': { runs: () => [['markets', 'history', 'us-election-2028']] },
  'markets list': { runs: () => [['markets', 'list']], pty: true },
  'markets page': { runs: () => [['markets', 'page', '/crypto']] },
  'markets search': { runs: () => [['markets', 'search', 'bitcoin']] },
  'markets show': {
    runs: () => [
      ['markets', 'show', 'btc-100k-2026'],
      ['markets', 'show', 'us-election-2028'],
    ],
  },
  'order cancel': {
    runs: () => [['--profile', 'carol', 'order', 'cancel', '--all', '--yes']],
    once: true,
  },
  'order journal': { runs: () => [['order', 'journal']] },
  'order list': { runs: () => [['order', 'list']] },
  'order place': { runs: (m) => [['order', 'place', '--file', m.batch, '--yes']], code: 8 },
  'order status': { runs: (m) => [['order', 'status', ...m.orderIds]] },
  'partner allowances': { runs: (m) => [['--profile', 'partner', 'partner', 'allowances', String(m.childId)]] },
  'partner list': { runs: () => [['--profile', 'partner', 'partner', 'list']] },
  'portfolio history': { runs: () => [['portfolio', 'history']] },
  'portfolio positions': { runs: () => [['portfolio', 'positions']], pty: true },
  'portfolio trades': { runs: () => [['portfolio', 'trades']] },
  positions: { runs: () => [['positions']] },
  'profile list': { runs: () => [['profile', 'list']] },
  redeem: { runs: () => [['redeem', 'sol-500-2026', '--yes']], once: true },
  'token list': { runs: () => [['token', 'list']] },
  'markets categories': { runs: () => [['markets', 'categories']] },
  // Any sandbox run has a report (a replay is one kind): alice's fills, cancels and redemption here.
  'sandbox report': { runs: () => [['sandbox', 'report', '--account', 'alice']] },
  'wallet list': { runs: () => [['wallet', 'list']] },
  'withdrawal-address list': { runs: () => [['--profile', 'carol', 'withdrawal-address', 'list']] },
};
/** Table commands drawn by a test of their own: below, or in another file. */
const ELSEWHERE: Record<string, string> = {
  'sandbox start': 'starts a sandbox of its own: the last test here',
  'approve check': 'reads a chain: its own sandbox with --chain, below',
};

interface Entry {
  path: string[];
  file: string;
}
const SRC = resolve('src/commands');
/** The text of `function name(…) {…}` in a module ('' when it has none). */
function functionText(text: string, name: string): string {
  const at = text.search(new RegExp(`function ${name}\\(`));
  if (at < 0) return '';
  const end = text.indexOf('\n}\n', at);
  return text.slice(at, end < 0 ? undefined : end);
}
/**
 * Whether the command module draws a table: it calls `.table(`, or calls a function it imports from
 * src/commands that does (`names`: only these functions of the module count).
 */
function drawsTable(file: string, names?: string[], depth = 0): boolean {
  const text = readFileSync(file, 'utf8');
  const bodies = names ? names.map((n) => functionText(text, n)) : [text];
  if (bodies.some((b) => /\.table\(/.test(b))) return true;
  if (depth > 4) return false;
  // A default import is the whole of another command (pm positions is pm portfolio positions).
  const whole = [...text.matchAll(/import \w+ from '(\.[^']+)\.js'/g)].map((m) => resolve(dirname(file), `${m[1] ?? ''}.ts`));
  if (whole.some((dep) => dep.startsWith(SRC) && drawsTable(dep, undefined, depth + 1))) return true;
  return [...text.matchAll(/import \{([^}]*)\} from '(\.[^']+)\.js'/g)].some((m) => {
    const dep = resolve(dirname(file), `${m[2] ?? ''}.ts`);
    const used = (m[1] ?? '')
      .split(',')
      .map((n) => n.trim().replace(/^type /, ''))
      .filter((n) => /^\w+$/.test(n) && bodies.some((b) => new RegExp(`\\b${n}\\(`).test(b)));
    return dep.startsWith(SRC) && used.length > 0 && drawsTable(dep, used, depth + 1);
  });
}
const tableCommands = (JSON.parse(readFileSync('src/generated/manifest.json', 'utf8')) as Entry[])
  .filter((c) => drawsTable(join(SRC, c.file.replace(/\.js$/, '.ts'))))
  .map((c) => c.path.join(' '));

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const width = (s: string): number => [...s].length;
/** A number as pm prints money, prices and shares (with a decimal point). */
const NUMBER = /^[-+]?\$?\d[\d,]*\.\d+%?$/;

interface Screen {
  code: number | null;
  lines: string[];
  stderr: string;
}

/**
 * `argv` drawn on a terminal `columns` wide: in-process with a TTY of that width (what pm reads of a
 * terminal: isTTY and columns), or, `pty`, as `node bin/pm.js` on a pseudo-terminal (python's pty
 * module), the terminal's own width read by Node. A pseudo-terminal costs a node and a python
 * process a run (~0.2 s of CPU): a few commands are drawn there, the rest in-process (CI's suite on
 * Node 20 was over 4 minutes on 2 cores).
 */
async function onTerminal(
  argv: string[],
  columns: number,
  wide: boolean,
  h = home,
  baseUrl = sb.current.baseUrl,
  pty = false,
): Promise<Screen> {
  if (!pty) {
    const r = await runPm([...(wide ? ['--wide'] : []), ...argv], { env: { ...baseEnv(h), PM_BASE_URL: baseUrl }, tty: true, columns });
    const lines = r.stdout.replace(ANSI, '').split('\n');
    if (lines.at(-1) === '') lines.pop();
    return { code: r.code, lines, stderr: r.stderr };
  }
  const errFile = join(h, `stderr-${columns}-${wide ? 'wide' : 'fit'}.txt`);
  const { code, screen } = await runInPty(
    [process.execPath, 'bin/pm.js', ...(wide ? ['--wide'] : []), ...argv],
    [],
    {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      ...baseEnv(h),
      PM_BASE_URL: baseUrl,
      PTY_COLUMNS: String(columns),
      PTY_STDERR: errFile,
    },
    30_000,
  );
  const lines = screen.replace(ANSI, '').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return { code, lines, stderr: readFileSync(errFile, 'utf8') };
}

/** The columns the note on stderr names as cut to fit ("(A, B hidden; C cut to fit 80 columns…)"). */
function cutColumns(stderr: string): string[] {
  const m = /;? ?([^;(]*) cut to fit \d+ columns/.exec(stderr);
  return m?.[1] ? m[1].split(', ') : [];
}

/** The header of the column at character `pos` of a row under `header` (headers are 2+ spaces apart). */
function columnAt(header: string, pos: number): string {
  let name = '';
  for (const m of header.matchAll(/\S+(?: \S+)*/g)) if ((m.index ?? 0) <= pos) name = m[0];
  return name.replace(/…$/, '');
}

/** A table's header row: capitals, columns two spaces or more apart, no digit. */
const isHeader = (line: string): boolean => /[A-Z]/.test(line) && line === line.toUpperCase() && /\S {2,}\S/.test(line) && !/\d/.test(line);
/** Money or a price cut: `5.149…`, `+89.7…`, `$1,2…` (a long integer is an id, e.g. a position id). */
const CUT_NUMBER = /^[-+]?\$?\d[\d,]*\.\d*…$|^([-+]\$?|\$)\d[\d,]*…$/;

/**
 * The rules of a table on an 80-column terminal, for every table in `fit` (from its header row to
 * the next empty line; prose around it may wrap): no row wider than 80; what is cut is cut in a
 * column the note on stderr names, and no number is cut; every order id shown whole by --wide is
 * whole, or the columns cut are id columns only; with `wide` (the same run with --wide), every
 * word not cut is the one --wide shows on that row.
 */
function checkFit(what: string, fit: Screen, wide: Screen | undefined): void {
  const cut = cutColumns(fit.stderr);
  let header = '';
  let rows = 0;
  fit.lines.forEach((line, i) => {
    if (line.trim() === '') header = '';
    else if (isHeader(line)) header = line;
    if (header === '') return;
    rows++;
    expect(width(line), `${what}\nwider than 80: ${line}`).toBeLessThanOrEqual(80);
    const wideTokens = wide ? (wide.lines[i] ?? '').split(/\s+/) : undefined;
    for (const m of line.matchAll(/\S+/g)) {
      const token = m[0];
      if (!token.includes('…')) {
        if (wideTokens) expect(wideTokens, `${what}\n${token} not in the wide row ${wide?.lines[i]}`).toContain(token);
        continue;
      }
      if (line === header) continue;
      const column = columnAt(header, m.index ?? 0);
      expect(cut, `${what}\n${token} cut in ${column}, which the note does not name`).toContain(column);
      expect(token, `${what}\nmoney cut in ${column}`).not.toMatch(CUT_NUMBER);
      const whole = wideTokens?.filter((w) => w.startsWith(token.replace(/…$/, ''))) ?? [];
      expect(whole.length === 0 || !whole.every((w) => NUMBER.test(w)), `${what}\nmoney cut: ${token}`).toBe(true);
    }
  });
  expect(rows, `${what}\nno table`).toBeGreaterThan(1);
  // Order ids whole (the copy on the terminal is an id an order command takes), or only ids cut.
  const screen = fit.lines.join('\n');
  const ids = made.orderIds.filter((id) => (wide ?? fit).lines.some((l) => l.includes(id)));
  if (ids.some((id) => !screen.includes(id)))
    expect(
      cut.filter((col) => !/ID$/.test(col)),
      `${what}\norder ids cut with other columns`,
    ).toEqual([]);
}

beforeAll(async () => {
  await postAdmin(sb.current, 'faults', { rateLimit: false });
  const url = sb.current.baseUrl;
  for (const name of ['alice', 'partner', 'carol']) {
    const r = await pm('--base-url', url, 'init', '--sandbox', '--account', name, '--profile-name', name, '--yes');
    expect(r.code, r.stderr).toBe(0);
  }
  expect((await pm('profile', 'use', 'alice')).code).toBe(0);
  // Alice: resting orders in three markets, fills against bob's quotes
  // (trades, positions, fees), and a position in a market resolved YES (to redeem).
  for (const [market, price, id] of [
    ['btc-100k-2026', '0.10', 'rest-btc-1'],
    ['btc-100k-2026', '0.11', 'rest-btc-2'],
    ['gpt-6-release-2026', '0.05', 'rest-gpt-1'],
    ['world-cup-2026-brazil', '0.05', 'rest-wc-1'],
  ] as const) {
    const r = await pm('--json', 'order', 'place', market, 'buy', 'yes', '--price', price, '--size', '1234.5', '--client-id', id);
    expect(r.code, r.stderr).toBe(0);
    made.orderIds.push(r.json<{ orderId: string }>().orderId);
  }
  // Carol's orders in two markets, to cancel (pm order cancel --all: a table of markets).
  for (const market of ['fed-cut-december', 'us-election-2028-republican']) {
    const r = await pm('--profile', 'carol', 'order', 'place', market, 'buy', 'yes', '--price', '0.04', '--size', '12.5');
    expect(r.code, r.stderr).toBe(0);
  }
  for (const market of ['btc-100k-2026', 'sol-500-2026', 'gpt-6-release-2026']) {
    const r = await pm('--json', 'order', 'place', market, 'buy', 'yes', '--type', 'fak', '--price', '0.99', '--size', '57.25');
    expect(r.code, r.stderr).toBe(0);
  }
  expect((await pm('sandbox', 'resolve', 'sol-500-2026', 'yes', '--yes')).code).toBe(0);
  const partner = await pm('--json', '--profile', 'partner', 'partner', 'create', '--server-wallet', '--name', 'corner-shop', '--yes');
  expect(partner.code, partner.stderr).toBe(0);
  made.childId = partner.json<{ profileId: number }>().profileId;
  // Its allowances settled before the table is drawn: a target confirmed between the plain run
  // and the --wide one it is compared with read as a cut cell.
  const ready = await pm('--json', '--profile', 'partner', 'partner', 'allowances', String(made.childId), '--wait');
  expect(ready.code, ready.stderr).toBe(0);
  const carol = await pm(
    '--profile',
    'carol',
    'withdrawal-address',
    'add',
    '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    '--label',
    'cold storage',
    '--yes',
  );
  expect(carol.code, carol.stderr).toBe(0);
  writeFileSync(
    made.batch,
    `${[
      { market: 'gpt-6-release-2026', side: 'buy', outcome: 'yes', price: '0.02', size: '10', clientOrderId: 'batch-line-1' },
      { market: 'gpt-6-release-2026', side: 'buy', outcome: 'yes', price: '0.03', size: '10', clientOrderId: 'batch-line-2' },
      { market: 'no-such-market-at-all', side: 'buy', outcome: 'yes', price: '0.03', size: '10' },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n')}\n`,
  );
}, 120_000);

describe('tables at 80 columns on a terminal', () => {
  it('every table command of the command definitions is drawn here (or elsewhere, named)', () => {
    expect(tableCommands.length).toBeGreaterThan(20);
    expect([...tableCommands].sort()).toEqual([...Object.keys(CASES), ...Object.keys(ELSEWHERE)].sort());
  });

  for (const [command, c] of Object.entries(CASES)) {
    it(`pm ${command}: fits, every row, no money cut, whole order ids`, async () => {
      for (const argv of c.runs(made)) {
        await c.before?.();
        const fit = await onTerminal(argv, 80, false, home, sb.current.baseUrl, c.pty);
        const what = `pm ${argv.join(' ')}\n${fit.lines.join('\n')}\n${fit.stderr}`;
        expect(fit.code, what).toBe(c.code ?? 0);
        let wide: Screen | undefined;
        if (!c.once) {
          await c.before?.();
          wide = await onTerminal(argv, 80, true, home, sb.current.baseUrl, c.pty);
          // Every row the wide table has.
          expect(wide.code, what).toBe(c.code ?? 0);
          expect(fit.lines.length, `${what}\n--wide:\n${wide.lines.join('\n')}`).toBe(wide.lines.length);
        }
        checkFit(what, fit, wide);
      }
    }, 60_000);
  }

  it('pm approve check (a sandbox with its chain): fits, every row, the note names what gave way', async () => {
    // The profile's wallet is alice's; the chain sandbox has the same accounts (the development mnemonic).
    const chained = await startSandbox({ port: 0, dataDir: null, chain: {} });
    try {
      const argv = ['approve', 'check', 'us-election-2028-democrat'];
      const fit = await onTerminal(argv, 80, false, home, chained.baseUrl, true);
      const what = `pm ${argv.join(' ')}\n${fit.lines.join('\n')}\n${fit.stderr}`;
      // 8: approvals missing (alice has approved nothing on this chain).
      expect(fit.code, what).toBe(8);
      const wide = await onTerminal(argv, 80, true, home, chained.baseUrl, true);
      expect(wide.code, what).toBe(8);
      expect(fit.lines.length, `${what}\n--wide:\n${wide.lines.join('\n')}`).toBe(wide.lines.length);
      checkFit(what, fit, wide);
      expect(
        fit.lines.filter((l) => /missing/.test(l)),
        what,
      ).toHaveLength(3);
    } finally {
      await chained.close();
    }
  }, 60_000);

  it('pm sandbox start: fits, the note names what gave way', async () => {
    const h = other.home;
    try {
      const fit = await onTerminal(['sandbox', 'start', '--port', '0', '--ephemeral', '--detach'], 80, false, h, sb.current.baseUrl, true);
      const what = `${fit.lines.join('\n')}\n${fit.stderr}`;
      expect(fit.code, what).toBe(0);
      checkFit(what, fit, undefined);
      expect(fit.lines.join('\n')).toMatch(/^alice .*0x[0-9a-fA-F]{40} /m);
      expect(fit.stderr).toMatch(/to fit 80 columns: --wide shows every column whole/);
    } finally {
      expect((await runPm(['sandbox', 'stop'], { env: baseEnv(h) })).code).toBe(0);
    }
  });
});
