// The one renderer: tables (cli-table3), key/value blocks, JSON and NDJSON. Colour only on a
// TTY and never with NO_COLOR / --no-color. stdout is data; stderr is everything else.
import { createRequire } from 'node:module';
import { Chalk } from 'chalk';
import type { ChalkInstance } from 'chalk';
import { toJson } from './json.js';

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
}

export type Format = 'table' | 'json' | 'ndjson';

export { toJson };

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

const require = createRequire(import.meta.url);

export class Output {
  readonly format: Format;
  readonly c: ChalkInstance;
  readonly color: boolean;
  private readonly quiet: boolean;

  constructor(private readonly io: IO, opts: { format: Format; color: boolean; quiet: boolean }) {
    this.format = opts.format;
    this.quiet = opts.quiet;
    this.color = opts.color;
    this.c = new Chalk({ level: opts.color ? 1 : 0 });
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

  /** Renders `value` as JSON, or calls `human` to print it for people. */
  data(value: unknown, human: () => void): void {
    if (this.isJson) this.json(value);
    else human();
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  table(columns: Column[], rows: string[][]): void {
    if (rows.length === 0) {
      this.info('(none)');
      return;
    }
    const Table = require('cli-table3') as new (o: object) => { push(...r: string[][]): void; toString(): string };
    const t = new Table({
      head: columns.map((c) => this.c.bold(c.header)),
      colAligns: columns.map((c) => c.align ?? 'left'),
      style: { head: [], border: [], compact: true },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    });
    t.push(...rows);
    this.line(t.toString());
  }

  /** An aligned `key  value` block (for `show` commands). */
  keyValue(pairs: [string, string][]): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) this.line(`${this.c.dim(k.padEnd(width))}  ${v}`);
  }

  /** Progress and notes for people: stderr, silenced by --quiet. */
  info(text: string): void {
    if (!this.quiet) this.io.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`${this.c.yellow('warning:')} ${text}\n`);
  }
}
