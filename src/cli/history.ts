// pm shell's history file, PM_HOME/shell_history (0600): only lines the shell read as commands,
// oldest first. A line equal to the keystore passphrase (typed at the prompt by mistake, or left by
// an older pm that recorded prompt answers) is removed once the passphrase is verified.
import { appendFileSync, chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFileAtomic } from '../core/fsutil.js';
import { looksLikeSecret } from '../core/secret-shape.js';

/** Lines kept, in the file and in the shell's memory. */
export const HISTORY_MAX = 1000;

export const historyFile = (home: string): string => join(home, 'shell_history');

/** The last HISTORY_MAX lines, newest first (as readline keeps them). */
export function loadHistory(file: string): string[] {
  try {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    if (lines.some(holdsKey)) scrubHistoryFile(file);
    return lines
      .filter((l) => !holdsKey(l))
      .slice(-HISTORY_MAX)
      .reverse();
  } catch {
    return [];
  }
}

/** Whether a history line is `secret` as typed (the shell stores lines trimmed). */
export const isSecret = (line: string, secret: string): boolean => secret.trim() !== '' && line.trim() === secret.trim();

/**
 * Whether a line holds what looks like a private key (32 bytes of hex, with or without 0x) or a
 * token secret (32 bytes of base64): pm refuses such words as arguments, and the history must not
 * keep them either. A 32-byte hex value after --condition-id is a market's id, no secret.
 */
export function holdsKey(line: string): boolean {
  // (--flag=value: its value, as a word of its own.)
  const words = line.split(/\s+/).flatMap((w) => (/^--[^=]+=/.test(w) ? [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)] : [w]));
  return words.some((w, i) => looksLikeSecret(w) && !(words[i - 1] === '--condition-id' && w.startsWith('0x')));
}

/**
 * Takes every line equal to `secret` out of the history file (none given: every line holding a
 * key, as an older pm wrote them); other lines stay as they are.
 */
export function scrubHistoryFile(file: string, secret?: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const lines = text.split('\n');
  const kept = lines.filter((l) => !(secret === undefined ? holdsKey(l) : isSecret(l, secret)));
  if (kept.length !== lines.length) writePrivateFileAtomic(file, kept.join('\n'));
}

/** Appends a command line; the file stays 0600 even if something widened it. */
export function appendHistory(home: string, line: string): void {
  ensurePrivateDir(home);
  const file = historyFile(home);
  appendFileSync(file, `${line}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
