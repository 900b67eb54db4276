// The one renderer: tables, key/value blocks, JSON and NDJSON. Colour only on a TTY and never
// with NO_COLOR / --no-color. stdout is data; stderr is everything else.
//
// The contract (docs/output.md):
// - table on a TTY: aligned columns fitted to the terminal width (process.stdout.columns);
// - table when stdout is not a TTY and no format was asked for: tab-separated lines with a header
//   row, nothing truncated, no colour, no box drawing (so awk and cut work);
// - json: one JSON document; ndjson: one JSON object per line (one per item of a list);
// - with json or ndjson, stderr carries nothing but the error object (see Context): info and
//   warnings go nowhere (--verbose lets them through).
import { ansiColors, PLAIN } from './colors.js';
import type { Colors } from './colors.js';
import { createRequire } from 'node:module';
import { toJson } from './json.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A package the CLI loads on first use, synchronously: its bundle dist/vendor/<name>.cjs (built by
 * scripts/build.mjs, so an installed pm needs no such dependency), else (tests running src/) the
 * package itself.
 */
function vendored(name: 'cli-table3' | 'cli-progress'): unknown {
  const require = createRequire(import.meta.url);
  const bundle = fileURLToPath(new URL(`../vendor/${name}.cjs`, import.meta.url));
  return require(existsSync(bundle) ? bundle : name);
}

/** Live progress of long work on stderr (see Output.progress). */
export interface Progress {
  /** Sets the counts; `done` of `total` items are finished. */
  update(done: number, counts: Record<string, number | string>): void;
  /** Changes the total (when it becomes known). */
  setTotal(total: number): void;
  /** Prints a line above the bar (notes, warnings) without breaking it. */
  log(line: string): void;
  stop(): void;
}

export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

export interface InStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean | undefined;
}

/** What a command may touch of the outside world; tests pass their own. */
export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Raised on Ctrl-C / SIGTERM by run.ts; commands pass it to long waits. */
  signal?: AbortSignal | undefined;
  /** Set by `pm shell` for the commands it runs: what the session shares (src/app/session.ts). */
  session?: ShellSession | undefined;
  /** Set by `pm shell` reading lines without a terminal: the input line being run, which its error names (docs/shell.md). */
  inputLine?: number | undefined;
}

/** A copy of io with some fields replaced, keeping its getters as getters (run.ts makes stdin
 * one, so that a command that never reads stdin never creates the stream). */
export function withIO(io: IO, overrides: Partial<IO>): IO {
  return Object.defineProperties(
    Object.defineProperties({}, Object.getOwnPropertyDescriptors(io)),
    Object.getOwnPropertyDescriptors(overrides),
  ) as IO;
}

/** What a `pm shell` session shares between the commands it runs. */
export interface ShellSession {
  /** Asks the keystore passphrase in the shell's own line editor (echo off). */
  askPassphrase(message: string): Promise<string>;
  /** The passphrase once given (forgotten when it proves wrong). */
  pass?: Promise<string> | undefined;
}

export type Format = 'table' | 'json' | 'ndjson';

/** "1234567.5" -> "1,234,567.5" (the integer part only; a sign is kept). */
function groupThousands(decimal: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(decimal);
  if (!m) return decimal;
  return `${m[1]}${(m[2] ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${m[3] ?? ''}`;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /**
   * How the column gives way on a terminal too narrow for the table (docs/output.md, "Tables on
   * a terminal"). Unset: never, the rule for amounts, prices and money. `cut`: its cells are cut
   * with … down to `min` characters (ids, free text); `hide`: it is left out. Columns give way in
   * increasing `order`, only as far as the table needs; a note on stderr names them, and --wide
   * (or a pipe) shows every column whole.
   */
  fit?: Fit;
}

/** How a column gives way (Column.fit). */
export interface Fit {
  how: 'cut' | 'hide';
  order: number;
  min?: number;
}

/** A column that is cut with … when the terminal is too narrow (ids, free text). */
export const cutFirst = (order: number, min = 8): Fit => ({ how: 'cut', order, min });
/** A column left out when the terminal is too narrow. */
export const hideFirst = (order: number): Fit => ({ how: 'hide', order });

/**
 * The widths of the columns shown in `max` characters (null: hidden), given their natural widths
 * and `gap` characters between columns: the declared columns give way in their order, as far as
 * needed; a terminal narrower than what is left cuts the widest left-aligned columns (money is
 * right-aligned and never cut) down to 4 characters.
 */
export function fitWidths(columns: Column[], natural: number[], max: number, gap: number): (number | null)[] {
  const w: (number | null)[] = [...natural];
  const total = (): number => {
    const shown = w.filter((x): x is number => x !== null);
    return shown.reduce((a, b) => a + b, 0) + gap * Math.max(0, shown.length - 1);
  };
  const steps = columns
    .map((c, i) => ({ fit: c.fit, i }))
    .filter((x): x is { fit: Fit; i: number } => x.fit !== undefined)
    .sort((a, b) => a.fit.order - b.fit.order);
  for (const { fit, i } of steps) {
    const now = w[i];
    if (total() <= max) break;
    if (now === null || now === undefined) continue;
    if (fit.how === 'hide') w[i] = null;
    else w[i] = Math.max(Math.min(now, fit.min ?? 8), now - (total() - max));
  }
  while (total() > max) {
    let widest = -1;
    w.forEach((x, i) => {
      if (x !== null && x > 4 && columns[i]?.align !== 'right' && (widest === -1 || x > (w[widest] ?? 0))) widest = i;
    });
    const now = w[widest];
    if (now === null || now === undefined) break;
    w[widest] = Math.max(4, now - (total() - max));
  }
  return w;
}

const ANSI = /\x1b\[[0-9;]*m/g;
/** The visible width of a cell (colour codes do not count). */
const width = (s: string): number => s.replace(ANSI, '').length;

/** cli-table3 without lines: columns apart by two spaces. */
const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** How a table is drawn: aligned for people (optionally fitted to a width), or tab-separated. */
export type TableStyle = { kind: 'aligned'; columns?: number | undefined } | { kind: 'tsv' };

export class Output {
  readonly format: Format;
  /** The styles: plain until ready() has loaded chalk's, when colour is on. */
  c: Colors = PLAIN;
  readonly color: boolean;
  private readonly quiet: boolean;
  readonly tableStyle: TableStyle;

  /**
   * `explicitTable`: the user asked for -o table, so a piped table stays aligned. `wide`: a table
   * on a terminal keeps every column whole however wide it is (--wide).
   */
  constructor(
    private readonly io: IO,
    opts: { format: Format; color: boolean; quiet: boolean; explicitTable?: boolean; wide?: boolean },
  ) {
    this.format = opts.format;
    this.quiet = opts.quiet;
    this.color = opts.color;
    const tty = io.stdout.isTTY === true;
    this.tableStyle =
      tty || opts.explicitTable ? { kind: 'aligned', columns: tty && !opts.wide ? io.stdout.columns : undefined } : { kind: 'tsv' };
  }

  /** Loads what drawing needs before a command runs: chalk's styles when colour is on. */
  async ready(): Promise<void> {
    if (this.color && this.c === PLAIN) this.c = await ansiColors();
  }

  get isJson(): boolean {
    return this.format !== 'table';
  }

  /** Writes a JSON value (pretty on a TTY) or, for ndjson, one line per array item. */
  json(value: unknown): void {
    if (this.format === 'ndjson' && Array.isArray(value)) {
      for (const item of value) this.io.stdout.write(`${toJson(item)}\n`);
      return;
    }
    this.io.stdout.write(`${toJson(value, this.io.stdout.isTTY === true)}\n`);
  }

  /** One NDJSON record (streams, batch results). */
  record(value: unknown): void {
    this.io.stdout.write(`${toJson(value)}\n`);
  }

  /**
   * Renders `value` as JSON, or calls `human` to print it for people. With ndjson, a list prints
   * one item per line; `records` names the items when `value` is not itself the list (e.g. the
   * levels of a book, the markets of a page).
   */
  data(value: unknown, human: () => void, opts: { records?: unknown[] } = {}): void {
    if (this.format === 'ndjson' && opts.records) {
      for (const item of opts.records) this.record(item);
    } else if (this.isJson) this.json(value);
    else human();
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  table(columns: Column[], rows: string[][]): void {
    if (this.tableStyle.kind === 'tsv') {
      // Tab-separated with a header row: one line per row, cells never cut, no colour.
      const cell = (v: string): string => v.replace(ANSI, '').replace(/[\t\r\n]+/g, ' ');
      this.line(columns.map((c) => cell(c.header)).join('\t'));
      for (const r of rows) this.line(columns.map((_c, i) => cell(r[i] ?? '')).join('\t'));
      if (rows.length === 0) this.info('(none)');
      return;
    }
    if (rows.length === 0) {
      this.info('(none)');
      return;
    }
    const gap = BORDERLESS.middle.length;
    const natural = columns.map((c, i) => Math.max(width(c.header), ...rows.map((r) => width(r[i] ?? ''))));
    const max = this.tableStyle.columns;
    const fitted = max !== undefined && max > 0 ? fitWidths(columns, natural, max, gap) : natural;
    const shown = columns.flatMap((c, i) => {
      const w = fitted[i];
      return w === null || w === undefined ? [] : [{ c, i, w }];
    });
    // Drawn by cli-table3 (loaded here only: a piped table is tab-separated text): no borders, two
    // spaces between columns, each cell cut to its width with … (the colour of a cut cell kept).
    const Table = vendored('cli-table3') as typeof import('cli-table3');
    const table = new Table({
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
      colWidths: shown.map((s) => s.w),
      colAligns: shown.map((s) => s.c.align ?? 'left'),
      wordWrap: false,
      truncate: '…',
    });
    table.push(
      shown.map((s) => this.c.bold(s.c.header)),
      ...rows.map((r) => shown.map((s) => (r[s.i] ?? '').replace(/[\r\n]+/g, ' '))),
    );
    for (const l of table.toString().split('\n')) this.line(l.trimEnd());
    const hidden = columns.filter((_c, i) => fitted[i] === null).map((c) => c.header);
    const cut = shown.filter((s) => s.w < (natural[s.i] ?? 0)).map((s) => s.c.header);
    if (hidden.length || cut.length) {
      const what = [...(hidden.length ? [`${hidden.join(', ')} hidden`] : []), ...(cut.length ? [`${cut.join(', ')} cut`] : [])];
      this.info(this.c.dim(`(${what.join('; ')} to fit ${max ?? 0} columns: --wide shows every column whole)`));
    }
  }

  /** Whether numbers get thousands separators: for people on a terminal, never for programs. */
  get grouped(): boolean {
    return this.format === 'table' && this.io.stdout.isTTY === true;
  }

  /**
   * Money and share amounts, formatted one way everywhere: a decimal string (e.g. from
   * formatUnits) gets thousands separators on a TTY and stays plain when piped or in JSON.
   * @example out.num('1284500.25') // '1,284,500.25' on a TTY
   */
  num(decimal: string): string {
    return this.grouped ? groupThousands(decimal) : decimal;
  }

  /** Dollars: `$` and two decimals (grouped on a TTY). */
  usd(decimal: string): string {
    const [w = '0', f = ''] = decimal.split('.');
    return `$${this.num(`${w}.${f.padEnd(2, '0').slice(0, Math.max(2, f.length))}`)}`;
  }

  /**
   * A progress bar on stderr (cli-progress) for people watching a terminal: only when stderr is
   * a TTY, the output is a table and not --quiet; otherwise null (nothing is drawn). `format`
   * uses cli-progress tokens ({bar}, {value}, {total}, {eta_formatted}) and the keys of the
   * counts given to update.
   * @example const p = out.progress(120, '{bar} {value}/{total} | {placed} placed'); p?.update(1, { placed: 1 }); p?.stop()
   */
  progress(total: number, format: string, counts: Record<string, number | string> = {}): Progress | null {
    if (this.io.stderr.isTTY !== true || this.quiet || this.isJson) return null;
    const { MultiBar } = vendored('cli-progress') as typeof import('cli-progress');
    const multi = new MultiBar({
      stream: this.io.stderr as unknown as NodeJS.WritableStream,
      format,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      fps: 8,
      barsize: 24,
      etaBuffer: 20,
      autopadding: true,
      barCompleteChar: '█',
      barIncompleteChar: '░',
    });
    const bar = multi.create(total, 0, counts);
    let stopped = false;
    return {
      update: (done, c) => {
        if (!stopped) bar.update(done, c);
      },
      setTotal: (t) => {
        if (!stopped) bar.setTotal(t);
      },
      log: (line) => {
        if (stopped) this.io.stderr.write(`${line}\n`);
        else multi.log(`${line}\n`);
      },
      stop: () => {
        if (stopped) return;
        stopped = true;
        multi.update();
        multi.stop();
      },
    };
  }

  /** An aligned `key  value` block (for `show` commands); `info`: on stderr, for people, as info() is. */
  keyValue(pairs: [string, string][], to: 'data' | 'info' = 'data'): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) {
      const text = `${this.c.dim(k.padEnd(width))}  ${v}`;
      if (to === 'info') this.info(text);
      else this.line(text);
    }
  }

  /** Progress and notes for people: stderr, silenced by --quiet and with json/ndjson. */
  info(text: string): void {
    if (!this.quiet && !this.isJson) this.io.stderr.write(`${text}\n`);
  }

  /** A warning on stderr (not with json/ndjson: stderr then carries only the error object). */
  warn(text: string): void {
    if (!this.isJson) this.io.stderr.write(`${this.c.yellow('warning:')} ${text}\n`);
  }
}
