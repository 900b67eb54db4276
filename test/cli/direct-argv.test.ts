// The command lines src/app/direct.ts reads without commander (so that start-up does not load
// it) are read exactly as commander reads them: for every command, lines in the plain forms and
// lines with mistakes; each one either is left to commander or gives commander's invocation.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { ManifestOption } from '../../src/cli/command.js';
import { scanArgv } from '../../src/cli/global-flags.js';
import type { IO } from '../../src/cli/output.js';
import { directInvocation, longOf } from '../../src/app/direct.js';
import { globalFlags } from '../../src/app/invoke.js';
import type { Invocation } from '../../src/app/invoke.js';
import { buildProgram } from '../../src/app/main.js';
import { commands } from '../../src/app/registry.js';
import type { Entry } from '../../src/app/registry.js';

const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} } as unknown as IO;

/** Commander's reading of argv: the invocation, or 'usage' for a usage error. */
async function commander(argv: string[], only: Entry): Promise<Invocation | 'usage' | undefined> {
  let inv: Invocation | undefined;
  const program = buildProgram(
    io,
    (i) => {
      inv = i;
    },
    () => undefined,
    only,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return 'usage';
    throw e;
  }
  return inv;
}

/** What a command receives from an invocation: its path, arguments and options, and the global flags. */
function seen(inv: Invocation) {
  const args: Record<string, unknown> = {};
  inv.def.args.forEach((a, i) => {
    const v = inv.positional[i];
    args[a.name] = a.variadic ? (Array.isArray(v) ? v : []) : v;
  });
  const opts: Record<string, unknown> = {};
  for (const o of inv.def.options) opts[o.name] = inv.own[o.name];
  return { path: inv.def.path, args, opts, flags: globalFlags(inv.opts) };
}

/** A choice in mixed case (commander's parser gives the declared spelling). */
const mixed = (s = 'x'): string => `${s.slice(0, 1).toUpperCase()}${s.slice(1).toLowerCase()}`;
const sample = (o: ManifestOption): string =>
  o.choices ? mixed(o.choices[1] ?? o.choices[0]) : o.type === 'string' || o.type === 'list' ? 'v-1' : '7';

/** Plain lines for a command (all of which direct.ts reads) and lines with mistakes or unusual forms. */
function lines(c: Entry): { plain: string[][]; other: string[][] } {
  const args = c.args.flatMap((a) => (a.variadic ? ['a1', 'a2'] : [a.choices ? mixed(a.choices[0]) : 'arg-1']));
  const required = c.args.filter((a) => a.required).map((a) => (a.choices ? (a.choices[0] ?? '') : 'arg-1'));
  const valued = c.options.filter((o) => o.type !== 'boolean' && o.type !== 'list');
  const switches = c.options.filter((o) => o.type === 'boolean');
  const plain = [
    [...c.path, ...required],
    ['--json', ...c.path, ...args],
    ['--profile', 'p', ...c.path, ...required, '--no-color', '-o', 'ndjson', '--timeout', '5s'],
    [...c.path, ...args, ...switches.map(longOf), ...valued.flatMap((o) => [longOf(o), sample(o)])],
    [...c.path, ...valued.flatMap((o) => [`${longOf(o)}=${sample(o)}`]), ...required, '-q', '-y'],
  ];
  const other = [
    [...c.path, ...args, 'extra-1', 'extra-2'],
    [...c.path, ...required, '--bogus'],
    [...c.path, ...required, '--', '-x'],
    [...c.path, ...required, '-qy'],
    [...c.path, ...required, '--json=1'],
    [...c.path, ...required, '-o', 'xml'],
    [...c.path, ...required, '--timeout', 'soon'],
    [...c.path],
    ...valued.flatMap((o) => [
      [...c.path, ...required, longOf(o)],
      [...c.path, ...required, longOf(o), '-5'],
      [...c.path, ...required, longOf(o), 'zz', longOf(o), sample(o)],
      [...c.path, ...required, `${longOf(o)}=0`],
      [...c.path, ...required, `${longOf(o)}=99999999999999999999`],
    ]),
    ...switches.map((o) => [...c.path, ...required, `${longOf(o)}=yes`]),
    ...c.options.filter((o) => o.type === 'list').map((o) => [...c.path, ...required, longOf(o), 'a', 'b']),
  ];
  return { plain, other };
}

describe('command lines read without commander', () => {
  it('give what commander gives, for every command; and whatever commander refuses is left to it', async () => {
    let read = 0;
    let plainRead = 0;
    let plainTotal = 0;
    for (const c of commands()) {
      const { plain, other } = lines(c);
      for (const [k, argv] of [...plain, ...other].entries()) {
        const direct = directInvocation(argv, scanArgv(argv));
        const slow = await commander(argv, c);
        if (k < plain.length) {
          plainTotal++;
          if (direct) plainRead++;
        }
        if (!direct) continue;
        read++;
        expect(slow, argv.join(' ')).not.toBe('usage');
        expect(slow, argv.join(' ')).toBeDefined();
        if (slow === undefined || slow === 'usage') continue;
        expect(seen(direct), argv.join(' ')).toEqual(seen(slow));
      }
    }
    // (So that the checks above check something: most plain lines are read here.)
    expect(read).toBeGreaterThan(200);
    expect(plainRead / plainTotal).toBeGreaterThan(0.9);
  }, 60_000);

  it('reads the lines of the start-up benchmark, and leaves help and --version to commander', () => {
    const place = ['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--price', '0.2', '--size', '1', '--client-id', 'c-1'];
    expect(directInvocation(place)?.own).toEqual({ price: '0.2', size: '1', clientId: 'c-1', type: 'gtc' });
    expect(directInvocation(['--json', 'markets', 'show', 'btc-100k-2026'])?.positional).toEqual(['btc-100k-2026']);
    for (const argv of [
      ['markets', 'show', 'x', '--help'],
      ['markets', 'show', 'x', '-h'],
      ['markets', 'show', '--version'],
      ['help', 'markets', 'show'],
    ])
      expect(directInvocation(argv), argv.join(' ')).toBeUndefined();
  });
});
