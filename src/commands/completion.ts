import type { Handler } from '../cli/command.js';

const run: Handler = async (ctx, { args }) => {
  const shell = (args[0] ?? 'bash') as 'bash' | 'zsh' | 'fish';
  ctx.io.stdout.write(ctx.app.completion(shell));
};
export default run;
