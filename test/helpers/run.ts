// In-process runner: main(argv, io) with captured stdout/stderr and a private PM_HOME.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { main } from '../../src/app/main.js';
import type { IO } from '../../src/cli/output.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = unknown>(): T;
}

export interface RunOptions {
  /** Terminal width on a TTY (process.stdout.columns). */
  columns?: number;
  env?: Record<string, string | undefined>;
  stdin?: string;
  tty?: boolean;
  signal?: AbortSignal;
}

/** A temporary PM_HOME, removed by the returned cleanup. */
export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'pm-home-'));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** A maker of temporary PM_HOMEs for a test file, each removed after the file's tests. */
export function useTempHomes(): () => string {
  const cleanups: (() => void)[] = [];
  afterAll(() => cleanups.forEach((c) => c()));
  return () => {
    const h = tempHome();
    cleanups.push(h.cleanup);
    return h.home;
  };
}

/** The records of an NDJSON output, one a line. */
export function ndjson<T>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);
}

/** Whether argv asks for JSON or NDJSON output (flag forms main.ts accepts). */
export function asksJson(argv: string[]): boolean {
  return (
    argv.includes('--json') ||
    argv.some((a, i) => (a === '-o' || a === '--output') && /^(nd)?json$/.test(argv[i + 1] ?? '')) ||
    argv.some((a) => /^(--output|-o)=?(nd)?json$/.test(a))
  );
}

/**
 * The output contract, checked on EVERY in-process run of the suite: with --json (or -o json /
 * ndjson), a run that exits non-zero leaves exactly one JSON document on stderr, an object with an
 * `error` {code, message}; a run that succeeds leaves stderr empty. (--verbose may trace on stderr.)
 */
export function checkJsonContract(argv: string[], code: number, stdout: string, stderr: string): void {
  if (!asksJson(argv) || argv.includes('--verbose')) return;
  const where = `pm ${argv.join(' ')} (exit ${code})`;
  if (code === 0) {
    if (stderr !== '') throw new Error(`output contract: ${where} succeeded with --json but wrote to stderr:\n${stderr}`);
    return;
  }
  let doc: unknown;
  try {
    doc = JSON.parse(stderr);
  } catch {
    throw new Error(
      `output contract: ${where} failed with --json, but stderr is not exactly one JSON document:\n${stderr}\n(stdout: ${stdout.slice(0, 500)})`,
    );
  }
  const err = (doc as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (typeof err !== 'object' || err === null || typeof err.code !== 'string' || typeof err.message !== 'string') {
    throw new Error(`output contract: ${where} failed with --json, but stderr is not {"error":{"code","message",…}}:\n${stderr}`);
  }
  if (!stderr.endsWith('}\n') || stderr.trimEnd().includes('\n'))
    throw new Error(`output contract: ${where}: the error object must be one line ending in a newline:\n${stderr}`);
}

/** Runs pm in-process; every run is checked against the JSON output contract (checkJsonContract). */
export async function runPm(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const input = opts.stdin ?? '';
  const io: IO = {
    stdout: {
      write: (s: string) => (stdout += s),
      isTTY: opts.tty ?? false,
      ...(opts.columns !== undefined ? { columns: opts.columns } : {}),
    },
    stderr: { write: (s: string) => (stderr += s), isTTY: opts.tty ?? false },
    stdin: Object.assign(
      (async function* () {
        if (input) yield Buffer.from(input);
      })(),
      { isTTY: opts.tty ?? false },
    ),
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...opts.env },
    cwd: process.cwd(),
    signal: opts.signal,
  };
  const code = await main(argv, io);
  checkJsonContract(argv, code, stdout, stderr);
  return {
    code,
    stdout,
    stderr,
    json<T>() {
      return JSON.parse(stdout) as T;
    },
  };
}
