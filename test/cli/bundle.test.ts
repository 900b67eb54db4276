// Every command of the manifest runs from the bundle (dist/cli/run.cjs, through bin/pm.js): its
// help page prints with its own usage line, and --verbose runs the same bundle to the same output.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SCRYPT_VEC, VEC_ADDR } from '../helpers/keystore-vectors.js';
import { tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const manifest = JSON.parse(readFileSync('src/generated/manifest.json', 'utf8')) as { path: string[] }[];

function pm(...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return pmWith({}, ...argv);
}

function pmWith(env: Record<string, string>, ...argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/pm.js', ...argv], { env: { ...process.env, PM_HOME: home, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

it('every command in the manifest prints its help from the bundle (one pm shell reads them all), and a few as commands of their own', async () => {
  expect(manifest.length).toBeGreaterThan(50);
  // One process for every page (a process a page was ~90 node processes, 11 s of CPU on Node 20):
  // pm shell runs each line through the same bundle as a command of its own.
  const child = spawn(process.execPath, ['bin/pm.js', 'shell'], { env: { ...process.env, PM_HOME: home } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // (pm shell itself is not a line of a shell: it is one of the commands run on their own below.)
  const lines = manifest.filter((c) => c.path.join(' ') !== 'shell');
  expect(lines).toHaveLength(manifest.length - 1);
  child.stdin.end(`${lines.map((c) => `${c.path.join(' ')} --help`).join('\n')}\n`);
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const usages = stdout.split('\n').filter((l) => l.startsWith('Usage: pm '));
  expect(usages).toHaveLength(lines.length);
  lines.forEach((c, i) => expect(usages[i]).toMatch(new RegExp(`^Usage: pm ${c.path.join(' ')} `)));
  // And as commands of their own: one of each depth, and the shell.
  for (const path of [['shell'], ['positions'], ['order', 'place'], ['partner', 'onboard']]) {
    const r = await pm(...path, '--help');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith(`Usage: pm ${path.join(' ')} `), r.stdout).toBe(true);
    expect(r.stderr).toBe('');
  }
}, 600_000);

it('--verbose runs the same bundle to the same output', async () => {
  const plain = await pm('--help');
  const verbose = await pm('--verbose', '--help');
  expect(plain.code).toBe(0);
  expect(plain.stdout).toMatch(/^Usage: pm /);
  expect(verbose.stdout).toBe(plain.stdout);
}, 60_000);

it("the library bundle's error classes keep their names (minified, they would print as a letter)", () => {
  const out = spawnSync(
    process.execPath,
    [
      '-e',
      "const l=require('./dist/lib/index.cjs');const e=new l.ConflictError('x');const classes=Object.entries(l).filter(([,v])=>typeof v==='function'&&v.prototype instanceof Error);console.log(classes.length, classes.filter(([k,v])=>v.name!==k).map(([k])=>k).join(',')||'all named', require('node:util').inspect(e).split('\\n')[0])",
    ],
    { encoding: 'utf8' },
  );
  // (Every error class the library exports, named as exported: twelve and more.)
  const [count, ...rest] = out.stdout.trim().split(' ');
  expect(Number(count)).toBeGreaterThanOrEqual(12);
  expect(rest.join(' ')).toBe('all named ConflictError: x');
});

it("a keystore whose scrypt parameters OpenSSL refuses opens through the bundle's @noble scrypt (dist/vendor/noble-scrypt.cjs)", async () => {
  // The Web3 Secret Storage scrypt vector (n = 2^18 with r = 1: outside RFC 7914's bound, which OpenSSL enforces).
  const file = join(home, 'vector.json');
  writeFileSync(file, JSON.stringify(SCRYPT_VEC));
  const pass = join(home, 'vector-pass.txt');
  writeFileSync(pass, 'testpassword\n', { mode: 0o600 });
  const env = { PM_PASSPHRASE: 'our-pass', PM_SCRYPT_N: '1024' };
  const r = await pmWith(env, '--json', 'wallet', 'import', 'vector', '--keystore', file, '--keystore-passphrase-file', pass);
  expect(r.code, r.stderr).toBe(0);
  expect((JSON.parse(r.stdout) as { address: string }).address).toBe(VEC_ADDR);
});

it("ora (only partner onboard's spinner uses it) is a bundle of its own, by name, and not in the kernel every command reads", () => {
  // (cli-spinners' table, which ora carries, names a spinner "dots12".)
  expect(readFileSync('dist/cli/kernel.cjs', 'utf8')).not.toContain('dots12');
  const out = spawnSync(
    process.execPath,
    [
      '-e',
      "const { ora } = require('./dist/vendor/ora.cjs'); const s = ora({ text: 'x', isEnabled: false }); console.log(typeof ora, typeof s.start, typeof s.succeed)",
    ],
    { encoding: 'utf8' },
  );
  expect(out.stdout.trim()).toBe('function function function');
});
