import type { Handler } from '../../cli/command.js';
import { watch } from './run.js';

const run: Handler = (ctx, input) => watch(ctx, 'tx', input);
export default run;
