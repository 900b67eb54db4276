// The documentation stays true to the code: the command reference is what the definitions make
// now, every relative link lands on a file and a heading that exist, and every "wire-facts §N.M"
// cited in the code names a section of docs/wire-facts.md.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandDocs } from '../../src/app/docs.js';
import { commands } from '../../src/app/registry.js';

const walk = (dir: string, ext: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), ext) : e.name.endsWith(ext) ? [join(dir, e.name)] : [],
  );

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (text: string): Set<string> =>
  new Set([...text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.*)$/gm)].map((m) => anchor(m[1] ?? '')));

describe('docs/', () => {
  it('docs/commands/ is what npm run docs makes from the command definitions', () => {
    const want = commandDocs();
    expect(readdirSync('docs/commands').sort(), 'docs/commands/ has other files: run npm run docs').toEqual(Object.keys(want).sort());
    for (const [file, text] of Object.entries(want))
      expect(readFileSync(join('docs/commands', file), 'utf8'), `docs/commands/${file} is stale: run npm run docs`).toBe(text);
  });

  it('says, for every command whose effect depends on its options, what changes it', async () => {
    const missing: string[] = [];
    for (const c of commands()) {
      const { def } = await c.load();
      if (def.effectOf && !c.effectNote) missing.push(c.path.join(' '));
    }
    expect(missing, 'these define effectOf without an effectNote').toEqual([]);
    const allowances = commandDocs()['partner.md']?.split('## pm partner allowances')[1] ?? '';
    expect(allowances).toMatch(/^Effect: \*\*read\*\*: reads only\. With `--retry`: \*\*money\*\*/m);
  });

  it('every relative link of the README and docs/ lands on a file, and on a heading of it', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...walk('docs', '.md')]) {
      const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path = '', hash] = target.split('#');
        const to = path === '' ? file : normalize(join(dirname(file), path));
        let body: string;
        try {
          body = readFileSync(to, 'utf8');
        } catch {
          broken.push(`${file}: ${target} (no file ${to})`);
          continue;
        }
        if (hash !== undefined && !anchorsOf(body).has(hash)) broken.push(`${file}: ${target} (no heading #${hash} in ${to})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every "wire-facts §N.M" the code cites is a section of docs/wire-facts.md', () => {
    const sections = new Set([...readFileSync('docs/wire-facts.md', 'utf8').matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]));
    const cited = new Set<string>();
    for (const file of [...walk('src', '.ts'), ...walk('test', '.ts')])
      for (const m of readFileSync(file, 'utf8').matchAll(/wire-facts §\s?(\d+(?:\.\d+)?)/g)) cited.add(`${m[1]} ${file}`);
    expect(cited.size).toBeGreaterThan(10);
    expect([...cited].filter((c) => !sections.has(c.split(' ')[0]))).toEqual([]);
  });
});
