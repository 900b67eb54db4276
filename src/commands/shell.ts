// pm shell: an interactive shell. Every line is an ordinary pm command (with or without the
// leading "pm") run through the app's main; the keystore passphrase is asked once for the
// session; TAB completes commands, flags and values (market slugs, profiles…) with the same
// engine as the shell completion scripts; history is kept under PM_HOME. Ctrl-C cancels the line
// being typed or the command running; Ctrl-D (or exit) leaves.
import { ReportedExit } from '../core/errors.js';
import { createInterface } from 'node:readline';
import type { Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { defineCommand } from '../cli/command.js';
import type { IO, ShellSession } from '../cli/output.js';
import {
  HISTORY_MAX,
  appendHistory,
  historyFile as historyPath,
  holdsKey,
  isSecret,
  loadHistory,
  scrubHistoryFile,
} from '../cli/history.js';
import { UsageError } from '../core/errors.js';
import { errorJson, errorText } from '../cli/errors.js';
import { toJson } from '../cli/json.js';

/** Splits a line into words as a POSIX shell would for plain words and quotes ('…', "…", \x). */
function splitWords(line: string): { words: string[]; open: boolean } {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] ?? '';
    if (quote) {
      if (ch === quote) quote = '';
      else if (ch === '\\' && quote === '"' && /["\\$`]/.test(line[i + 1] ?? '')) cur += line[++i] ?? '';
      else cur += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      cur += line[++i] ?? '';
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return { words, open: quote !== '' };
}

/** Asks a question with the typed characters hidden (the passphrase). */
function askHidden(rl: Interface, out: Writable, query: string, signal: AbortSignal): Promise<string> {
  const r = rl as unknown as { _writeToOutput(s: string): void };
  const original = r._writeToOutput.bind(rl);
  r._writeToOutput = (s: string) => {
    if (s.startsWith(query) || s === '\r\n' || s === '\n') original(s.startsWith(query) ? query : s);
  };
  return new Promise<string>((resolve, reject) => {
    const done = (): void => {
      r._writeToOutput = original;
    };
    rl.question(query, { signal }, (answer) => {
      done();
      resolve(answer);
    });
    signal.addEventListener(
      'abort',
      () => {
        done();
        out.write('\n');
        reject(new UsageError('no passphrase: cancelled'));
      },
      { once: true },
    );
  });
}

export default defineCommand({
  path: ['shell'],
  effect: 'local',
  longRunning: true,
  summary: 'An interactive shell: pm commands with history, TAB completion and one passphrase per session',
  description:
    'Each line is an ordinary pm command, with or without the leading "pm" (global options such as --json or --profile work per line; pm --json shell runs every line with --json unless it names its own format). TAB completes commands, flags and values (market slugs, profiles, wallets, enum values). The keystore passphrase is asked once for the session. History is kept in PM_HOME/shell_history (0600) and holds only command lines, never an answer to a prompt nor a line holding what looks like a private key or a token secret; once the passphrase is verified, lines equal to it are removed from it. Ctrl-C cancels the line being typed or the command running; Ctrl-D or "exit" leaves. Without a terminal, lines are read from stdin and run in order (each failing line is reported on stderr, its error naming the input line ("error: line 3: …") then "[exit N]", or with --json its one JSON error object, with "line": 3, on a line of its own; the shell exits with the last line\'s code), and a line that needs the passphrase takes it from PM_PASSPHRASE or --passphrase-file, as outside the shell.',
  examples: ['pm shell', 'pm --profile sandbox shell', "printf 'markets list\\nbook btc-100k-2026\\n' | pm shell"],
  run: async (ctx) => {
    const stdin = ctx.io.stdin as unknown as Readable & { isTTY?: boolean };
    const stdout = ctx.io.stdout as unknown as Writable & { isTTY?: boolean };
    const tty = stdin.isTTY === true && stdout.isTTY === true;
    const historyFile = historyPath(ctx.home);
    // Global options given to `pm shell` itself apply to every line.
    const globals: string[] = [];
    if (ctx.flags.profile !== undefined) globals.push('--profile', ctx.flags.profile);
    if (ctx.flags.baseUrl !== undefined) globals.push('--base-url', ctx.flags.baseUrl);
    if (ctx.flags.passphraseFile !== undefined) globals.push('--passphrase-file', ctx.flags.passphraseFile);
    if (ctx.flags.verbose) globals.push('--verbose');
    // pm --json shell (or -o …): every line prints in that format unless it names its own, so a
    // script gets JSON data, and each failing line's JSON error object.
    const format = (words: readonly string[]): string[] =>
      words.some((w) => /^(--json|-o|--output)(=|$)/.test(w))
        ? []
        : ctx.flags.output !== undefined
          ? ['-o', ctx.flags.output]
          : ctx.flags.json
            ? ['--json']
            : [];

    let running: AbortController | null = null;
    let asking: AbortController | null = null;
    // readline keeps this very array: the shell's history, newest first.
    const history = tty ? loadHistory(historyFile) : [];
    const rl = createInterface({
      input: stdin,
      output: stdout,
      terminal: tty,
      history,
      historySize: HISTORY_MAX,
      removeHistoryDuplicates: true,
      ...(tty
        ? {
            completer: (line: string, cb: (err: Error | null, result: [string[], string]) => void): void => {
              const { words } = splitWords(line);
              const partial = /\s$/.test(line) || line === '' ? '' : (words.pop() ?? '');
              if (words[0] === 'pm') words.shift();
              const all = [...globals, ...words, partial];
              // The same engine as the completion scripts: pm __complete, through the app's main.
              let text = '';
              const capture: IO = { ...ctx.io, stdout: { write: (t: string) => (text += t) }, stderr: { write: () => true } };
              ctx.app
                .run(['__complete', String(all.length), ...all], capture)
                .then(() => text.split('\n').filter(Boolean))
                .then((hits) => cb(null, [hits.filter((h) => h !== '__files__').map((h) => `${h} `), partial]))
                .catch(() => cb(null, [[], partial]));
            },
          }
        : {}),
    });
    // Passphrases known to this session (verified answers, PM_PASSPHRASE): a line equal to one is
    // never written to the history, even when typed at the pm> prompt after unlocking.
    const secrets = new Set<string>();
    if (ctx.env.PM_PASSPHRASE) secrets.add(ctx.env.PM_PASSPHRASE);
    // (And a line holding a key or a token secret: pm refuses it, and the history must not keep it.)
    const secretLine = (line: string): boolean => holdsKey(line) || [...secrets].some((s) => isSecret(line, s));
    // readline adds every line it reads to the history, answers to questions too: only lines read
    // as commands may stay, so a line that arrives while a prompt is open is taken out again.
    let commands = [...history];
    rl.on('history', (h: string[]) => {
      if (asking) h.splice(0, h.length, ...commands);
      else {
        // (readline's own list too: ↑ must not bring a passphrase typed at the prompt back.)
        for (let i = h.length - 1; i >= 0; i--) if (secretLine(h[i] ?? '')) h.splice(i, 1);
        commands = [...h];
      }
    });
    /** Forgets every trace of a secret in the history, in memory and on disk. */
    const scrub = (secret: string): void => {
      secrets.add(secret);
      for (const list of [history, commands])
        for (let i = list.length - 1; i >= 0; i--) if (isSecret(list[i] ?? '', secret)) list.splice(i, 1);
      try {
        scrubHistoryFile(historyFile, secret);
      } catch (e) {
        ctx.out.warn(`could not clean ${historyFile}: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    const session: ShellSession = {
      askPassphrase: async (message) => {
        asking = new AbortController();
        let answer: string;
        try {
          answer = await askHidden(rl, stdout, `${message}: `, asking.signal);
        } finally {
          asking = null;
        }
        // Only once the keystore accepts it is the answer known to be the passphrase (history
        // lines equal to a wrong guess are ordinary lines and stay).
        const verified = await ctx
          .keystore()
          .then((ks) => ks.checkPassphrase(answer))
          .catch(() => null);
        if (verified === true) scrub(answer);
        return answer;
      },
    };
    rl.on('SIGINT', () => {
      if (asking) asking.abort();
      else if (running) running.abort(Object.assign(new Error('interrupted by SIGINT'), { signal: 'SIGINT' }));
      else {
        // Ctrl-C on the line being typed: drop it and prompt again.
        (rl as unknown as { line: string }).line = '';
        stdout.write('^C\n');
        rl.prompt();
      }
    });
    const prompt = (): void => {
      let name: string | undefined;
      try {
        name = ctx.flags.profile ?? ctx.profileName();
      } catch {
        name = undefined;
      }
      rl.setPrompt(`pm${name ? ` (${name})` : ''}> `);
      rl.prompt();
    };
    if (tty) ctx.out.info('pm shell: pm commands without "pm"; TAB completes; Ctrl-C cancels; Ctrl-D or exit leaves.');

    const lines: string[] = [];
    let wake: (() => void) | null = null;
    let closed = false;
    rl.on('line', (l) => {
      lines.push(l);
      wake?.();
    });
    rl.on('close', () => {
      closed = true;
      wake?.();
    });
    // Every failing line is reported on stderr as it fails. Under json/ndjson that is its one
    // error object, a line of its own (stderr reads as NDJSON, one object per failing line, and
    // no "[exit N]"): the lines write to the real stderr, not to this command's held sink.
    // Read from stdin, each error names its input line (counted from 1, blank ones too), as a
    // batch's failed lines do; on a terminal it follows the line just typed.
    const json = ctx.out.isJson;
    const stderr = json ? ctx.errorStream : ctx.io.stderr;
    let lineNo = 0;
    const inputLine = (): number | undefined => (tty ? undefined : lineNo);
    const refuse = (message: string): number => {
      const e = new UsageError(message);
      stderr.write(json ? `${toJson(errorJson(e, inputLine()))}\n` : errorText(e, false, inputLine()));
      return e.exitCode;
    };
    let last = 0;
    if (tty) prompt();
    for (;;) {
      if (lines.length === 0 && !closed) await new Promise<void>((r) => (wake = r));
      wake = null;
      const line = lines.shift();
      if (line === undefined) break;
      lineNo++;
      const { words, open } = splitWords(line.trim());
      if (words[0] === 'pm') words.shift();
      if (tty && line.trim() && !secretLine(line)) {
        try {
          appendHistory(ctx.home, line.trim());
        } catch {
          // history is a convenience
        }
      }
      if (words.length === 0 && !open) {
        if (tty && !closed) prompt();
        continue;
      }
      if (words[0] === 'exit' || words[0] === 'quit') break;
      if (open) last = refuse('unterminated quote');
      else if (words[0] === 'shell') last = refuse('already in pm shell');
      else {
        // The line editor stays active while a command runs, so that Ctrl-C reaches it (raw mode).
        running = new AbortController();
        const io: IO = {
          ...ctx.io,
          stderr,
          // Lines never prompt on their own: confirmations need --yes; on a terminal the passphrase
          // comes from the session. Piped, there is no one to ask: a line gets it from the
          // environment or --passphrase-file, or exits 3, as outside the shell (asking would read
          // the next lines as the answer).
          stdin: Object.assign((async function* () {})(), { isTTY: false }),
          signal: running.signal,
          ...(tty && { session }),
          inputLine: inputLine(),
        };
        try {
          last = await ctx.app.run([...globals, ...format(words), ...words], io);
        } finally {
          running = null;
        }
        // A wrong passphrase (exit 3) is asked again on the next line that needs it.
        if (last === 3) session.pass = undefined;
      }
      if (last !== 0 && !json) stderr.write(`${ctx.out.c.dim(`[exit ${last}]`)}\n`);
      if (tty && !closed) prompt();
    }
    rl.close();
    if (tty) stdout.write('\n');
    if (!tty && last !== 0) throw new ReportedExit(last);
  },
});
