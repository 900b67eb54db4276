// pm's styles (src/cli/colors.ts) are chalk's at level 1 (16 colours, whatever the terminal
// reports), including text with line breaks and nested styles; disabled, they return the text
// unchanged. (That chalk loads only when colour is on: test/cli/tty-output.test.ts.)
import { Chalk } from 'chalk';
import { expect, it } from 'vitest';
import { colors } from '../../src/cli/colors.js';

it('matches chalk at level 1, and is plain when disabled', () => {
  const chalk = new Chalk({ level: 1 });
  const c = colors(true);
  const texts = ['', 'a', 'two\nlines', 'crlf\r\nline', 42, `x ${chalk.dim('inner')} y`, `${chalk.bold('b')} and ${chalk.red('r')}`];
  for (const name of ['bold', 'dim', 'red', 'green', 'yellow', 'cyan', 'magenta'] as const) {
    for (const t of texts) expect(c[name](t), `${name} ${JSON.stringify(t)}`).toBe(chalk[name](t));
    expect(colors(false)[name]('two\nlines')).toBe('two\nlines');
  }
  expect(c.bold(c.red('x'))).toBe(chalk.bold(chalk.red('x')));
  expect(c.red(`a ${c.dim(c.bold('b'))} c`)).toBe(chalk.red(`a ${chalk.dim(chalk.bold('b'))} c`));
});
