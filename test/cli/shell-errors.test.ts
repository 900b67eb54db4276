// pm shell fed lines (no terminal): every failing line is reported on stderr as it fails, and the
// shell exits with the last line's code (docs/shell.md). With --json (or -o json|ndjson) that is
// one JSON error object per failing line, each on its own line of stderr, in the order the lines
// ran, and nothing else there: a script reads stderr as NDJSON.
// Before: a failing line followed by one that succeeded left stderr empty (exit 0), and when the
// last line failed the earlier errors were only an escaped string in that last object's details.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { useTempHomes } from '../helpers/run.js';

const newHome = useTempHomes();
interface ErrorObject {
  error: { code: string; message: string; hint?: string; details?: string; line?: number };
}

/** The real process, stdin and stdout pipes; the exchange is never reached by these lines. */
const shell = (argv: string[], input: string) =>
  execa('node', ['bin/pm.js', '--base-url', 'https://api.example-exchange.com', ...argv, 'shell'], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], PM_HOME: newHome(), PM_CODE_CACHE: 'off' },
    extendEnv: false,
    input,
    reject: false,
    stripFinalNewline: false,
  });

/** stderr as NDJSON: every line one error object. */
function errorLines(stderr: string): ErrorObject['error'][] {
  return stderr
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const doc = JSON.parse(l) as ErrorObject;
      expect(typeof doc.error.code, l).toBe('string');
      expect(typeof doc.error.message, l).toBe('string');
      return doc.error;
    });
}

describe('pm --json shell reports every failing line on stderr', () => {
  it('a refused line followed by one that succeeds: its error object on stderr, exit 0 (the last line)', async () => {
    for (const flag of [['--json'], ['-o', 'ndjson']]) {
      const r = await shell(flag, 'wallet remove x\nversion\n');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ version: expect.any(String) });
      const errors = errorLines(r.stderr);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'USAGE', message: expect.stringMatching(/needs a confirmation.*nothing was sent/) });
      expect(errors[0]?.hint).toMatch(/--yes/);
      expect(r.stderr.endsWith('}\n')).toBe(true);
    }
  });

  it("several failing lines: one object each, in order, none folded into another; the exit code is the last line's", async () => {
    const r = await shell(['--json'], 'wallet remove x\nnosuch\nversion\nmarkets show "x\nshell\nwallet remove y\n');
    expect(r.exitCode, r.stderr).toBe(2);
    const errors = errorLines(r.stderr);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^pm wallet remove needs a confirmation/),
      "unknown command 'nosuch'",
      'unterminated quote',
      'already in pm shell',
      expect.stringMatching(/^pm wallet remove needs a confirmation/),
    ]);
    expect(errors.map((e) => e.code)).toEqual(['USAGE', 'USAGE', 'USAGE', 'USAGE', 'USAGE']);
    for (const e of errors) expect(e.details ?? '').not.toMatch(/"error"/);
    expect(r.stderr).not.toMatch(/\[exit \d+\]/);
  });

  it('each error object names the input line that failed (counted from 1, blank lines too)', async () => {
    for (const flag of [['--json'], ['-o', 'ndjson']]) {
      const r = await shell(flag, 'wallet remove x\nversion\n\nnosuch\nmarkets show "x\nshell\n');
      expect(r.exitCode, r.stderr).toBe(2);
      const errors = errorLines(r.stderr);
      expect(errors.map((e) => e.line)).toEqual([1, 4, 5, 6]);
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/^pm wallet remove needs a confirmation/),
        "unknown command 'nosuch'",
        'unterminated quote',
        'already in pm shell',
      ]);
      // Still exactly one object a failing line, the line number inside it.
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(4);
    }
  });

  it('every line succeeds: stderr empty, exit 0', async () => {
    const r = await shell(['--json'], 'version\nversion\n');
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('pm shell (text) reports every failing line on stderr', () => {
  it("each failing line's error: and hint: (or usage) lines, then [exit N]; the exit code is the last line's", async () => {
    const r = await shell([], 'wallet remove x\nversion\nnosuch\nversion\nmarkets show "x\n');
    expect(r.exitCode, r.stderr).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    // Each error names its input line as a batch's failed lines do (`line N: …`).
    expect(lines).toEqual([
      expect.stringMatching(/^error: line 1: pm wallet remove needs a confirmation/),
      expect.stringMatching(/^hint: Pass --yes/),
      '[exit 2]',
      "error: line 3: unknown command 'nosuch'",
      'hint: Run pm --help for usage.',
      '[exit 2]',
      'error: line 5: unterminated quote',
      '[exit 2]',
    ]);
  });
});
