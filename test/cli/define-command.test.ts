// defineCommand: the handler's args/opts are typed from the definition (checked by `npm run
// typecheck`: each @ts-expect-error below must stay an error), and the manifest generated at build
// time matches the definitions in src/commands.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineCommand, isDefinedCommand, manifestEntry } from '../../src/cli/command.js';

const sample = defineCommand({
  path: ['demo', 'sample'],
  effect: 'read',
  summary: 'a sample',
  args: {
    slug: { description: 'market', required: true },
    side: { description: 'side', choices: ['buy', 'sell'] },
    ids: { description: 'ids', variadic: true },
  },
  options: {
    limit: { type: 'positiveInt', value: 'n', description: 'how many', default: 10 },
    postOnly: { type: 'boolean', description: 'maker only' },
    clientId: { type: 'list', value: 'ids', description: 'client ids' },
    sort: { type: 'string', description: 'order', choices: ['asc', 'desc'] },
    note: { type: 'string', short: 'n', description: 'a note' },
  },
  examples: ['pm demo sample x'],
  run: async (_ctx, { args, opts }) => {
    const slug: string = args.slug;
    const side: 'buy' | 'sell' | undefined = args.side;
    const ids: string[] = args.ids;
    const limit: number = opts.limit;
    const postOnly: boolean = opts.postOnly;
    const clientIds: string[] = opts.clientId;
    const sort: 'asc' | 'desc' | undefined = opts.sort;
    const note: string | undefined = opts.note;
    // @ts-expect-error a renamed or misspelt flag is a type error
    void opts.post_only;
    // @ts-expect-error an unknown argument is a type error
    void args.market;
    // @ts-expect-error an optional string is not a string
    const n: string = opts.note;
    void [slug, side, ids, limit, postOnly, clientIds, sort, note, n];
  },
});

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
}

describe('defineCommand', () => {
  it('turns a definition into a manifest entry with commander flags', () => {
    const e = manifestEntry(sample, 'demo/sample.js');
    expect(e.args.map((a) => a.name)).toEqual(['slug', 'side', 'ids']);
    expect(e.options.map((o) => o.flags)).toEqual([
      '--limit <n>',
      '--post-only',
      '--client-id <ids...>',
      '--sort <value>',
      '-n, --note <value>',
    ]);
    expect(e.options[0]?.default).toBe(10);
    expect(JSON.parse(JSON.stringify(e))).toEqual(e); // plain data
  });

  it('src/generated/manifest.json matches the command definitions (npm run build regenerates it)', async () => {
    const dir = join('src', 'commands');
    const entries = [];
    for (const file of walk(dir)) {
      const mod = (await import(`../../${file.split(sep).join('/')}`)) as { default?: unknown };
      if (isDefinedCommand(mod.default))
        entries.push(manifestEntry(mod.default, relative(dir, file).split(sep).join('/').replace(/\.ts$/, '.js')));
    }
    expect(entries.length).toBeGreaterThan(25);
    expect(
      JSON.parse(readFileSync('src/generated/manifest.json', 'utf8')),
      'src/generated/manifest.json is stale: run npm run build',
    ).toEqual(entries);
  });

  it('every command pm registers is a defineCommand definition from its own file (no untyped registry entries)', async () => {
    const COMMANDS = (await import('../../src/app/registry.js')).commands();
    const manifest = JSON.parse(readFileSync('src/generated/manifest.json', 'utf8')) as { path: string[]; file: string }[];
    const paths = COMMANDS.map((c) => c.path.join(' '));
    expect(new Set(paths).size).toBe(paths.length);
    for (const c of COMMANDS) {
      expect(typeof c.file, `${c.path.join(' ')} has no command file`).toBe('string');
      expect(
        manifest.some((m) => m.file === c.file && m.path.join(' ') === c.path.join(' ')),
        c.path.join(' '),
      ).toBe(true);
    }
    // The portfolio, money, partner and chain commands were registry entries with untyped options.
    for (const p of ['portfolio positions', 'positions', 'withdraw', 'redeem', 'partner onboard', 'approve set', 'balance', 'sandbox fund'])
      expect(paths).toContain(p);
    expect(readdirSync('src/app').filter((n) => n.startsWith('registry-'))).toEqual([]);
  });
});
