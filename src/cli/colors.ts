// The few styles pm's human output uses, drawn by chalk at level 1 (16 colours). chalk is loaded
// only when colour is on (a terminal, no --no-color, no NO_COLOR, TERM not dumb: the Context
// decides), so piped output, JSON and --help never pay its import (supports-color loads node:tty,
// node:os and node:net); off, the styles return the text unchanged.
import { createRequire } from 'node:module';

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
const PLAIN: Colors = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
let ansi: Colors | undefined;

/** chalk's styles, loaded on first use. Level 1: the 16 colours every terminal draws, whatever chalk would detect. */
function chalkColors(): Colors {
  if (ansi) return ansi;
  const { Chalk } = createRequire(import.meta.url)('chalk') as typeof import('chalk');
  const c = new Chalk({ level: 1 });
  ansi = {
    bold: (t) => c.bold(t),
    dim: (t) => c.dim(t),
    red: (t) => c.red(t),
    green: (t) => c.green(t),
    yellow: (t) => c.yellow(t),
    cyan: (t) => c.cyan(t),
    magenta: (t) => c.magenta(t),
  };
  return ansi;
}

/** Styles that draw ANSI colour when `enabled`, and return the text unchanged otherwise. */
export const colors = (enabled: boolean): Colors => (enabled ? chalkColors() : PLAIN);
