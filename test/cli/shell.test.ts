import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { commands } from '../../src/app/registry.js';
import { COMPLETIONS } from '../../src/app/completion.js';
import { ENV_VARS } from '../../src/cli/env.js';
import { EXIT_CODES } from '../../src/cli/errors.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PM_HOME: home };

// Counts requests, to prove that bad input is refused before anything is sent.
let hits = 0;
const server = createServer((_req, res) => {
  hits++;
  res.writeHead(500).end();
});
let deadUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('the CLI shell', () => {
  it('prints the version and help', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const v = await runPm(['--version'], { env });
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const h = await runPm(['--help'], { env });
    expect(h.code).toBe(0);
    for (const noun of ['markets', 'book', 'sandbox', 'config', 'profile', 'completion', 'demo']) expect(h.stdout).toContain(noun);
    expect(h.stdout).toContain('Exit codes');
  });

  it('has --help with examples on every command', async () => {
    for (const def of commands()) {
      const r = await runPm([...def.path, '--help'], { env });
      expect(r.code, def.path.join(' ')).toBe(0);
      expect(r.stdout, def.path.join(' ')).toContain('Examples:');
      expect(r.stdout).toContain(`$ ${def.examples[0]}`);
    }
  });

  it('suggests the closest command for a typo and exits 2', async () => {
    const r = await runPm(['markts', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Did you mean markets\?/);
    const r2 = await runPm(['markets', 'lst'], { env });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/Did you mean list\?/);
  });

  it('refuses a bad flag value with exit 2 before any network call', async () => {
    hits = 0;
    const r = await runPm(['--base-url', deadUrl, 'markets', 'list', '--limit', 'abc'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--limit/);
    const r2 = await runPm(['--base-url', deadUrl, 'markets', 'list', '--sort', 'sideways'], { env });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/Allowed choices are lp_rewards/);
    const r3 = await runPm(['--base-url', deadUrl, 'markets', 'list', '--limit', '26'], { env });
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/at most 25/);
    const r4 = await runPm(['--base-url', deadUrl, 'book', 'not a slug!'], { env });
    expect(r4.code).toBe(2);
    expect(hits).toBe(0);
  });

  it('prints errors as one JSON object on stderr with --json, and no stack trace', async () => {
    const r = await runPm(['--json', '--base-url', deadUrl, 'markets', 'list', '--limit', '26'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr) as { error: { code: string; message: string } };
    expect(e.error.code).toBe('VALIDATION');
    expect(e.error.message).toMatch(/at most 25/);
    const r2 = await runPm(['--json', 'nope'], { env });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/"code":"USAGE"/);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('reports an unreachable exchange with exit 7 and a hint', async () => {
    const r = await runPm(['--base-url', 'http://127.0.0.1:1', 'markets', 'list'], { env });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/cannot reach the exchange/);
    expect(r.stderr).toMatch(/pm sandbox start/);
  });

  it('keeps settings per profile, with precedence flag > env > profile > default', async () => {
    expect((await runPm(['config', 'set', 'base-url', 'http://127.0.0.1:9999'], { env })).code).toBe(0);
    const g = await runPm(['config', 'get', 'base-url'], { env });
    expect(g.stdout.trim()).toBe('http://127.0.0.1:9999');
    const e = await runPm(['--json', 'config', 'get', 'base-url'], { env: { ...env, PM_BASE_URL: 'http://127.0.0.1:8888' } });
    expect(e.json()).toMatchObject({ value: 'http://127.0.0.1:8888', source: 'env' });
    const f = await runPm(['--json', '--base-url', 'http://127.0.0.1:7777', 'config', 'get', 'base-url'], {
      env: { ...env, PM_BASE_URL: 'http://127.0.0.1:8888' },
    });
    expect(f.json()).toMatchObject({ value: 'http://127.0.0.1:7777', source: 'flag' });
    const l = await runPm(['--json', 'config', 'list'], { env });
    expect(l.json<{ profile: string }>().profile).toBe('default');
    expect((await runPm(['--profile', 'fresh', 'config', 'set', 'timeout', '5000'], { env })).code).toBe(0);
    expect((await runPm(['--json', '--profile', 'fresh', 'config', 'get', 'timeout'], { env })).json()).toMatchObject({
      value: 5000,
      source: 'profile',
    });
    expect((await runPm(['config', 'set', 'timeout', 'soon'], { env })).code).toBe(2);
    expect((await runPm(['config', 'set', 'colour', 'red'], { env })).code).toBe(2);
    expect(statSync(join(home, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('lists, switches and removes profiles', async () => {
    await runPm(['--profile', 'default', 'config', 'set', 'timeout', '1000'], { env });
    const cfgFile = join(home, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8')) as { profiles: Record<string, object> };
    cfg.profiles['bot'] = { baseUrl: 'http://127.0.0.1:1234' };
    writeFileSync(cfgFile, JSON.stringify(cfg));
    expect((await runPm(['profile', 'use', 'bot'], { env })).code).toBe(0);
    const l = await runPm(['--json', 'profile', 'list'], { env });
    expect(l.json<{ name: string; active: boolean }[]>().find((p) => p.active)?.name).toBe('bot');
    expect((await runPm(['profile', 'use', 'ghost'], { env })).code).toBe(4);
    expect((await runPm(['--profile', 'ghost', 'config', 'list'], { env })).code).toBe(4);
    const noTty = await runPm(['profile', 'remove', 'bot'], { env });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toMatch(/--yes/);
    expect((await runPm(['profile', 'remove', 'bot', '--yes'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(cfgFile, 'utf8')).profiles.bot).toBeUndefined();
  });

  it('explains a corrupt config file with exit 2', async () => {
    const { home: h2, cleanup: c2 } = tempHome();
    mkdirSync(h2, { recursive: true });
    writeFileSync(join(h2, 'config.json'), '{ not json');
    const r = await runPm(['config', 'list'], { env: { PM_HOME: h2 } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config\.json is not valid JSON/);
    expect(r.stderr).toMatch(/hint:/);
    c2();
  });
});

describe('generated files and docs stay in step with the code', () => {
  it('completions/ matches the registry (run npm run completions)', () => {
    for (const { file, make } of Object.values(COMPLETIONS)) {
      expect(readFileSync(join('completions', file), 'utf8'), `completions/${file} is stale: run npm run completions`).toBe(make());
    }
  });
  it('prints completion scripts whose engine names every command', async () => {
    const r = await runPm(['completion', 'bash'], { env });
    expect(r.stdout).toContain('pm __complete');
    const top = await runPm(['__complete', '1', ''], { env });
    for (const def of commands()) expect(top.stdout.split('\n')).toContain(def.path[0]);
    expect((await runPm(['completion', 'tcsh'], { env })).code).toBe(2);
  });
  it("the docs' environment and exit-code tables match the code", () => {
    const section = (file: string, title: string): string =>
      [...readFileSync(file, 'utf8').matchAll(/\n## (.*)\n([\s\S]*?)(?=\n## |$)/g)].find((m) => m[1] === title)?.[2] ?? '';
    const envRows = [...section('docs/configuration.md', 'Environment variables').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(envRows.sort()).toEqual(ENV_VARS.map((v) => v.name).sort());
    const exitRows = [...section('docs/output.md', 'Exit codes').matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
    expect(exitRows).toEqual(EXIT_CODES.map((c) => c.code));
  });
});
