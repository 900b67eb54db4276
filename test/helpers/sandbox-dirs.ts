// Sandboxes started in a test file and the temporary data dirs they use, all closed and removed
// after each test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';

export function sandboxDirs(prefix: string): {
  /** A new temporary directory, removed after the test. */
  tmp: () => string;
  /** The sandboxes to close after the test (push what you start). */
  handles: SandboxHandle[];
  /** Closes one now (it is not closed again after the test). */
  stop: (h: SandboxHandle) => Promise<void>;
} {
  const dirs: string[] = [];
  const handles: SandboxHandle[] = [];
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return {
    tmp: () => {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    handles,
    stop: async (h) => {
      handles.splice(handles.indexOf(h), 1);
      await h.close();
    },
  };
}
