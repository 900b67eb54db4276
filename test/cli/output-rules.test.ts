// The conventions of docs/output.md, checked on the output of every command that reads (and of
// the local ones that print data), found by walking the manifest: one time format per output mode
// (ISO 8601 UTC with milliseconds in JSON, `2026-11-28 04:45:12` in text), money as decimal
// strings with a `…Raw` sibling that agrees, no float in a price or amount field (stream records
// included), and one array-or-NDJSON rule (`--json` is one document, `-o ndjson` one item a line,
// `--all` changes neither). A read command added to the manifest fails here until it has a case.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRunInfo } from '../../src/core/sandboxctl.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { livePm, newMarket, place } from '../helpers/stream.js';

const sb = useSandbox({ settlement: { minedAfterMs: 40, confirmedAfterMs: 40 } });
const { home, cleanup } = tempHome();
afterAll(cleanup);
const ALICE = 1001;
const BOB = 1002;
const env = (): Record<string, string> => ({
  PM_HOME: home,
  PM_PASSPHRASE: 'rules-pass-phrase',
  PM_SCRYPT_N: '1024',
  PM_BASE_URL: sb.current.baseUrl,
  PM_IDENTITY_TOKEN: 'idt_sandbox_alice',
});
const pm = (...argv: string[]) => runPm(argv, { env: env() });

beforeAll(async () => {
  const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
  if (!alice) throw new Error('no alice');
  writeFileSync(join(home, 'key.txt'), alice.privateKey);
  writeFileSync(join(home, 'secret.txt'), alice.token.secret);
  expect((await pm('wallet', 'import', 'alice', '--file', join(home, 'key.txt'))).code).toBe(0);
  expect((await pm('token', 'add', '--token-id', alice.token.tokenId, '--secret-file', join(home, 'secret.txt'))).code).toBe(0);
  // The sandbox of this file, as \`pm sandbox start --detach\` would have recorded it.
  writeRunInfo(home, {
    pid: process.pid,
    baseUrl: sb.current.baseUrl,
    wsUrl: sb.current.wsUrl,
    startedAt: new Date().toISOString(),
    ephemeral: true,
  });
  // alice's data: a fill (trades, history, a position) and a resting order with a client id.
  expect((await pm('order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.99', '--size', '3', '--type', 'fak')).code).toBe(0);
  expect((await pm('order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.1', '--size', '5', '--client-id', 'rules-1')).code).toBe(
    0,
  );
});

/** Every read command (and the local ones that print data), with the arguments it runs with here. */
const CASES: Record<string, string[][]> = {
  book: [['book', 'btc-100k-2026']],
  balance: [['balance']],
  'config get': [['config', 'get', 'output']],
  'config list': [['config', 'list']],
  'config set': [['config', 'set', 'timeout', '30s']],
  doctor: [['doctor']],
  'markets categories': [['markets', 'categories']],
  'markets feed': [['markets', 'feed', 'btc-100k-2026']],
  'markets history': [['markets', 'history', 'btc-100k-2026']],
  'markets list': [
    ['markets', 'list', '--limit', '3'],
    ['markets', 'list', '--all'],
  ],
  'markets page': [['markets', 'page', '/crypto', '--limit', '2']],
  'markets search': [['markets', 'search', 'bitcoin']],
  'markets show': [['markets', 'show', 'btc-100k-2026']],
  'order journal': [['order', 'journal']],
  'order list': [['order', 'list']],
  'order status': [['order', 'status', '--client-id', 'rules-1']],
  'portfolio history': [
    ['portfolio', 'history'],
    ['portfolio', 'history', '--all'],
  ],
  'portfolio pnl': [['portfolio', 'pnl']],
  'portfolio positions': [['portfolio', 'positions']],
  'portfolio trades': [['portfolio', 'trades']],
  positions: [['positions']],
  'profile list': [['profile', 'list']],
  'profile use': [['profile', 'use', 'default']],
  'sandbox status': [['sandbox', 'status']],
  'token capabilities': [['token', 'capabilities']],
  'token list': [['token', 'list']],
  version: [['version']],
  'wallet address': [['wallet', 'address', 'alice']],
  'wallet list': [['wallet', 'list']],
  whoami: [['whoami']],
  'withdrawal-address list': [['withdrawal-address', 'list']],
};

/** Streams: checked record by record below. */
const STREAMS = ['watch book', 'watch markets', 'watch orders', 'watch positions', 'watch prices', 'watch tx'];

/** Read or local commands that print no data to check here, and why. */
const SKIPPED: Record<string, string> = {
  'approve check': 'reads the chain (test/chain/approve.test.ts)',
  completion: 'prints a shell script',
  'config unset': 'a confirmation of a local change',
  demo: 'runs other commands (test/cli/demo.test.ts)',
  init: 'a wizard (test/e2e/init.e2e.test.ts)',
  lock: 'stops the session agent',
  'partner allowances': "a partner's command (test/cli/partner.test.ts)",
  'partner list': "a partner's command (test/cli/partner.test.ts)",
  record: 'writes a recording file (test/e2e/record.e2e.test.ts)',
  'sandbox report': 'a report of a sandbox replay run (its own tests)',
  'sandbox start': 'starts a server',
  'sandbox stop': 'stops a server',
  shell: 'an interactive session (test/cli/shell.test.ts)',
  'token add': 'a confirmation of a local change',
  'token use': 'a confirmation of a local change (test/cli/same-words.test.ts)',
  unlock: 'starts the session agent',
  'wallet create': 'a confirmation of a local change',
  'wallet import': 'a confirmation of a local change',
  'wallet passphrase': 'a confirmation of a local change',
};

/** Objects pm passes through as the exchange sends them (docs/output.md): market objects. */
const MARKET_COMMANDS = new Set(['markets list', 'markets page', 'markets search', 'markets show']);
/** Settings: a `value` there is a setting's (a timeout in ms), not money; only times are checked. */
const SETTINGS_COMMANDS = new Set(['config get', 'config list', 'config set']);

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TIME_KEY = /^(ts|at|timestamp|time|date)$|[a-z](At|Timestamp|Date|Time)$/;
/** Fields that hold a price or an amount of money or shares (by name). */
const MONEY_KEY = /price|amount|size|usd|fee|cost|value|pnl|balance|locked|held|free|shares|notional|spread|midpoint|remaining|net$/i;
/** pm's own amount fields: a decimal string with its …Raw beside it. */
const OWN_AMOUNT =
  /^(size|amount|usd|fee|net|cost|value|held|locked|free|shares|remaining|balance|unrealisedPnl|realisedPnl|lockedCollateral|bids|asks|bidNotional|askNotional|minSize|remainingSize|matchedSize|amountContracts|amountCollateral|feeAmountCollateral|feeAmountContracts)$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Subtrees kept verbatim: the wire request the journal recorded as sent. */
const VERBATIM = new Set(['request']);

interface Found {
  problems: string[];
}

/**
 * Checks one JSON value against the rules; `exchange`: inside an object the exchange defines
 * (feed events, trades, history entries), whose own amount fields keep the exchange's names and
 * units; times and floats are checked there too.
 */
function check(v: unknown, path: string, f: Found, exchange: boolean): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => check(x, `${path}[${i}]`, f, exchange));
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  const o = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(o)) {
    const at = `${path}.${k}`;
    if (VERBATIM.has(k)) continue;
    if (TIME_KEY.test(k) && x !== null) {
      if (typeof x === 'string' && !ISO_MS.test(x)) f.problems.push(`${at}: time "${x}" is not ISO 8601 UTC with ms`);
      if (typeof x === 'number' && !(typeof o['at'] === 'string' && ISO_MS.test(o['at'])))
        f.problems.push(`${at}: time ${x} is a number without its ISO form beside it (at)`);
    }
    if (typeof x === 'number' && !Number.isInteger(x) && MONEY_KEY.test(k)) f.problems.push(`${at}: ${x} is a float`);
    if (typeof x === 'number' && Number.isInteger(x) && MONEY_KEY.test(k) && !/Bps$|^openOrders$|^makerMatches$/.test(k))
      f.problems.push(`${at}: ${x} is a number (money is a decimal string)`);
    if (k.endsWith('Raw') && x !== null) {
      const dec = o[k.slice(0, -3)];
      if (typeof x !== 'string' || !/^-?\d+$/.test(x)) f.problems.push(`${at}: ${JSON.stringify(x)} is not an integer string`);
      else if (typeof dec !== 'string' || toRaw(dec) !== BigInt(x))
        f.problems.push(`${at}: ${x} disagrees with ${k.slice(0, -3)} ${JSON.stringify(dec)}`);
    }
    if (!exchange && OWN_AMOUNT.test(k) && typeof x === 'string' && DECIMAL.test(x) && !(`${k}Raw` in o))
      f.problems.push(`${at}: "${x}" has no ${k}Raw beside it`);
    check(x, at, f, exchange);
  }
}

/** A decimal string's raw units (6 decimals). */
function toRaw(d: string): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(d);
  if (!m) return null;
  const raw = BigInt(m[2] ?? '0') * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0'));
  return m[1] === '-' ? -raw : raw;
}

/** Which items of a command's JSON are exchange objects (their own amount fields not pm's). */
const EXCHANGE_ITEMS = new Set(['markets feed', 'portfolio history', 'portfolio trades']);

function problemsOf(name: string, doc: unknown): string[] {
  const f: Found = { problems: [] };
  if (MARKET_COMMANDS.has(name)) return [];
  check(doc, '$', f, EXCHANGE_ITEMS.has(name));
  return SETTINGS_COMMANDS.has(name) ? f.problems.filter((p) => !/\.value: /.test(p)) : f.problems;
}

/** Every time written in text: the one text form, UTC to the second. */
function textTimeProblems(text: string): string[] {
  const times = text.match(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?(\.\d+)?Z?( UTC)?/g) ?? [];
  return times.filter((t) => !/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(t)).map((t) => `text time "${t}" is not YYYY-MM-DD HH:MM:SS`);
}

const manifest = JSON.parse(readFileSync(new URL('../../src/generated/manifest.json', import.meta.url), 'utf8')) as {
  path: string[];
  effect: string;
}[];

describe('the manifest', () => {
  it('every read or local command has a case, a stream check or a reason to skip', () => {
    const named = manifest.filter((c) => c.effect === 'read' || c.effect === 'local').map((c) => c.path.join(' '));
    const missing = named.filter((n) => !(n in CASES) && !STREAMS.includes(n) && !(n in SKIPPED));
    expect(missing).toEqual([]);
    // And nothing here names a command that is gone.
    for (const n of [...Object.keys(CASES), ...STREAMS, ...Object.keys(SKIPPED)]) expect(named, n).toContain(n);
  });
});

describe('--json of every command: times, money, one document', () => {
  for (const [name, runs] of Object.entries(CASES)) {
    for (const argv of runs) {
      it(`pm --json ${argv.join(' ')}`, async () => {
        const r = await pm('--json', ...argv);
        expect(r.code, r.stderr).toBe(0);
        // One JSON document, whatever --all says.
        const doc = JSON.parse(r.stdout) as unknown;
        expect(problemsOf(name, doc)).toEqual([]);
        if (Array.isArray(doc)) {
          // -o ndjson: the same items, one a line.
          const nd = await pm('-o', 'ndjson', ...argv);
          expect(nd.code).toBe(0);
          const lines = nd.stdout.split('\n').filter(Boolean);
          expect(lines).toHaveLength(doc.length);
          for (const l of lines) expect(Array.isArray(JSON.parse(l))).toBe(false);
        }
      });
      it(`pm ${argv.join(' ')}: times in the one text form`, async () => {
        const r = await pm(...argv);
        expect(r.code, r.stderr).toBe(0);
        expect(textTimeProblems(r.stdout + r.stderr)).toEqual([]);
      });
    }
  }
});

describe('stream records under the same rules', () => {
  it('pm watch … --json: no float, amounts with …Raw, ISO times; text lines with prices at the tick and the text time', async () => {
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    const e = {
      ...env(),
      PM_WS_URL: sb.current.wsUrl,
      PM_TOKEN_ID: alice?.token.tokenId,
      PM_TOKEN_SECRET: alice?.token.secret,
    };
    const slug = 'btc-100k-2026';
    const watches = {
      orders: livePm(['--json', 'watch', 'orders', '--count', '3', '--market', slug], e),
      positions: livePm(['--json', 'watch', 'positions', '--count', '1', '--market', slug], e),
      tx: livePm(['--json', 'watch', 'tx', '--count', '1', '--market', slug], e),
      prices: livePm(['--json', 'watch', 'prices', slug, '--count', '2'], e),
      book: livePm(['--json', 'watch', 'book', slug, '--count', '1'], e),
      markets: livePm(['--json', 'watch', 'markets', '--count', '1'], e),
      text: livePm(['watch', 'prices', slug, '--count', '2'], e),
    };
    for (const [name, w] of Object.entries(watches))
      if (name !== 'text') await w.waitFor(() => w.records().some((r) => r['type'] === 'subscribed'));
    // The text watch is subscribed once its first line (the book's snapshot) is out.
    await watches.text.waitFor(() => watches.text.out.length >= 1);
    await newMarket(sb.current, 'rules-new-market');
    // bob rests an ask; alice takes part of it: order events, a position, a settled tx, a book change.
    place(sb.current, BOB, { slug, side: 'SELL', price: 640_000n, size: 4_000_000n });
    place(sb.current, ALICE, { slug, side: 'BUY', price: 700_000n, size: 2_000_000n, type: 'FAK' });
    const problems: string[] = [];
    for (const [name, w] of Object.entries(watches)) {
      expect(await w.done, `${name}: ${w.err()}`).toBe(0);
      if (name === 'text') continue;
      for (const [i, rec] of w.records().entries()) {
        const f: Found = { problems: [] };
        check(rec, `${name}[${i}]`, f, false);
        problems.push(...f.problems);
        if (JSON.stringify(rec).match(/:-?\d+\.\d+[,}\]]/)) problems.push(`${name}[${i}]: a float in ${JSON.stringify(rec)}`);
      }
    }
    expect(problems).toEqual([]);
    // Text: the stream's prices at the tick's precision, as the static book prints them.
    const lines = watches.text.out;
    expect(lines.length).toBe(2);
    for (const l of lines) {
      expect(textTimeProblems(l)).toEqual([]);
      for (const p of l.match(/\b[01]\.\d+\b/g) ?? []) expect(p, l).toMatch(/^[01]\.\d{3}$/);
    }
    const book = await pm('book', slug);
    for (const l of book.stdout.trimEnd().split('\n').slice(1)) expect(l.split('\t')[1], l).toMatch(/^[01]\.\d{3}$/);
  });
});
