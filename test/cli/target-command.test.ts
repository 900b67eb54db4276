// Start-up: when argv names a command outright, pm builds only that command's parser
// (src/app/main.ts targetCommand). Everything else — help, groups, typos, unknown flags first —
// gets the whole program, and a leaf behaves the same either way.
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, targetCommand } from '../../src/app/main.js';
import { commandAt, commands } from '../../src/app/registry.js';
import type { IO } from '../../src/cli/output.js';
import { runPm, tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const path = (argv: string[]): string | undefined => targetCommand(argv)?.path.join(' ');

describe('targetCommand', () => {
  it('finds the command after any global options, in both option forms', () => {
    expect(path(['order', 'place', 'btc', 'buy', 'yes'])).toBe('order place');
    expect(path(['--json', '--profile', 'p', '-o', 'ndjson', 'markets', 'list', '--all'])).toBe('markets list');
    expect(path(['--timeout=5s', '--base-url', 'http://127.0.0.1:1', 'book', 'x'])).toBe('book');
    expect(path(['-q', '-y', '--no-color', 'positions'])).toBe('positions');
  });

  it('leaves everything else to the whole program', () => {
    for (const argv of [
      [],
      ['help', 'order', 'place'],
      ['order'],
      ['ordr', 'place'],
      ['-qy', 'order', 'place'],
      ['--bogus', 'order', 'place'],
      ['-h'],
      ['--version'],
    ]) {
      expect(targetCommand(argv), argv.join(' ')).toBeUndefined();
    }
  });

  it("reads a named command from its own manifest file: the same entry as the whole manifest's, and nothing else", () => {
    const strip = ({ load: _l, ...rest }: ReturnType<typeof commands>[number]) => rest;
    const all = commands();
    expect(all.length).toBeGreaterThan(60);
    for (const c of all) {
      expect(strip(commandAt(c.path) ?? ({ load: () => undefined } as never)), c.path.join(' ')).toEqual(strip(c));
      expect(commandAt([...c.path, 'an-operand', '--flag'])?.path).toEqual(c.path);
    }
    // A group, an unknown word, and words that are no file name: no command (commander reports them).
    for (const words of [['markets'], ['nosuch'], ['order', 'nosuch'], ['Markets', 'show'], ['..', 'manifest'], ['order/place'], []])
      expect(commandAt(words), words.join(' ')).toBeUndefined();
  });

  it("a command's help is the same page whether its parser is built alone or with all the others", () => {
    const pages = (only?: ReturnType<typeof commands>[number]) => {
      let out = '';
      const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, env: {} } as unknown as IO;
      const program = buildProgram(
        io,
        () => undefined,
        () => undefined,
        only,
      );
      const leaf = program.commands.find((c) => c.name() === 'order')?.commands.find((c) => c.name() === 'place');
      leaf?.outputHelp();
      return out;
    };
    const place = commands().find((c) => c.path.join(' ') === 'order place');
    expect(pages(place)).toBe(pages());
    expect(pages(place)).toContain('--client-id');
  });

  it('a typo in a flag of a named command is still a usage error with exit 2', async () => {
    const r = await runPm(['--json', 'order', 'place', 'btc-100k-2026', 'buy', 'yes', '--prise', '0.5'], { env: { PM_HOME: home } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'USAGE' } });
  });
});
