// Completion (issue 14): the generated scripts, run in real shells, complete after global
// options and complete values: enum flags, arguments with choices, profiles, wallets and market
// slugs (from a short-lived cache of markets list). bash always; zsh and fish when installed.
import { execFile, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { runInPty } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';
import { complete } from '../../src/app/completion.js';
import { commands } from '../../src/app/registry.js';
import { CONFIG_KEYS } from '../../src/core/config.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const bin = mkdtempSync(join(tmpdir(), 'pm-bin-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
symlinkSync(resolve('bin/pm.js'), join(bin, 'pm'));
const env = { ...process.env, PM_HOME: home, PATH: `${bin}:${process.env['PATH'] ?? ''}` };
// Asynchronous: the sandbox runs in this process and must keep answering.
const run = async (cmd: string, args: string[]): Promise<string[]> =>
  (await promisify(execFile)(cmd, args, { env, encoding: 'utf8' })).stdout.split('\n').filter(Boolean);
const has = (sh: string): boolean => spawnSync('sh', ['-c', `command -v ${sh}`]).status === 0;

beforeAll(async () => {
  // A wallet whose name starts like a price, and one like a choice: neither is a value of those flags.
  for (const name of ['0.4-main', 'fak-wallet'])
    expect(
      (await runPm(['wallet', 'create', name], { env: { PM_HOME: home, PM_PASSPHRASE: 'completion-pass', PM_SCRYPT_N: '1024' } })).code,
    ).toBe(0);
  expect((await runPm(['--profile', 'default', 'config', 'set', 'base-url', sb.current.baseUrl], { env: { PM_HOME: home } })).code).toBe(0);
  expect((await runPm(['--profile', 'sandbox', 'config', 'set', 'base-url', sb.current.baseUrl], { env: { PM_HOME: home } })).code).toBe(0);
});

/** Runs the generated bash function with COMP_WORDS / COMP_CWORD and returns COMPREPLY. */
function bash(...words: string[]): Promise<string[]> {
  const script = `source completions/pm.bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _pm; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return run('bash', ['--norc', '-c', script]);
}

/**
 * `pm <line>` typed into an interactive bash (readline, its own word splitting and file name
 * handling) with the generated script, then TAB twice: the screen after the prompt.
 */
async function typed(line: string): Promise<string> {
  const rc = join(bin, 'bashrc');
  writeFileSync(rc, `PS1='$ '\nbind 'set bell-style none'\nsource ${resolve('completions/pm.bash')}\n`);
  const r = await runInPty(
    ['bash', '--noprofile', '--rcfile', rc, '-i'],
    [
      { waitFor: '$ ', send: `pm ${line}\t\t` },
      // Ctrl-U drops the line; the marker shows that completion has finished.
      { waitFor: `pm ${line}`, send: '\x15echo END-OF-\\COMPLETION\r' },
      { waitFor: 'END-OF-COMPLETION', send: 'exit\r' },
    ],
    { ...env, HOME: bin },
    30_000,
  );
  return r.screen.slice(r.screen.indexOf(`pm ${line}`), r.screen.indexOf('END-OF-COMPLETION'));
}

describe('bash completion (COMP_WORDS / COMP_CWORD in a real bash)', () => {
  it('completes commands after global options, flags and enum values', async () => {
    expect(await bash('pm', '--profile', 'sandbox', 'ma')).toEqual(['markets']);
    expect(await bash('pm', '-o', 'json', 'order', 'pl')).toEqual(['place']);
    expect(await bash('pm', '-o', '')).toEqual(['table', 'json', 'ndjson']);
    expect(await bash('pm', 'order', 'place', '--type', '')).toEqual(['gtc', 'fok', 'fak']);
    expect(await bash('pm', 'order', 'place', 'btc-100k-2026', '')).toEqual(['buy', 'sell']);
    expect(await bash('pm', 'order', 'place', 'btc-100k-2026', 'buy', '')).toEqual(['yes', 'no']);
    expect(await bash('pm', 'markets', 'list', '--type', '')).toEqual(['clob', 'amm', 'group']);
    expect(await bash('pm', 'markets', 'list', '--so')).toEqual(['--sort']);
    expect(await bash('pm', '--json', 'markets', 'history', 'x', '--interval', '1')).toEqual(['1h', '1d', '1w', '1mo']);
  });

  it('completes profile names, and market slugs from the cache of markets list', async () => {
    expect((await bash('pm', '--profile', '')).sort()).toEqual(['default', 'sandbox']);
    expect(await bash('pm', 'profile', 'use', 's')).toEqual(['sandbox']);
    expect(await bash('pm', '--profile', 'sandbox', 'book', 'btc')).toEqual(['btc-100k-2026']);
    expect(await bash('pm', 'order', 'place', 'us-election')).toContain('us-election-2028-democrat');
    const cache = JSON.parse(readFileSync(join(home, 'cache', 'market-slugs.json'), 'utf8')) as { slugs: string[] };
    expect(cache.slugs).toContain('fed-cut-december');
  });
});

describe('an exchange that does not answer', () => {
  it('slug completion sends one request and gives up at its 2.5 s bound (no retries): a TAB never hangs', async () => {
    // Accepts connections, reads the request, never replies.
    const requests: string[] = [];
    const sockets: Socket[] = [];
    const server = createServer((s) => {
      sockets.push(s);
      s.on('data', (d) => requests.push(d.toString('latin1').split('\r\n')[0] ?? ''));
      s.on('error', () => {});
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const h = tempHome();
    try {
      const started = Date.now();
      const r = await runPm(['__complete', '2', 'book', ''], { env: { PM_HOME: h.home, PM_BASE_URL: `http://127.0.0.1:${port}` } });
      const took = Date.now() - started;
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatch(/^GET \/markets\/active/);
      // (Retried, it took 11 s: four tries of 2.5 s and the waits between them.)
      expect(took).toBeLessThan(8_000);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
      h.cleanup();
    }
  });
});

describe('flag=value and file names (issue 23)', () => {
  it('bash: --flag=<TAB> completes that flag\'s values, never wallets or slugs (COMP_WORDS split at "=")', async () => {
    expect(await bash('pm', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '=')).toEqual([]);
    expect(await bash('pm', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '=', '0.4')).toEqual([]);
    expect(await bash('pm', 'order', 'place', '--type', '=')).toEqual(['gtc', 'fok', 'fak']);
    expect(await bash('pm', 'order', 'place', '--type', '=', 'f')).toEqual(['fok', 'fak']);
    expect(await bash('pm', 'wallet', 'export', '--format', '=', 'k')).toEqual(['keystore', 'key']);
    expect(await bash('pm', '--profile', '=', 's', 'ma')).toEqual(['markets']);
    expect((await bash('pm', '--profile', '=')).sort()).toEqual(['default', 'sandbox']);
    expect(await bash('pm', 'wallet', 'export', '')).toEqual(['0.4-main', 'fak-wallet']);
  });

  it('the engine completes --flag=value as whole words (zsh, fish and pm shell see one word)', async () => {
    const src = { profiles: () => ['p1'], wallets: () => ['0.4-main', 'fak-wallet'], slugs: () => ['btc-100k-2026'] };
    expect(await complete(['order', 'place', 'x', 'buy', 'yes', '--price='], 5, src)).toEqual([]);
    expect(await complete(['order', 'place', 'x', 'buy', 'yes', '--price=0.4'], 5, src)).toEqual([]);
    expect(await complete(['order', 'place', '--type=F'], 2, src)).toEqual(['--type=fok', '--type=fak']);
    expect(await complete(['partner', 'create', '--wallet=0'], 2, src)).toEqual(['--wallet=0.4-main']);
    expect(await complete(['order', 'place', '--file=o'], 2, src)).toEqual(['__files__']);
    expect(await complete(['--profile=p'], 0, src)).toEqual(['--profile=p1']);
  });

  it('in an interactive bash: --price=<TAB> offers nothing; --type=<TAB> its choices; a directory ends in /', async () => {
    const work = join(bin, 'work');
    mkdirSync(join(work, 'orders-dir'), { recursive: true });
    writeFileSync(join(work, 'orders-file.ndjson'), '');
    const price = await typed('order place btc-100k-2026 buy yes --price=');
    // Nothing inserted after the "=" (the next thing typed follows it) and nothing listed.
    expect(price).toContain('--price=echo END-OF-\\COMPLETION');
    expect(price).not.toMatch(/0\.4-main|fak-wallet/);
    expect(await typed('order place btc-100k-2026 buy yes --type=g')).toContain('--type=gtc ');
    const dir = await typed(`order place --file ${work}/orders-d`);
    expect(dir).toContain(`--file ${work}/orders-dir/`);
    expect(dir).not.toContain(`--file ${work}/orders-dir `);
    const both = await typed(`order place --file ${work}/orders-`);
    expect(both).toMatch(/orders-dir\/\s+orders-file\.ndjson/);
    expect(await typed(`order place --file=${work}/orders-f`)).toContain(`--file=${work}/orders-file.ndjson `);
  }, 60_000);
});

describe.runIf(has('zsh'))('zsh completion', () => {
  it('completes after a global option and completes slugs', async () => {
    const z = (words: string[]): Promise<string[]> =>
      run('zsh', [
        '-f',
        '-c',
        `compdef(){}; source completions/_pm; compadd(){ shift; print -l -- "$@" }; _files(){ print __FILES }; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _pm`,
      ]);
    expect(await z(['pm', '--profile', 'sandbox', 'ma'])).toEqual(['markets']);
    expect(await z(['pm', 'book', 'sol'])).toEqual(['sol-500-2026']);
  });
});

describe.runIf(has('fish'))('fish completion', () => {
  it('completes after a global option and completes enum values', async () => {
    const f = async (line: string): Promise<string[]> =>
      (await run('fish', ['--no-config', '-c', `source completions/pm.fish; complete -C '${line}'`])).map((l) => l.split('\t')[0] ?? '');
    expect(await f('pm --profile sandbox ma')).toEqual(['markets']);
    expect((await f('pm order place x buy ')).sort()).toEqual(['no', 'yes']);
  });
});

describe('the completion engine', () => {
  const none = { profiles: () => ['p1'], wallets: () => ['main', 'bot'], slugs: () => ['btc-100k-2026'] };
  it('knows every command and group', async () => {
    const top = await complete([''], 0, none);
    for (const c of commands()) expect(top).toContain(c.path[0]);
    expect(await complete(['wallet', 'export', ''], 2, none)).toEqual(['main', 'bot']);
    expect(await complete(['order', 'list', '--market', ''], 3, none)).toEqual(['btc-100k-2026']);
    expect(await complete(['order', 'place', '--file', ''], 3, none)).toEqual(['__files__']);
    expect(await complete(['order', 'cancel', '--client-id', 'a', 'b', '--a'], 5, none)).toEqual(['--all']);
  });
  it("offers the settings' names after config get, set and unset, and no value after set's name", async () => {
    const names = Object.keys(CONFIG_KEYS);
    for (const verb of ['get', 'set', 'unset']) expect(await complete(['config', verb, ''], 2, none)).toEqual(names);
    expect(await complete(['config', 'set', 'base'], 2, none)).toEqual(['base-url']);
    expect(await complete(['config', 'set', 'base-url', ''], 3, none)).toEqual([]);
  });
  it('offers no file names for an argument whose name only contains "file" (partner allowances <profileId>)', async () => {
    expect(await complete(['partner', 'allowances', ''], 2, none)).toEqual([]);
    expect(await complete(['--json', 'partner', 'allowances', ''], 3, none)).toEqual([]);
  });
});
