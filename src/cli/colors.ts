// The few styles pm's human output uses, drawn by chalk at level 1 (16 colours). chalk is loaded
// only when colour is on (a terminal, no --no-color, no NO_COLOR, TERM not dumb: the Context
// decides, and Output.ready() loads it before a command runs), so piped output, JSON and --help
// never pay its import (supports-color loads node:tty, node:os and node:net); off, the styles
// return the text unchanged.
type Style = (text: unknown) => string;

export interface Colors {
  bold: Style;
  dim: Style;
  red: Style;
  green: Style;
  yellow: Style;
  cyan: Style;
  magenta: Style;
}

const plain: Style = (text) => String(text);
/** The styles with colour off: the text unchanged. */
export const PLAIN: Colors = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };

/**
 * chalk's styles at level 1: the 16 colours every terminal draws, whatever chalk would detect.
 * Imported on the call (the bundle evaluates chalk then, not when pm starts).
 */
export async function ansiColors(): Promise<Colors> {
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return {
    bold: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    red: (t) => c.red(t),
    green: (t) => c.green(t),
    yellow: (t) => c.yellow(t),
    cyan: (t) => c.cyan(t),
    magenta: (t) => c.magenta(t),
  };
}
