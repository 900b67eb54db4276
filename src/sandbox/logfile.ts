// The event log's files: events.ndjson (appended to) and events.<S>.ndjson (older segments,
// rotated out when a compaction started at seq S), read back line by line, each entry
// shape-checked (shape.ts), so a damaged one is an error naming the file and the line.
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeOrWhy } from './codec.js';
import { checkLogEntry, LegacyEventError, ShapeError } from './shape.js';
import { corrupt, SandboxStateError } from './stateerror.js';
import type { LogEntry } from './events.js';

export const LOG = 'events.ndjson';
export const SEGMENT = /^events\.(\d+)\.ndjson$/;

/** The log files of a dir, oldest first: rotated segments by seq, then the live log. */
export function logFiles(dir: string): string[] {
  const segs = readdirSync(dir)
    .map((f) => SEGMENT.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => join(dir, m[0]));
  const live = join(dir, LOG);
  return existsSync(live) ? [...segs, live] : segs;
}

const NEWLINE = 0x0a;

/**
 * Parses one log file, deciding from its bytes: every line an append completed ends in a
 * newline, so only bytes after the last newline are a torn append (kill -9 mid-write, never
 * acknowledged): ignored, and cut off when `cut` (the live log, which is appended to next). A
 * complete line that cannot be read, wherever it is, is damage: an error naming the line.
 */
export function readLogFile(file: string, cut: boolean): { entries: LogEntry[]; lines: number[]; torn: string | null } {
  const buf = readFileSync(file);
  const entries: LogEntry[] = [];
  const lines: number[] = []; // the line number of each entry
  const complete = buf.lastIndexOf(NEWLINE) + 1; // byte length of the newline-terminated lines
  let lineNo = 0;
  let lastSeq = 0;
  for (let pos = 0; pos < complete; ) {
    const nl = buf.indexOf(NEWLINE, pos);
    const line = buf.toString('utf8', pos, nl);
    pos = nl + 1;
    lineNo += 1;
    if (line.trim() === '') continue;
    const read = decodeOrWhy(line);
    if (!read.ok) throw corrupt(file, `line ${lineNo}: ${read.why}`);
    const e = checkedEntry(file, lineNo, read.value);
    if (e.seq <= lastSeq)
      throw corrupt(file, `line ${lineNo}, event ${e.seq} comes after event ${lastSeq}: the sequence numbers must grow`);
    lastSeq = e.seq;
    entries.push(e);
    lines.push(lineNo);
  }
  let torn: string | null = null;
  if (complete < buf.length) {
    torn = `dropped the torn last line (line ${lineNo + 1}) of ${file}: a write cut off mid-way (kill or crash), never acknowledged to any client`;
    if (cut) {
      const fd = openSync(file, 'r+');
      try {
        ftruncateSync(fd, complete);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
  return { entries, lines, torn };
}

/** One decoded log line, shape-checked: the entry, or an error naming the file, the line and the field. */
function checkedEntry(file: string, lineNo: number, parsed: unknown): LogEntry {
  try {
    return checkLogEntry(parsed);
  } catch (err) {
    if (err instanceof LegacyEventError)
      throw new SandboxStateError(
        file,
        `line ${lineNo}: a "${err.type}" event; that version recorded tokens and profiles by diffing the whole state, this one records named events and does not read those`,
        true,
      );
    if (!(err instanceof ShapeError)) throw err;
    const o = parsed as Record<string, unknown> | null;
    const what =
      o && typeof o === 'object' && typeof o['seq'] === 'number'
        ? `event ${o['seq']}${typeof o['type'] === 'string' ? ` (${o['type']})` : ''}: `
        : '';
    throw corrupt(file, `line ${lineNo}, ${what}${err.message}`);
  }
}
