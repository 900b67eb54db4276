// Completion (issue 14): the generated scripts, run in real shells, complete after global
// options and complete values: enum flags, arguments with choices, profiles, wallets and market
// slugs (from a short-lived cache of markets list). bash always; zsh and fish when installed.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';
import { complete } from '../../src/app/completion.js';
import { COMMANDS } from '../../src/app/registry.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const bin = mkdtempSync(join(tmpdir(), 'pm-bin-'));
symlinkSync(resolve('bin/pm.js'), join(bin, 'pm'));
const env = { ...process.env, PM_HOME: home, PATH: `${bin}:${process.env['PATH'] ?? ''}` };
// Asynchronous: the sandbox runs in this process and must keep answering.
const run = async (cmd: string, args: string[]): Promise<string[]> =>
  (await promisify(execFile)(cmd, args, { env, encoding: 'utf8' })).stdout.split('\n').filter(Boolean);
const has = (sh: string): boolean => spawnSync('sh', ['-c', `command -v ${sh}`]).status === 0;

beforeAll(async () => {
  expect((await runPm(['--profile', 'default', 'config', 'set', 'base-url', sb.current.baseUrl], { env: { PM_HOME: home } })).code).toBe(0);
  expect((await runPm(['--profile', 'sandbox', 'config', 'set', 'base-url', sb.current.baseUrl], { env: { PM_HOME: home } })).code).toBe(0);
});

/** Runs the generated bash function with COMP_WORDS / COMP_CWORD and returns COMPREPLY. */
function bash(...words: string[]): Promise<string[]> {
  const script = `source completions/pm.bash; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _pm; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return run('bash', ['--norc', '-c', script]);
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
    for (const c of COMMANDS) expect(top).toContain(c.path[0]);
    expect(await complete(['wallet', 'export', ''], 2, none)).toEqual(['main', 'bot']);
    expect(await complete(['order', 'list', '--market', ''], 3, none)).toEqual(['btc-100k-2026']);
    expect(await complete(['order', 'place', '--file', ''], 3, none)).toEqual(['__files__']);
    expect(await complete(['order', 'cancel', '--client-id', 'a', 'b', '--a'], 5, none)).toEqual(['--all']);
  });
});
