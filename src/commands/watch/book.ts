import type { Handler } from '../../cli/command.js';
import { watch } from './run.js';

const run: Handler = (ctx, input) => watch(ctx, 'book', input, input.args.slice(0, 1));
export default run;
