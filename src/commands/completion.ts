import type { Handler } from '../cli/command.js';
import { COMPLETIONS } from '../cli/completion.js';

const run: Handler = async (ctx, { args }) => {
  const shell = (args[0] ?? 'bash') as keyof typeof COMPLETIONS;
  ctx.io.stdout.write(COMPLETIONS[shell].make());
};
export default run;
