// pm version (as gh and cast have it): what to paste into a bug report. The commit is the one the
// build was made from: scripts/build.mjs writes it to dist/build-info.json ("unknown" outside a
// git checkout), read here at run time. Nothing heavy is imported.
import { defineCommand } from '../cli/command.js';
import { VERSION, buildCommit } from '../cli/version.js';

export default defineCommand({
  path: ['version'],
  effect: 'read',
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
    return;
  },
});
