// pm version (as gh and cast have it): what to paste into a bug report. The commit is the one the
// build was made from: scripts/build.mjs writes it to dist/build-info.json ("unknown" outside a
// git checkout), read here at run time. Nothing heavy is imported.
import { readFileSync } from 'node:fs';
import { defineCommand } from '../cli/command.js';
import { VERSION } from '../cli/version.js';

/** The build's commit; "unknown" when the build did not record one (or dist/ is not there). */
function buildCommit(): string {
  try {
    // From src/commands and from dist/commands alike: <root>/dist/build-info.json.
    const info = JSON.parse(readFileSync(new URL('../../dist/build-info.json', import.meta.url), 'utf8')) as { commit?: unknown };
    return typeof info.commit === 'string' && info.commit ? info.commit : 'unknown';
  } catch {
    return 'unknown';
  }
}

export default defineCommand({
  path: ['version'],
  summary: "Show pm's version, the commit it was built from, Node and the platform",
  description: 'For bug reports. --json gives {version, node, platform, commit}. (pm --version prints the version alone.)',
  examples: ['pm version', 'pm version --json'],
  run: async (ctx) => {
    const info = {
      version: VERSION,
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      commit: buildCommit(),
    };
    ctx.out.data(info, () => {
      ctx.out.line(`pm ${info.version}`);
      ctx.out.keyValue([
        ['commit', info.commit],
        ['node', info.node],
        ['platform', info.platform],
      ]);
    });
    return 0;
  },
});
