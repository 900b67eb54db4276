// The package version, read once from package.json, and bin/pm.js: two levels up from src/cli,
// dist/cli and the bundle (dist/cli/run.cjs).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

/** bin/pm.js of this installation (to start pm in another process). */
export const pmBin = (): string => fileURLToPath(new URL('../../bin/pm.js', import.meta.url));

/** The build's commit; "unknown" when the build did not record one (or dist/ is not there). */
export function buildCommit(): string {
  try {
    // From src/commands and from dist/commands alike: <root>/dist/build-info.json.
    const info = JSON.parse(readFileSync(new URL('../../dist/build-info.json', import.meta.url), 'utf8')) as { commit?: unknown };
    return typeof info.commit === 'string' && info.commit ? info.commit : 'unknown';
  } catch {
    return 'unknown';
  }
}
