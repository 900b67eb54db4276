import type { Handler } from '../../cli/command.js';
import { watch } from './run.js';

const run: Handler = (ctx, input) => watch(ctx, 'positions', input);
export default run;
