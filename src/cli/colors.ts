// The few ANSI styles pm's human output uses, as chalk draws them at level 1 (16 colours):
// chalk's import alone (supports-color, which loads node:tty, node:os and, through tty,
// node:net) cost every command, --help included, ~2 ms of start-up, and pm decides colour itself
// (Context: --no-color, NO_COLOR, TERM=dumb, a TTY). As chalk: a style closed inside the text is
// opened again after it, and a style ends before each line break and starts again after it.
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

function style(open: number, close: number): Style {
  const o = `\x1b[${open}m`;
  const c = `\x1b[${close}m`;
  return (text) => {
    let s = String(text);
    if (s === '') return s;
    if (s.includes(c)) s = s.replaceAll(c, c + o);
    if (s.includes('\n')) s = s.replace(/\r?\n/g, `${c}$&${o}`);
    return o + s + c;
  };
}

const plain: Style = (text) => String(text);
const PLAIN: Colors = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
const ANSI: Colors = {
  bold: style(1, 22),
  dim: style(2, 22),
  red: style(31, 39),
  green: style(32, 39),
  yellow: style(33, 39),
  cyan: style(36, 39),
  magenta: style(35, 39),
};

/** Styles that draw ANSI colour when `enabled`, and return the text unchanged otherwise. */
export const colors = (enabled: boolean): Colors => (enabled ? ANSI : PLAIN);
