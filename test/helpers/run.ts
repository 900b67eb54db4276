// In-process runner: main(argv, io) with captured stdout/stderr and a private PM_HOME.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/app/main.js';
import type { IO } from '../../src/cli/output.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = unknown>(): T;
}

export interface RunOptions {
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

/** Runs pm in-process. */
export async function runPm(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const input = opts.stdin ?? '';
  const io: IO = {
    stdout: { write: (s: string) => (stdout += s), isTTY: opts.tty ?? false },
    stderr: { write: (s: string) => (stderr += s), isTTY: opts.tty ?? false },
    stdin: Object.assign((async function* () {
      if (input) yield Buffer.from(input);
    })(), { isTTY: opts.tty ?? false }),
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...opts.env },
    cwd: process.cwd(),
    signal: opts.signal,
  };
  const code = await main(argv, io);
  return {
    code,
    stdout,
    stderr,
    json<T>() {
      return JSON.parse(stdout) as T;
    },
  };
}
