// A batch (order place --file, order replace --file) on a terminal against an exchange that is not
// a sandbox. A batch with no line to send is refused before "Go ahead?" (it asked "Place 0
// orders…?", then refused or reported its invalid lines after a yes). A batch typed on the terminal
// (--file -) cannot be confirmed there: the lines end with Ctrl-D, and the prompt then found the
// terminal closed ("cancelled", exit 130, after the user had typed every line); it is refused before
// anything is read, with the way that works (--yes, or a file).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY, runInPty } from '../helpers/pty.js';
import { tempHome } from '../helpers/run.js';

const { home, cleanup } = tempHome();
afterAll(cleanup);
const file = (name: string, text: string): string => {
  const p = join(home, name);
  writeFileSync(p, text);
  return p;
};
const empty = file('empty.ndjson', '\n# nothing yet\n\n');
const invalid = file(
  'invalid.ndjson',
  `${JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: 0.01, size: '5' })}\n`,
);
const line = JSON.stringify({ market: 'btc-100k-2026', side: 'buy', outcome: 'yes', price: '0.01', size: '5', clientId: 'typed-1' });

// An exchange that is not a sandbox and cannot resolve: whatever is attempted fails, and --verbose
// traces every attempt.
const { CI: _ci, ...rest } = process.env;
const env = {
  ...rest,
  PM_HOME: home,
  PM_BASE_URL: 'http://exchange.invalid',
  PM_TOKEN_ID: 'tok_test',
  PM_TOKEN_SECRET: Buffer.from('x'.repeat(32)).toString('base64'),
  // The public development key (hardhat's first account).
  PM_PRIVATE_KEY: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
};

describe('a batch on a terminal, against an exchange that is not a sandbox', () => {
  for (const [argv, said] of [
    [['order', 'place', '--file', empty], /no orders in .*empty\.ndjson/],
    [['order', 'replace', '--file', empty], /no replacements in .*empty\.ndjson/],
    [['order', 'place', '--file', invalid], /line 1: price must be a decimal string/],
  ] as [string[], RegExp][])
    it(`pm ${argv.join(' ')}: exit 2 with what is wrong, never "Go ahead?", nothing attempted`, async () => {
      const { code, screen } = await runInPty(
        ['node', 'bin/pm.js', '--verbose', ...argv],
        [{ waitFor: 'Go ahead?', send: `n${KEY.enter}` }],
        env,
      );
      expect(code, screen).toBe(2);
      expect(screen).toMatch(said);
      expect(screen).not.toContain('Go ahead?');
      expect(screen).not.toMatch(/\[http\]/);
    });

  for (const [command, what] of [
    ['place', 'orders'],
    ['replace', 'replacements'],
  ] as const)
    it(`pm order ${command} --file - (the lines typed): refused before it reads the terminal, which could not answer "Go ahead?" after Ctrl-D`, async () => {
      const { code, screen } = await runInPty(
        ['node', 'bin/pm.js', '--verbose', 'order', command, '--file', '-'],
        // (Typed at once, ended by Ctrl-D: the terminal holds the lines until pm reads them.)
        [
          { waitFor: '', send: `${command === 'place' ? line : JSON.stringify({ orderId: 'nosuch', price: '0.02' })}\r\x04` },
          { waitFor: 'Go ahead?', send: `y${KEY.enter}` },
        ],
        env,
      );
      // (It asked, read the lines, and the prompt found the terminal closed: "cancelled", exit 130.)
      expect(code, screen).toBe(2);
      expect(screen).toContain(`pm order ${command} --file - would read the ${what} from this terminal`);
      expect(screen).toMatch(/Pass --yes to send the lines you type/);
      expect(screen).not.toContain('Go ahead?');
      expect(screen).not.toMatch(/\[http\]/);
    });
});
