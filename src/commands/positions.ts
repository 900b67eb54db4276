// pm positions: the short form of pm portfolio positions (same flags, same output).
import { defineCommand } from '../cli/command.js';
import positions from './portfolio/positions.js';

export default defineCommand({ ...positions, path: ['positions'], summary: 'Same as pm portfolio positions' });
