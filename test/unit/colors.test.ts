// pm's styles (src/cli/colors.ts) are chalk's at level 1 (16 colours, whatever the terminal
// reports), including text with line breaks and nested styles; with colour off they return the
// text unchanged, and Output loads chalk's only when colour is on. (What a pm process loads on a
// terminal and piped: test/cli/tty-output.test.ts.)
import { Chalk } from 'chalk';
import { expect, it } from 'vitest';
import { ansiColors, PLAIN } from '../../src/cli/colors.js';
import { Output } from '../../src/cli/output.js';
import type { IO } from '../../src/cli/output.js';

it('matches chalk at level 1, and is plain when off', async () => {
  const chalk = new Chalk({ level: 1 });
  const c = await ansiColors();
  const texts = ['', 'a', 'two\nlines', 'crlf\r\nline', 42, `x ${chalk.dim('inner')} y`, `${chalk.bold('b')} and ${chalk.red('r')}`];
  for (const name of ['bold', 'dim', 'red', 'green', 'yellow', 'cyan', 'magenta'] as const) {
    for (const t of texts) expect(c[name](t), `${name} ${JSON.stringify(t)}`).toBe(chalk[name](t));
    expect(PLAIN[name]('two\nlines')).toBe('two\nlines');
  }
  expect(c.bold(c.red('x'))).toBe(chalk.bold(chalk.red('x')));
  expect(c.red(`a ${c.dim(c.bold('b'))} c`)).toBe(chalk.red(`a ${chalk.dim(chalk.bold('b'))} c`));
});

it("Output draws with chalk's styles after ready() when colour is on, and stays plain when it is off", async () => {
  const run = async (color: boolean): Promise<string> => {
    let text = '';
    const stdout = { write: (s: string) => ((text += s), true), isTTY: true, columns: 80 };
    const io = { stdout, stderr: stdout, stdin: { isTTY: false }, env: {}, cwd: '/' } as unknown as IO;
    const out = new Output(io, { format: 'table', color, quiet: false });
    await out.ready();
    out.table([{ header: 'SLUG' }, { header: 'PRICE', align: 'right' }], [[out.c.red('btc'), '0.42']]);
    return text;
  };
  expect(await run(true)).toBe('\x1b[1mSLUG\x1b[22m  \x1b[1mPRICE\x1b[22m\n\x1b[31mbtc\x1b[39m    0.42\n');
  expect(await run(false)).toBe('SLUG  PRICE\nbtc    0.42\n');
});
