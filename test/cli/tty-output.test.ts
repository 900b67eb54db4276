// Tables and colour on a real terminal (a pseudo-terminal): aligned columns drawn by cli-table3,
// bold headers drawn by chalk (bundled, evaluated only when colour is on), each loaded only there.
// --no-color and NO_COLOR keep the table and lose every escape code and chalk; piped, the table is
// tab-separated text and neither loads. What loads is reported by test/helpers/loaded-preload.cjs
// (which turns the compile cache off); one run goes without it, as a user runs pm.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountEnv } from '../helpers/account-env.js';
import { LOADED_PRELOAD, parseLoaded } from '../helpers/loaded.js';
import { limitOrder } from '../helpers/orders.js';
import { runInPty } from '../helpers/pty.js';
import { runPm, tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env['PATH'],
  HOME: process.env['HOME'],
  ...accountEnv(sb.current, 'alice', home, extra),
  NODE_OPTIONS: `-r ${LOADED_PRELOAD}`,
});
const ESC = '\x1b[';
/** A module of chalk (bundled into the kernel: reported as a source module whose code ran). */
const isChalk = (m: string): boolean => /node_modules\/chalk\//.test(m);

beforeAll(async () => {
  // Something to list in positions and open orders.
  const r = await runPm([...limitOrder('btc-100k-2026', 'buy', 'yes', '0.1', '5'), '--client-id', 'tty-1'], {
    env: accountEnv(sb.current, 'alice', home),
  });
  expect(r.code, r.stderr).toBe(0);
});

const commands: [string[], RegExp][] = [
  [['markets', 'list'], /^SLUG {2,}TITLE {2,}.* {2}TYPE$/m],
  [['positions'], /^MARKET {2,}OUTCOME {2,}/m],
  [['order', 'list'], /^MARKET {2,}ORDER ID {2,}.*STATUS$/m],
];

describe('on a terminal', () => {
  for (const [argv, header] of commands) {
    it(`pm ${argv.join(' ')}: an aligned table with bold headers (cli-table3, chalk)`, async () => {
      const { code, screen, raw } = await runInPty([process.execPath, 'bin/pm.js', ...argv], [], env());
      const { stderr, files, modules } = parseLoaded(screen);
      expect(code, screen).toBe(0);
      expect(stderr).toMatch(header);
      expect(stderr).not.toMatch(/\t/);
      expect(raw).toContain(`${ESC}1m`);
      expect(files).toContain('vendor/cli-table3.cjs'); // (bundled: the package needs no cli-table3 installed)
      expect(modules.some(isChalk)).toBe(true);
    });
  }

  it('--no-color and NO_COLOR: the same table, no escape code, chalk not loaded', async () => {
    const colored = parseLoaded((await runInPty([process.execPath, 'bin/pm.js', 'markets', 'list'], [], env())).screen).stderr;
    for (const [argv, extra] of [
      [['--no-color'], {}],
      [[], { NO_COLOR: '1' }],
    ] as [string[], Record<string, string>][]) {
      const { code, screen, raw } = await runInPty([process.execPath, 'bin/pm.js', ...argv, 'markets', 'list'], [], env(extra));
      const { stderr, files, modules } = parseLoaded(screen);
      expect(code, screen).toBe(0);
      expect(raw.replace(/\x1b\[\?[0-9;]*[a-z]/g, '')).not.toContain(ESC);
      expect(stderr).toBe(colored);
      expect(files).toContain('vendor/cli-table3.cjs'); // (bundled: the package needs no cli-table3 installed)
      expect(modules.some(isChalk)).toBe(false);
    }
  });

  it('as a user runs it (the compile cache on, cold then warm): the same table in colour', async () => {
    const cache = tempHome();
    try {
      const e = { ...env({ XDG_CACHE_HOME: cache.home }), NODE_OPTIONS: '' };
      for (const round of ['cold', 'warm']) {
        const { code, screen, raw } = await runInPty([process.execPath, 'bin/pm.js', 'markets', 'list'], [], e);
        expect(code, `${round}: ${screen}`).toBe(0);
        expect(screen).toMatch(commands[0]?.[1] ?? /^$/);
        expect(raw).toContain(`${ESC}1mSLUG${ESC}22m`);
      }
    } finally {
      cache.cleanup();
    }
  });
});

describe('piped', () => {
  it('tab-separated with a header row, nothing of cli-table3 or chalk loaded', async () => {
    for (const [argv] of commands) {
      // (Spawned asynchronously: the sandbox answers from this process's event loop.)
      const r = await execa(process.execPath, ['bin/pm.js', ...argv], { env: env(), extendEnv: false, reject: false });
      const { stderr, files, packages, modules } = parseLoaded(r.stderr);
      expect(r.exitCode, stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toMatch(/^[A-Z ]+(\t[A-Z ]+)+$/);
      expect(r.stdout).not.toContain(ESC);
      expect(modules.some(isChalk)).toBe(false);
      expect(packages).not.toContain('cli-table3');
      expect(files).not.toContain('vendor/cli-table3.cjs');
    }
  });
});
