// The README's tour, run as written: every ```sh block marked `<!-- tour: run -->` runs top to
// bottom, one command line at a time in bash (pm on PATH, one PM_HOME for the whole tour), the
// first block starting the sandbox (on port 0 here). Each line must exit as the block says: 0, or
// the code its comment names ("exits N"). Placeholders (<id>, <slug>, 0x…) are filled in here.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const work = mkdtempSync(join(tmpdir(), 'pm-tour-'));
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(resolve('bin/pm.js'), join(bin, 'pm'));
const env = {
  PATH: `${bin}:${process.env['PATH'] ?? ''}`,
  HOME: work,
  PM_HOME: join(work, 'home'),
  PM_PASSPHRASE: 'tour-passphrase',
  PM_SCRYPT_N: '1024',
  PM_CODE_CACHE: 'off',
};
const sh = promisify(execFile);
afterAll(async () => {
  await sh('node', ['bin/pm.js', 'sandbox', 'stop'], { env }).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

interface TourLine {
  /** The command as written (comment removed). */
  command: string;
  /** The exit code the line's comment names ("exits N"), else 0. */
  expect: number;
}

/** The command lines of the README's blocks marked `<!-- tour: run -->`, block by block. */
function tourBlocks(readme: string): TourLine[][] {
  return [...readme.matchAll(/^<!-- tour: run -->\n```sh\n([\s\S]*?)^```$/gm)].map((m) =>
    (m[1] ?? '')
      .split('\n')
      .map((raw) => {
        // A comment starts at a # after whitespace, outside quotes.
        let quote = '';
        let at = raw.length;
        for (let i = 0; i < raw.length; i++) {
          const ch = raw[i] ?? '';
          if (quote) {
            if (ch === quote) quote = '';
          } else if (ch === "'" || ch === '"') quote = ch;
          else if (ch === '#' && (i === 0 || /\s/.test(raw[i - 1] ?? ''))) {
            at = i;
            break;
          }
        }
        const comment = raw.slice(at);
        return { command: raw.slice(0, at).trim(), expect: Number(/\bexits (\d+)\b/.exec(comment)?.[1] ?? 0) };
      })
      .filter((l) => l.command !== ''),
  );
}

/** What the test changes: the sandbox on a free port, and the placeholders. */
function filled(command: string): string {
  return command
    .replace(/\bpm sandbox start\b/, 'pm sandbox start --port 0')
    .replaceAll('<slug>', 'btc-100k-2026')
    .replaceAll('0x…', '0x000000000000000000000000000000000000bEEF');
}

const blocks = tourBlocks(readFileSync('README.md', 'utf8'));

describe("the README's tour", () => {
  it('has marked blocks: the short tour, from starting the sandbox to stopping it', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks[0]?.[0]?.command).toBe('pm sandbox start --detach');
    expect(blocks.flat().some((l) => l.command.startsWith('pm init --sandbox --yes'))).toBe(true);
    expect(blocks.flat().at(-1)?.command).toBe('pm sandbox stop');
    for (const l of blocks.flat()) expect(filled(l.command), 'a placeholder left unfilled').not.toMatch(/<\w+>|…/);
  });

  it('runs top to bottom as written, every command exiting as the block says', async () => {
    const ran: string[] = [];
    for (const line of blocks.flat()) {
      const command = filled(line.command);
      const r = await sh('bash', ['-o', 'pipefail', '-c', command], { env, cwd: resolve('.'), maxBuffer: 64 * 1024 * 1024 }).then(
        (o) => ({ code: 0, stdout: o.stdout, stderr: o.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({
          code: typeof e.code === 'number' ? e.code : -1,
          stdout: e.stdout ?? '',
          stderr: e.stderr ?? '',
        }),
      );
      ran.push(`${r.code} ${command}`);
      expect(r.code, `${command}\n${r.stderr}\n(ran so far:\n${ran.join('\n')})`).toBe(line.expect);
      // A jq filter that prints null picked a field the records do not have.
      if (/\| *jq\b/.test(command)) expect(r.stdout.split('\n'), `${command} printed null:\n${r.stdout}`).not.toContain('null');
    }
  }, 180_000);
});
