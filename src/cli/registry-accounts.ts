// Account commands (wallet, token, init): definitions added by the accounts work.
import type { CommandDef } from './command.js';

export const ACCOUNT_COMMANDS: CommandDef[] = [];
