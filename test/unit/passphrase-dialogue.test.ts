// The new-keystore passphrase dialogue on a terminal: when the repeat differs, both are asked
// again (it re-asked only the repeat, so a typo in the first one could never be fixed there).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writingPassphrase } from '../../src/keystore/dialogue.js';
import { Keystore } from '../../src/keystore/store.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pm-dialogue-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** A terminal that types `answers` in turn; a refused answer is asked again in place, as the prompt does. */
function terminal(answers: string[]) {
  const asked: string[] = [];
  const said: string[] = [];
  const ask = async (message: string, _hint: string, validate?: (v: string) => boolean | string): Promise<string> => {
    for (;;) {
      asked.push(message);
      const v = answers.shift();
      if (v === undefined) throw new Error(`no answer left for "${message}" (asked: ${asked.join(' / ')})`);
      const ok = validate ? validate(v) : true;
      if (ok === true) return v;
      said.push(String(ok));
    }
  };
  return { asked, said, ask, say: (line: string) => void said.push(line) };
}

describe('a new keystore passphrase', () => {
  it('asks both again when the repeat differs', async () => {
    const t = terminal(['first-try-1', 'first-typo-1', 'second-try-2', 'second-try-2']);
    const pass = await writingPassphrase({
      keystore: new Keystore(home, { scrypt: { n: 1024 } }),
      env: undefined,
      file: undefined,
      interactive: true,
      ask: t.ask,
      say: t.say,
    });
    expect(pass).toBe('second-try-2');
    expect(t.asked).toEqual(['New keystore passphrase', 'Repeat the passphrase', 'New keystore passphrase', 'Repeat the passphrase']);
    expect(t.said.join('\n')).toMatch(/the two passphrases differ: type both again/);
  });

  it('still refuses one under 8 characters in place', async () => {
    const t = terminal(['short', 'long-enough-1', 'long-enough-1']);
    const pass = await writingPassphrase({
      keystore: new Keystore(home, { scrypt: { n: 1024 } }),
      env: undefined,
      file: undefined,
      interactive: true,
      ask: t.ask,
      say: t.say,
    });
    expect(pass).toBe('long-enough-1');
    expect(t.said.join('\n')).toMatch(/too short/);
  });
});
