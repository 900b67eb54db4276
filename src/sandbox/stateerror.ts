// A damaged (or too old) file in the sandbox's data dir, and the one filesystem step every
// writer of the dir shares (fsync of the directory after a rename).
import { closeSync, fsyncSync, openSync } from 'node:fs';

/** A damaged (or too old) file in the data dir: names the file and the entry, and how to recover. */
export class SandboxStateError extends Error {
  readonly code = 'ESANDBOXSTATE';
  readonly hint =
    "`pm sandbox reset` starts again from the seed (it drops the sandbox's orders, balances and derived tokens); or move the damaged file aside (or put back a copy of it) and start again.";
  constructor(
    readonly file: string,
    readonly why: string,
    older = false,
  ) {
    super(
      `the sandbox state file ${file} ${older ? 'was written by an older pm' : 'is corrupt'} (${why}); run \`pm sandbox reset\` to start from the seed`,
    );
  }
}

export function corrupt(file: string, why: string): SandboxStateError {
  return new SandboxStateError(file, why);
}

export function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported on every platform; the renames are still atomic
  }
}
