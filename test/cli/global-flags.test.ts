// The global flags come from one table (src/cli/global-flags.ts): commander's options, the argv
// pre-scan, completion and the docs' table are made from it, so a flag added there is everywhere.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { complete } from '../../src/app/completion.js';
import { ALL_FLAGS, flagsOf, GLOBAL_FLAGS, globalFlagsMarkdown, helpOf, scanArgv } from '../../src/cli/global-flags.js';
import { runPm, tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const env = { PM_HOME: home };
const none = { profiles: () => [], wallets: () => [], slugs: () => [] };

describe('the global-flag table', () => {
  it("docs/configuration.md's Global flags section begins with the table's markdown", () => {
    const doc = readFileSync('docs/configuration.md', 'utf8');
    const section = /## Global flags\n\n(\|[\s\S]*?)\n\n/.exec(doc)?.[1];
    expect(section, `docs/configuration.md, ## Global flags: replace the table with\n${globalFlagsMarkdown()}`).toBe(globalFlagsMarkdown());
  });

  it('pm help lists every flag of the table with its help line, and completion offers every long form', async () => {
    const r = await runPm(['help'], { env, columns: 400 });
    const page = r.stdout.replace(/\n {20,}/g, ' ');
    for (const [, s] of ALL_FLAGS) expect(page).toMatch(new RegExp(`^  ${flagsOf(s)} +${helpOf(s).replace(/[()]/g, '\\$&')}`, 'm'));
    expect(await complete(['--'], 0, none)).toEqual(ALL_FLAGS.map(([, s]) => s.long));
    // The one line a leaf page has instead of the list names flags of the table only.
    const leaf = await runPm(['book', '--help'], { env });
    const named = /Global options \(([^)]*)\)/.exec(leaf.stdout)?.[1]?.match(/-[-\w]+/g) ?? [];
    expect(named.length).toBeGreaterThan(3);
    for (const f of named)
      expect(
        ALL_FLAGS.some(([, s]) => s.long === f || s.short === f),
        f,
      ).toBe(true);
  });

  it('commander reads every value flag into what the command receives (config list shows flag as the source)', async () => {
    const r = await runPm(['--timeout=5s', '--base-url', 'http://127.0.0.1:9', '-o', 'json', 'config', 'list'], { env });
    expect(r.code).toBe(0);
    const settings = r.json<{ settings: { key: string; value: unknown; source: string }[] }>().settings;
    expect(settings.find((s) => s.key === 'timeout')).toMatchObject({ value: 5000, source: 'flag' });
    expect(settings.find((s) => s.key === 'base-url')).toMatchObject({ value: 'http://127.0.0.1:9', source: 'flag' });
    expect(settings.find((s) => s.key === 'output')).toMatchObject({ value: 'json', source: 'flag' });
  });
});

describe('scanArgv: one walk over argv before commander', () => {
  it('finds the command words after global flags and their values, and the flags anywhere after them', () => {
    expect(scanArgv(['--profile', 'p', 'order', 'list', '--json'])).toEqual({
      words: ['order', 'list'],
      at: [2, 3],
      direct: true,
      given: { profile: 'p', json: true },
    });
    const s = scanArgv(['book', 'x', '--timeout', '5s', 'y', '--market', 'm', '--output=ndjson']);
    expect(s.words).toEqual(['book', 'x']);
    expect(s.given).toEqual({ timeout: '5s', output: 'ndjson' });
  });

  it('reads bundled short flags as commander does, and stops at --', () => {
    expect(scanArgv(['-qo', 'json', 'markets', 'list'])).toMatchObject({
      words: ['markets', 'list'],
      given: { quiet: true, output: 'json' },
    });
    expect(scanArgv(['-yojson', 'book']).given).toEqual({ yes: true, output: 'json' });
    expect(scanArgv(['book', '--', '--json', '-h']).given).toEqual({});
  });

  it('the words name the command outright only after whole global flags of the table', () => {
    for (const argv of [
      ['--json', '-o', 'json', '--timeout=1s', 'book'],
      ['--no-color', '-q', 'book'],
    ])
      expect(scanArgv(argv).direct, argv.join(' ')).toBe(true);
    for (const argv of [
      ['-qy', 'book'],
      ['--help', 'book'],
      ['--bogus', 'book'],
      ['--json=1', 'book'],
      ['-', 'book'],
    ])
      expect(scanArgv(argv).direct, argv.join(' ')).toBe(false);
  });

  it('a usage error honours JSON asked for in a bundle of short flags', async () => {
    const r = await runPm(['-qo', 'json', 'bogus'], { env });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'USAGE', message: "unknown command 'bogus'" } });
  });

  it('every value flag of the table takes the next word', () => {
    for (const [key, spec] of Object.entries(GLOBAL_FLAGS))
      if ('value' in spec) expect(scanArgv([spec.long, 'v', 'book']), key).toMatchObject({ words: ['book'], given: { [key]: 'v' } });
  });
});
