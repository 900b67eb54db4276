// pm config set / get / unset on the active profile (no exchange needed: settings only).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runPm, useTempHomes } from '../helpers/run.js';

const newHome = useTempHomes();
const pm = (home: string, ...argv: string[]) => runPm(argv, { env: { PM_HOME: home } });

it('unset removes a setting, which falls back to its default; base-url cannot be unset', async () => {
  const home = newHome();
  expect((await pm(home, 'config', 'set', 'base-url', 'http://127.0.0.1:8787')).code).toBe(0);
  expect((await pm(home, 'config', 'set', 'timeout', '20s')).code).toBe(0);
  expect((await pm(home, 'config', 'set', 'on-behalf-of', '2001')).code).toBe(0);
  expect((await pm(home, 'config', 'get', 'timeout')).stdout).toBe('20000\n');

  const unset = await pm(home, '--json', 'config', 'unset', 'timeout');
  expect(unset.code, unset.stderr).toBe(0);
  expect(JSON.parse(unset.stdout)).toEqual({ profile: 'default', key: 'timeout', removed: true });
  const got = await pm(home, '--json', 'config', 'get', 'timeout');
  expect(JSON.parse(got.stdout)).toEqual({ key: 'timeout', value: 30000, source: 'default' });
  // Again: nothing to remove, and it says so.
  const again = await pm(home, 'config', 'unset', 'timeout');
  expect(again.code).toBe(0);
  expect(again.stderr).toMatch(/timeout was not set \(profile default\): nothing changed/);

  expect((await pm(home, 'config', 'unset', 'on-behalf-of')).code).toBe(0);
  expect((await pm(home, '--json', 'config', 'get', 'on-behalf-of')).stdout).toMatch(/"value":null/);

  const base = await pm(home, 'config', 'unset', 'base-url');
  expect(base.code).toBe(2);
  expect(base.stderr).toMatch(/base-url cannot be unset/);
  expect((await pm(home, 'config', 'get', 'base-url')).stdout).toBe('http://127.0.0.1:8787\n');
});

it('an unknown setting is a usage error naming the settings, whatever its name (constructor, __proto__)', async () => {
  const home = newHome();
  for (const verb of ['set', 'unset', 'get'])
    for (const key of ['nope', 'constructor', '__proto__', 'toString']) {
      const r = await pm(home, 'config', verb, key, ...(verb === 'set' ? ['x'] : []));
      expect(r.code, `${verb} ${key}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`unknown setting "${key}"[\\s\\S]*Settings: base-url`));
    }
});

it('set on a profile that does not exist says it creates it, with the exchange it points at (a typo of --profile is seen)', async () => {
  const home = newHome();
  expect((await pm(home, 'config', 'set', 'base-url', 'http://127.0.0.1:8787')).code).toBe(0);
  const r = await pm(home, '--profile', 'bot', 'config', 'set', 'timeout', '10s');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/created profile bot \(no profile had that name\); its exchange: https:\/\/api\.limitless\.exchange/);
  const again = await pm(home, '--profile', 'bot', 'config', 'set', 'timeout', '20s');
  expect(again.stderr).not.toMatch(/created profile/);
});

it('set ws-url that would mix a local and a remote exchange in the profile is refused, nothing written; the hint names the command that drops it', async () => {
  const home = newHome();
  expect((await pm(home, 'config', 'set', 'base-url', 'http://127.0.0.1:9')).code).toBe(0);
  const mixed = await pm(home, '--json', 'config', 'set', 'ws-url', 'wss://ws.example.org');
  expect(mixed.code, mixed.stderr).toBe(2);
  const e = (JSON.parse(mixed.stderr) as { error: { message: string; hint: string } }).error;
  expect(e.message).toMatch(/wss:\/\/ws\.example\.org.*remote.*http:\/\/127\.0\.0\.1:9.*on this machine/);
  expect(e.hint).toMatch(/pm config set base-url|leave ws-url unset/);
  const list = await pm(home, '--json', 'config', 'get', 'ws-url');
  expect(list.stdout).not.toContain('ws.example.org');
  // A profile mixed by hand (an older pm, an edited file): the refusal of its commands names the fix.
  writeFileSync(
    join(home, 'config.json'),
    JSON.stringify({
      version: 1,
      activeProfile: 'default',
      profiles: { default: { baseUrl: 'http://127.0.0.1:9', wsUrl: 'wss://ws.example.org' } },
    }),
  );
  const read = await pm(home, '--json', 'markets', 'list', '--limit', '1');
  expect(read.code, read.stderr).toBe(2);
  expect((JSON.parse(read.stderr) as { error: { hint: string } }).error.hint).toContain('pm config unset ws-url');
});

it('PM_HOME and XDG_CONFIG_HOME set but empty count as unset (the XDG rule): the home is ~/.config/pm, not ./pm', async () => {
  const home = newHome();
  const listed = async (env: Record<string, string>) => {
    const r = await runPm(['--json', 'config', 'list'], { env: { HOME: home, ...env } });
    expect(r.code, r.stderr).toBe(0);
    return r.json<{ home: string }>().home;
  };
  expect(await listed({ PM_HOME: '', XDG_CONFIG_HOME: join(home, 'xdg') })).toBe(join(home, 'xdg', 'pm'));
  expect(await listed({ PM_HOME: '', XDG_CONFIG_HOME: '' })).toBe(join(home, '.config', 'pm'));
});
