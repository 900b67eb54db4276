// Every error pm prints starts with "error:" (docs/architecture.md §2), on every path: a shim that cannot load
// the bundle, an exception or rejection nothing caught, under npx, in pm shell, at a wizard's
// prompt, and a message built from a plain Error (never "Error: …" inside it).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { errorMessage, PmError } from '../../src/core/errors.js';
import { runInPty } from '../helpers/pty.js';

const work = mkdtempSync(join(tmpdir(), 'pm-errors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const env = { PATH: process.env['PATH'], HOME: work, PM_HOME: join(work, 'home'), PM_CODE_CACHE: 'off' };
/** stderr without npm's own notices (npx). */
const ours = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((l) => !/^npm (warn|notice)/.test(l))
    .join('\n');

/** The error is an "error: …" line, and no "Error: " (Node's, or a String(e) inside a message) anywhere. */
function expectPmErrorText(stderr: string): void {
  const text = ours(stderr).trim();
  expect(text, text).toMatch(/^error: /m);
  expect(text).not.toMatch(/\bError: /);
}

describe('the "error:" prefix', () => {
  it('the shim: a bundle that is missing is an error: line with the fix, exit 1', async () => {
    const pkg = join(work, 'no-dist');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    for (const f of ['bin/pm.js', 'bin/package.json', 'package.json']) copyFileSync(f, join(pkg, f));
    for (const argv of [
      ['markets', 'list'],
      ['--verbose', 'markets', 'list'],
    ]) {
      const r = await execa('node', [join(pkg, 'bin/pm.js'), ...argv], { env, reject: false });
      expect(r.exitCode).toBe(1);
      expectPmErrorText(r.stderr);
      expect(r.stderr).toMatch(/^error: pm could not start: Cannot find module .*dist.*\nhint: pm is not built: run npm run build/);
    }
  });

  it('an exception or a rejection nothing caught: error: (or the JSON object), exit 1', async () => {
    const throws = join(work, 'throws.cjs');
    writeFileSync(throws, "setImmediate(() => { throw new TypeError('boom from a timer'); });\n");
    const rejects = join(work, 'rejects.cjs');
    writeFileSync(rejects, "setImmediate(() => { Promise.reject(new Error('boom from a promise')); });\n");
    for (const [preload, message] of [
      [throws, 'boom from a timer'],
      [rejects, 'boom from a promise'],
    ] as const) {
      // A command that waits (for an unreachable exchange) while the timer fires.
      const argv = ['-r', preload, 'bin/pm.js', 'watch', 'markets', '--base-url', 'http://127.0.0.1:9', '--timeout', '5s'];
      const r = await execa('node', argv, { env, reject: false });
      expect(r.exitCode, r.stderr).toBe(1);
      expectPmErrorText(r.stderr);
      expect(r.stderr).toContain(`error: ${message}`);
      const j = await execa('node', [...argv, '--json'], { env, reject: false });
      expect(j.exitCode).toBe(1);
      expect(JSON.parse(j.stderr)).toEqual({ error: expect.objectContaining({ code: 'UNEXPECTED', message }) });
    }
  });

  it('under npx', async () => {
    // npm exec with a fresh HOME links this checkout into its npx cache and runs its `prepare`
    // (the build) here, rewriting dist/ under the other tests' feet: no scripts.
    const r = await execa('npm', ['exec', '--offline', '--', 'pm', 'markets', 'show', 'x', '--base-url', 'http://127.0.0.1:9'], {
      env: { ...env, npm_config_ignore_scripts: 'true' },
      reject: false,
      cwd: resolve('.'),
    });
    expect(r.exitCode).toBe(7);
    expectPmErrorText(r.stderr);
  });

  it('in pm shell: failing lines, an unterminated quote, a nested shell', async () => {
    const r = await execa('node', ['bin/pm.js', 'shell'], {
      env,
      reject: false,
      input: 'markets show x --base-url http://127.0.0.1:9\nmarkets show "x\nshell\nnosuch\n',
    });
    const lines = r.stderr.split('\n').filter((l) => /^\S/.test(l) && !/^(hint|\(run)/.test(l));
    // (Each failing line names its input line and ends with its exit code.)
    expect(lines).toEqual([
      expect.stringMatching(/^error: line 1: cannot reach the exchange/),
      '[exit 7]',
      'error: line 2: unterminated quote',
      '[exit 2]',
      'error: line 3: already in pm shell',
      '[exit 2]',
      "error: line 4: unknown command 'nosuch'",
      '[exit 2]',
    ]);
    expect(r.stderr).not.toMatch(/\bError: /);
  });

  it('at a wizard prompt: Ctrl-D', async () => {
    const r = await runInPty(['node', 'bin/pm.js', 'init'], [{ waitFor: 'Which exchange?', send: '\x04' }], env);
    expect(r.screen).toMatch(/^error: cancelled/m);
    expect(r.screen).not.toMatch(/\bError: /);
  });

  it('a message made from a plain Error has no "Error: " inside', () => {
    expect(errorMessage(new TypeError('x is not a function'))).toBe('x is not a function');
    expect(errorMessage(new PmError('headline', { details: 'more' }))).toBe('headline');
    expect(errorMessage('text')).toBe('text');
    expect(errorMessage(Object.assign(new Error(''), { name: 'AbortError' }))).toBe('AbortError');
  });
});
