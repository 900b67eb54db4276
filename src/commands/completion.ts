import { defineCommand } from '../cli/command.js';

export default defineCommand({
  path: ['completion'],
  effect: 'read',
  summary: 'Print a shell completion script',
  args: { shell: { description: 'bash, zsh or fish', required: true, choices: ['bash', 'zsh', 'fish'] } },
  examples: [
    'pm completion bash > /etc/bash_completion.d/pm',
    'pm completion zsh > "${fpath[1]}/_pm"',
    'pm completion fish > ~/.config/fish/completions/pm.fish',
  ],
  run: async (ctx, { args }) => {
    ctx.io.stdout.write(ctx.app.completion(args.shell));
  },
});
