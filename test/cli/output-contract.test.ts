// The output contract (docs/output.md): JSON errors alone on stderr, NDJSON for every list command,
// tab-separated tables when piped, terminal-width tables on a TTY, the output setting's
// precedence, and help pages on stdout with exit 0. (test/helpers/run.ts also checks the JSON
// error contract on every --json run of the whole suite.)
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOADED_PRELOAD, parseLoaded } from '../helpers/loaded.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PM_HOME: home, PM_PASSPHRASE: 'contract-pass', PM_SCRYPT_N: '1024' };
const pm = (...argv: string[]) => runPm(['--base-url', sb.current.baseUrl, ...argv], { env });

beforeAll(async () => {
  // A profile with a wallet and alice's token, so wallet/token/profile lists have rows.
  const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
  if (!alice) throw new Error('no alice');
  const secret = join(home, 'secret.txt');
  writeFileSync(secret, alice.token.secret);
  const key = join(home, 'key.txt');
  writeFileSync(key, alice.privateKey);
  expect((await pm('wallet', 'import', 'alice', '--file', key)).code).toBe(0);
  expect((await pm('token', 'add', '--token-id', alice.token.tokenId, '--secret-file', secret)).code).toBe(0);
});

const ndjsonLines = (stdout: string): Record<string, unknown>[] => {
  expect(stdout.endsWith('\n')).toBe(true);
  return stdout
    .trimEnd()
    .split('\n')
    .map((l) => {
      expect(l.trim()).toBe(l);
      const v = JSON.parse(l) as unknown;
      expect(typeof v === 'object' && v !== null && !Array.isArray(v)).toBe(true);
      return v as Record<string, unknown>;
    });
};

describe('errors with --json', () => {
  it('usage errors print one JSON object on stderr and no commander text', async () => {
    for (const argv of [
      ['--json', 'markts', 'list'],
      ['--json', 'markets', 'list', '--limit', 'abc'],
      ['--json', 'markets', 'list', '--sort', 'sideways'],
      ['--json', 'markets', 'show'],
      ['-o', 'ndjson', 'markets', 'list', '--bogus'],
      ['--json', 'help', 'nonsense'],
    ]) {
      const r = await pm(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      const e = JSON.parse(r.stderr) as { error: { code: string; message: string; hint?: string } };
      expect(e.error.code).toBe('USAGE');
      expect(r.stderr).not.toMatch(/^error:|run with --help|Usage:/m);
    }
    const typo = JSON.parse((await pm('--json', 'markts')).stderr) as { error: { hint: string } };
    expect(typo.error.hint).toMatch(/Did you mean markets\?/);
    // The hint names the command's own help page, as the text error's hint: line does.
    for (const argv of [
      ['markets', 'show'],
      ['markets', 'list', '--bogus'],
    ]) {
      const name = argv.slice(0, 2).join(' ');
      expect((await pm(...argv)).stderr).toMatch(new RegExp(`^error: .*\\nhint: Run pm ${name} --help for usage\\.\\n$`));
      const e = JSON.parse((await pm('--json', ...argv)).stderr) as { error: { hint: string } };
      expect(e.error.hint).toBe(`Run pm ${name} --help for usage.`);
    }
  });

  it('progress and notes go nowhere; a failing command still leaves only the error object', async () => {
    const ok = await pm('--json', 'markets', 'list', '--limit', '2');
    expect(ok.code).toBe(0);
    expect(ok.stderr).toBe('');
    const status = await runPm(['--json', 'sandbox', 'status'], { env });
    expect(status.code).toBe(7);
    expect(JSON.parse(status.stderr)).toMatchObject({ error: { code: 'NETWORK', hint: expect.stringMatching(/pm sandbox start/) } });
    expect(JSON.parse(status.stdout)).toEqual({ running: false });
  });
});

describe('-o ndjson on every list command', () => {
  const cases: [string[], string][] = [
    [['markets', 'list', '--limit', '3'], 'slug'],
    [['markets', 'list', '--all'], 'slug'],
    [['markets', 'search', 'bitcoin'], 'slug'],
    [['markets', 'page', '/crypto', '--limit', '3'], 'slug'],
    [['markets', 'feed', 'btc-100k-2026'], 'eventType'],
    [['markets', 'history', 'btc-100k-2026'], 'price'],
    [['book', 'btc-100k-2026'], 'side'],
    [['token', 'list'], 'tokenId'],
    [['wallet', 'list'], 'address'],
    [['profile', 'list'], 'name'],
    [['config', 'list'], 'key'],
    [['portfolio', 'positions'], 'market'],
    [['positions', '--resolved'], 'outcome'],
    [['portfolio', 'history', '--all'], 'strategy'],
    [['portfolio', 'pnl', '--timeframe', 'all'], 'timestamp'],
  ];
  for (const [argv, field] of cases) {
    it(`pm -o ndjson ${argv.join(' ')}`, async () => {
      const r = await pm('-o', 'ndjson', ...argv);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const rows = ndjsonLines(r.stdout);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row, JSON.stringify(row)).toHaveProperty(field);
    });
  }
  it('a book prints its levels asks then bids', async () => {
    const rows = ndjsonLines((await pm('-o', 'ndjson', 'book', 'btc-100k-2026')).stdout);
    expect(new Set(rows.map((r) => r['side']))).toEqual(new Set(['ask', 'bid']));
  });
});

describe('tables', () => {
  it('piped without a format: tab-separated with a header row, nothing cut, no box drawing', async () => {
    const r = await pm('markets', 'list', '--all');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]?.split('\t')).toEqual(['SLUG', 'TITLE', 'YES', 'NO', 'VOLUME', 'DEADLINE', 'TYPE']);
    for (const l of lines) expect(l.split('\t')).toHaveLength(7);
    expect(r.stdout).not.toMatch(/[│┌└─…]|\x1b\[/);
    const all = (await pm('--json', 'markets', 'list', '--all')).json<{ slug: string; title: string }[]>();
    const longest = all.reduce((a, b) => (b.title.length > a.title.length ? b : a));
    expect(lines.find((l) => l.startsWith(`${longest.slug}\t`))?.split('\t')[1]).toBe(longest.title);
    const cut = r.stdout
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t')[0])
      .filter(Boolean);
    expect(cut).toEqual(all.map((m) => m.slug));
  });

  it('a piped book is its levels only: every line four tab-separated fields (the spread row and the summary were mixed in)', async () => {
    const r = await pm('book', 'btc-100k-2026');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]?.split('\t')).toEqual(['SIDE', 'PRICE', 'SHARES', 'USD']);
    for (const l of lines.slice(1)) expect(l).toMatch(/^(ask|bid)\t0\.\d{3}\t[\d,]+\t[\d,.]+$/);
    // The summary is for people: on stderr.
    expect(r.stderr).toMatch(/best bid \/ ask/);
  });

  it('on a TTY: fitted to the terminal width', async () => {
    for (const columns of [60, 100]) {
      const r = await runPm(['--base-url', sb.current.baseUrl, '--no-color', 'markets', 'list', '--limit', '5'], {
        env,
        tty: true,
        columns,
      });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^SLUG\s+TITLE/);
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(columns);
      expect(r.stdout).not.toMatch(/\t/);
    }
  });

  it('-o table keeps a piped table aligned', async () => {
    const r = await pm('-o', 'table', 'profile', 'list');
    expect(r.stdout).not.toMatch(/\t/);
    expect(r.stdout).toMatch(/^\s*PROFILE\s+EXCHANGE/);
  });
});

describe('the output setting', () => {
  it('pm config set output json works, with flag > env > profile > default', async () => {
    const { home: h, cleanup: c } = tempHome();
    const e = { PM_HOME: h };
    const run = (argv: string[], extra: Record<string, string> = {}) =>
      runPm(['--base-url', sb.current.baseUrl, ...argv], { env: { ...e, ...extra } });
    try {
      expect((await run(['config', 'set', 'output', 'json'])).code).toBe(0);
      const j = await run(['markets', 'list', '--limit', '2']);
      expect(Array.isArray(JSON.parse(j.stdout))).toBe(true);
      expect(j.stderr).toBe('');
      // A failure under the profile's json is the JSON error object too, usage errors included.
      const bad = await run(['markets', 'show', 'no-such-market']);
      expect(bad.code).toBe(4);
      expect(JSON.parse(bad.stderr)).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(JSON.parse((await run(['markets', 'list', '--limit', 'x'])).stderr)).toMatchObject({ error: { code: 'USAGE' } });
      // env beats the profile, the flag beats both.
      const nd = await run(['markets', 'list', '--limit', '2'], { PM_OUTPUT: 'ndjson' });
      expect(nd.stdout.trimEnd().split('\n')).toHaveLength(2);
      const t = await run(['-o', 'table', 'markets', 'list', '--limit', '2'], { PM_OUTPUT: 'ndjson' });
      expect(t.stdout).toMatch(/^SLUG/);
      const src = (await run(['--json', 'config', 'get', 'output'], { PM_OUTPUT: 'ndjson' })).json<{ value: string; source: string }>();
      expect(src).toEqual({ key: 'output', value: 'json', source: 'flag' });
      expect((await run(['config', 'get', 'output'], { PM_OUTPUT: 'ndjson' })).stdout).toBe(
        '{"key":"output","value":"ndjson","source":"env"}\n',
      );
      expect((await run(['markets', 'list'], { PM_OUTPUT: 'yaml' })).code).toBe(2);
    } finally {
      c();
    }
  });
});

describe('help', () => {
  const pages: [string[], RegExp][] = [
    [['help'], /Usage: pm \[options\] \[command\]/],
    [['help', 'markets'], /Usage: pm markets \[options\] \[command\]/],
    [['help', 'markets', 'list'], /Usage: pm markets list \[options\]/],
    [['help', 'order', 'place'], /Usage: pm order place/],
    [['help', 'book'], /Usage: pm book/],
    [['markets'], /Usage: pm markets \[options\] \[command\]/],
    [['order'], /Usage: pm order \[options\] \[command\]/],
    [['--profile', 'x', 'wallet'], /Usage: pm wallet/],
    // (With JSON output a bare group is a usage error instead: stdout holds JSON only; test/cli/help.test.ts.)
  ];
  for (const [argv, page] of pages) {
    it(`pm ${argv.join(' ')} prints help on stdout and exits 0`, async () => {
      const r = await runPm(argv, { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(page);
      expect(r.stderr).toBe('');
    });
  }
  it('an unknown help topic is a usage error', async () => {
    const r = await runPm(['help', 'nonsense'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such command/);
  });
});

describe('lazy loading', () => {
  it('pm --help and a group help import no command module', () => {
    const run = (argv: string[]) => {
      const r = spawnSync(process.execPath, ['-r', LOADED_PRELOAD, 'bin/pm.js', ...argv], {
        env: { ...process.env, PM_HOME: home },
        encoding: 'utf8',
      });
      return { ...r, ...parseLoaded(r.stderr) };
    };
    for (const argv of [['--help'], ['markets', '--help'], ['help', 'order', 'place']]) {
      const r = run(argv);
      expect(r.stdout).toMatch(/Usage:/);
      expect(r.stderr).toBe('');
      // (The root page is the build's copy: no CLI bundle at all.)
      expect(r.files).toContain(argv[0] === '--help' ? 'cli/global-flags.cjs' : 'cli/run.cjs');
      expect(r.modules.filter((f) => f.startsWith('src/commands/'))).toEqual([]);
    }
    // The report does show a command module when one runs (so the check above can fail).
    const withRun = run(['completion', 'bash']);
    expect(withRun.stdout).toMatch(/complete -F _pm pm/);
    expect(withRun.modules).toContain('src/commands/completion.ts');
  });
});
