// The command line pm writes out after an unknown outcome: argv as given, the client id written
// in when argv lacks it, words quoted so that a POSIX shell reads them back as they were.
import { describe, expect, it } from 'vitest';
import { rerunLine } from '../../src/cli/rerun.js';

/** What a POSIX shell makes of a line of plain and single-quoted words (the only forms rerunLine writes). */
const shellSplit = (line: string): string[] =>
  [...line.matchAll(/(?:[^\s']+|'(?:[^']|'\\'')*')+/g)].map((m) =>
    m[0].replace(/'((?:[^']|'\\'')*)'/g, (_q, inner: string) => inner.replace(/'\\''/g, "'")),
  );

describe('rerunLine', () => {
  it('adds the flag and value when argv lacks them, before a `--`', () => {
    expect(rerunLine(['--json', 'order', 'place', 'btc', 'buy', 'yes', '--price', '0.4', '--size', '1'], '--client-id', 'pm-ab')).toBe(
      'pm --json order place btc buy yes --price 0.4 --size 1 --client-id pm-ab',
    );
    expect(rerunLine(['order', 'place', '--', 'x'], '--client-id', 'c')).toBe('pm order place --client-id c -- x');
  });

  it('keeps argv as it is when the flag is given (either spelling)', () => {
    expect(rerunLine(['order', 'replace', '--new-client-id', 'n1', '--price', '0.2'], '--new-client-id', 'other')).toBe(
      'pm order replace --new-client-id n1 --price 0.2',
    );
    expect(rerunLine(['order', 'place', '--client-id=c1'], '--client-id', 'c1')).toBe('pm order place --client-id=c1');
  });

  it('quotes words a shell would split or expand, and they read back as given', () => {
    const argv = ['order', 'place', 'a b', "it's", '$HOME', '', 'x;y', '--client-id', 'é'];
    const line = rerunLine(argv, '--client-id', 'unused');
    expect(shellSplit(line.slice('pm '.length))).toEqual(argv);
  });

  it('never writes back the value of a secret-looking flag', () => {
    expect(rerunLine(['x', '--token-secret', 's3cr3t'], '--client-id', 'c')).not.toContain('s3cr3t');
  });
});
