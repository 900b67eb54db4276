// Help pages (issue 14): group pages have examples, leaf pages point to the global options in
// one line instead of repeating them, and every example can be pasted into zsh as it is.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPm, tempHome } from '../helpers/run.js';
import { commands } from '../../src/app/registry.js';
import { EXIT_CODES, exitCodesHelp, exitCodesMarkdown } from '../../src/cli/errors.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
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
    const pages = [[], ...new Set(commands().map((c) => c.path[0] ?? '')), ...commands().map((c) => c.path.join(' '))].map((p) =>
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
    const groups = [
      ...new Set(
        commands()
          .filter((c) => c.path.length > 1)
          .map((c) => c.path[0] ?? ''),
      ),
    ];
    for (const g of groups) {
      const r = await runPm([g, '--help'], { env });
      expect(r.stdout, g).toMatch(/Examples:\n {2}\$ pm /);
    }
    for (const c of commands()) {
      const r = await runPm([...c.path, '--help'], { env });
      expect(r.stdout, c.path.join(' ')).toMatch(/Global options .*: see pm help/);
      expect(r.stdout, c.path.join(' ')).not.toMatch(/--passphrase-file <file>/);
    }
    const top = await runPm(['help'], { env });
    expect(top.stdout).toMatch(/--passphrase-file <file>/);
  });
});

describe('a bare group (pm wallet) with JSON output', () => {
  it('is a usage error as one JSON object on stderr, stdout empty (it printed its help page on stdout, exit 0)', async () => {
    for (const argv of [
      ['--json', 'wallet'],
      ['-o', 'ndjson', 'order'],
      ['wallet', '--json'],
    ]) {
      const r = await runPm(argv, { env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      const e = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
      expect(e.code).toBe('USAGE');
      expect(e.message).toMatch(/needs a command: /);
      expect(e.hint).toMatch(/--help/);
    }
    // Without JSON output it stays the group's help page, exit 0.
    const text = await runPm(['wallet'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Usage: pm wallet/);
  });
});

describe('the exit-code table (one source: EXIT_CODES in src/cli/errors.ts)', () => {
  it('lists every code of docs/architecture.md §2, 9 and 8 (doctor) included', () => {
    expect(EXIT_CODES.map((c) => c.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130, 143]);
    expect(EXIT_CODES.find((c) => c.code === 8)?.meaning).toMatch(/doctor/);
    expect(EXIT_CODES.find((c) => c.code === 9)?.meaning).toMatch(/nothing to redeem/);
  });

  it('pm --help, pm help and the spawned pm --help print the table from it', async () => {
    const table = exitCodesHelp();
    for (const c of EXIT_CODES) expect(table).toMatch(new RegExp(`^ +${c.code} +${c.short.replace(/[()]/g, '\\$&')}$`, 'm'));
    for (const argv of [['--help'], ['help']]) {
      const r = await runPm(argv, { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Exit codes:\n${table}`);
    }
    const spawned = execFileSync(process.execPath, ['bin/pm.js', '--help'], { encoding: 'utf8', env: { ...process.env, PM_HOME: home } });
    expect(spawned).toContain(`Exit codes:\n${table}`);
    expect(spawned).toMatch(/^ +9 +refused by the exchange/m);
  });

  it("the root page (built without the groups' commands) lists every group and top-level command, as the full program does", async () => {
    const { buildProgram } = await import('../../src/app/main.js');
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {}, cwd: process.cwd() } as never;
    const full = buildProgram(io, () => undefined).helpInformation();
    const top = await runPm(['--help'], { env });
    expect(top.stdout.startsWith(full)).toBe(true);
    for (const c of commands()) expect(top.stdout).toMatch(new RegExp(`^  ${c.path[0]}\\b`, 'm'));
    for (const argv of [[], ['help'], ['--profile', 'x', '-h']]) expect((await runPm(argv, { env })).stdout).toBe(top.stdout);
  });

  it('the root page the build wrote is what commander prints, on a pipe and at every terminal width it is used for', async () => {
    const { buildProgram } = await import('../../src/app/main.js');
    const { rootHelpPage } = await import('../../src/cli/global-flags.js');
    const pages = JSON.parse(readFileSync('dist/cli/root-help.json', 'utf8')) as { narrow: string; wide: string };
    const commander = (width: number): string => {
      let text = '';
      const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {}, cwd: process.cwd() } as never;
      const out = {
        getOutHelpWidth: () => width,
        getOutHasColors: () => false,
        writeOut: (s: string) => {
          text += s;
        },
      };
      buildProgram(io, () => undefined, undefined, 'top')
        .configureOutput(out)
        .outputHelp();
      return text;
    };
    expect(rootHelpPage(pages, { isTTY: false, columns: 50 })).toBe(commander(80));
    expect(rootHelpPage(pages, {})).toBe(commander(80));
    const used: number[] = [];
    for (let width = 20; width <= 260; width++) {
      const page = rootHelpPage(pages, { isTTY: true, columns: width });
      if (page === undefined) continue;
      used.push(width);
      expect(page, `${width} columns`).toBe(commander(width));
    }
    // 80 columns and every terminal wide enough for the unwrapped page (else commander wraps it).
    expect(used[0]).toBe(80);
    expect(used).toContain(260);
    const spawned = execFileSync(process.execPath, ['bin/pm.js', '--help'], { encoding: 'utf8', env: { ...process.env, PM_HOME: home } });
    expect(spawned).toBe(commander(80));
  });

  it('bin/pm.js prints the root page itself exactly when commander would print it and exit 0', async () => {
    const { printsRootHelp } = await import('../../src/cli/global-flags.js');
    const { narrow } = JSON.parse(readFileSync('dist/cli/root-help.json', 'utf8')) as { narrow: string };
    const root = [
      [],
      ['--help'],
      ['-h'],
      ['help'],
      ['--json', '--help'],
      ['help', '--quiet'],
      ['--profile', 'x', '-h'],
      ['-o', 'json', 'help'],
    ];
    // Commander answers these otherwise (an error, or help on stderr), or pm cannot tell without it.
    const not = [['-q'], ['--profile', '--help'], ['-o', 'xml', '--help'], ['--timeout', 'x', '-h'], ['help', 'order']];
    for (const argv of root) {
      expect(printsRootHelp(argv), argv.join(' ')).toBe(true);
      const r = await runPm(argv, { env });
      expect([r.code, r.stdout, r.stderr], argv.join(' ')).toEqual([0, narrow, '']);
    }
    for (const argv of not) {
      expect(printsRootHelp(argv), argv.join(' ')).toBe(false);
      if (argv[0] !== 'help') expect((await runPm(argv, { env })).code, argv.join(' ')).not.toBe(0);
    }
  });

  it("docs/output.md's exit-code section begins with the table's markdown", () => {
    const doc = readFileSync('docs/output.md', 'utf8');
    const section = /## Exit codes\n\n(\|[\s\S]*?)\n\n/.exec(doc)?.[1];
    expect(section, `docs/output.md, ## Exit codes: replace the table with\n${exitCodesMarkdown()}`).toBe(exitCodesMarkdown());
  });
});
