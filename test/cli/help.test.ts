// Help pages (issue 14): group pages have examples, leaf pages point to the global options in
// one line instead of repeating them, and every example can be pasted into zsh as it is.
import { describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { COMMANDS } from '../../src/app/registry.js';

const { home } = tempHome();
const env = { PM_HOME: home };

/**
 * What an interactive zsh (default options) would do wrongly with a pasted command line:
 * unquoted glob characters (no matches found), an unquoted # (comments are off in an
 * interactive zsh), ! outside single quotes (history expansion), unquoted parentheses.
 */
export function zshPasteProblems(line: string): string[] {
  const problems: string[] = [];
  let quote: '' | "'" | '"' = '';
  let wordStart = true;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (quote === "'") {
      if (ch === "'") quote = '';
      continue;
    }
    if (ch === '!') problems.push(`! at ${i} (history expansion)`);
    if (quote === '"') {
      if (ch === '\\') i++;
      else if (ch === '"') quote = '';
      continue;
    }
    if (ch === '\\') {
      i++;
      wordStart = false;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      wordStart = false;
      continue;
    }
    if (/[*?[\]]/.test(ch)) problems.push(`unquoted ${ch} at ${i} (a glob: zsh says "no matches found")`);
    if (/[(){}]/.test(ch)) problems.push(`unquoted ${ch} at ${i}`);
    if (ch === '#' && wordStart) problems.push(`# at ${i} (comments are off in an interactive zsh)`);
    wordStart = /[\s|&;<>]/.test(ch);
  }
  if (quote) problems.push('unterminated quote');
  return problems;
}

describe('help pages', () => {
  it('the paste check catches what zsh would break on', () => {
    expect(zshPasteProblems('pm --json order status x | jq .[0].settlementStatus')).not.toEqual([]);
    expect(zshPasteProblems('pm order place --file o.ndjson   # again')).not.toEqual([]);
    expect(zshPasteProblems("pm --json markets list --all | jq -r '.[].slug'")).toEqual([]);
    expect(zshPasteProblems('pm completion zsh > "${fpath[1]}/_pm"')).toEqual([]);
  });

  it('every example on every help page can be pasted into zsh', async () => {
    const pages = [[], ...new Set(COMMANDS.map((c) => c.path[0] ?? '')), ...COMMANDS.map((c) => c.path.join(' '))].map((p) =>
      Array.isArray(p) ? p : p.split(' '),
    );
    const bad: string[] = [];
    for (const page of pages) {
      const r = await runPm([...page, '--help'], { env });
      expect(r.code, page.join(' ')).toBe(0);
      for (const m of r.stdout.matchAll(/^ {2}\$ (.*)$/gm)) {
        const ex = m[1] ?? '';
        const p = zshPasteProblems(ex);
        if (p.length) bad.push(`pm ${page.join(' ')} --help: ${ex}: ${p.join('; ')}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('group pages have examples; leaf pages point to the global options in one line', async () => {
    const groups = [...new Set(COMMANDS.filter((c) => c.path.length > 1).map((c) => c.path[0] ?? ''))];
    for (const g of groups) {
      const r = await runPm([g, '--help'], { env });
      expect(r.stdout, g).toMatch(/Examples:\n {2}\$ pm /);
    }
    for (const c of COMMANDS) {
      const r = await runPm([...c.path, '--help'], { env });
      expect(r.stdout, c.path.join(' ')).toMatch(/Global options .*: see pm help/);
      expect(r.stdout, c.path.join(' ')).not.toMatch(/--passphrase-file <file>/);
    }
    const top = await runPm(['help'], { env });
    expect(top.stdout).toMatch(/--passphrase-file <file>/);
  });
});
