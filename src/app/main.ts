// Builds the program from the registry and runs one command. Never exits the process:
// main(argv, io) returns the exit code, so tests can call it in-process.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { ManifestOption, OptionKind } from '../cli/command.js';
import { exitCodesHelp, helpPageHint, linePrefix, UsageError } from '../cli/errors.js';
import type { IO } from '../cli/output.js';
import { toJson } from '../cli/json.js';
import { commands, GROUPS } from './registry.js';

export { targetCommand };
import type { Entry } from './registry.js';
import { completeCommand } from './completion.js';
import { choice, directInvocation, longOf, targetCommand, wholeNumber } from './direct.js';
import type { Read } from './direct.js';
import { jsonWanted, report, runInvocation } from './invoke.js';
import type { Invocation } from './invoke.js';
import { VERSION } from '../cli/version.js';
import { BUILTIN_FLAGS, flagsOf, GLOBAL_FLAGS, helpOf, scanArgv } from '../cli/global-flags.js';
import type { ArgvScan, GlobalFlagSpec } from '../cli/global-flags.js';
import { parseDuration } from '../core/duration.js';
import { usageSuggestion } from './usage-hint.js';

const GLOBAL_EXAMPLES = `
Examples:
  $ pm markets list
  $ pm book btc-100k-2026
  $ pm --json markets list | jq -r '.[].slug'
  $ pm sandbox start --detach && pm --profile sandbox markets list
  $ pm demo

Exit codes:
${exitCodesHelp()}

Docs: pm <command> --help`;

const GLOBAL_LINE = 'Global options (--json, -o, --profile, --base-url, --quiet, --yes, …): see pm help';

const parser =
  <T>(read: (raw: string) => Read<T>) =>
  (raw: string): T => {
    const r = read(raw);
    if ('error' in r) throw new InvalidArgumentError(r.error);
    return r.value;
  };
const parseValue = (kind: Exclude<OptionKind, 'string' | 'boolean' | 'list'>, flag: string) =>
  parser((raw) => wholeNumber(kind, flag, raw));
const choiceParser = (choices: readonly string[]) => parser((raw) => choice(choices, raw));

function addOption(cmd: Command, def: ManifestOption): void {
  const opt = new Option(def.flags, def.description);
  if (def.choices) {
    opt.choices(def.choices);
    opt.argParser(choiceParser(def.choices));
  }
  if (def.type === 'int' || def.type === 'positiveInt' || def.type === 'port') {
    const long = longOf(def);
    opt.argParser(parseValue(def.type, long));
    if (def.default !== undefined) opt.default(parseValue(def.type, long)(String(def.default)), String(def.default));
  } else if (def.default !== undefined) {
    opt.default(def.default);
  }
  if (def.hidden) opt.hideHelp();
  cmd.addOption(opt);
}

function globalOption(spec: GlobalFlagSpec): Option {
  const opt = new Option(flagsOf(spec), helpOf(spec));
  if (spec.choices) opt.choices(spec.choices);
  if (spec.duration)
    opt.argParser((raw: string) => {
      try {
        return parseDuration(raw, spec.long);
      } catch (e) {
        throw new InvalidArgumentError(`${(e as Error).message}.`);
      }
    });
  return opt;
}

/** Builds the commander tree from the registry; `onRun` receives the parsed invocation. */
export function buildProgram(
  io: IO,
  onRun: (inv: Invocation) => void,
  writeErr: (s: string) => void = (s) => void io.stderr.write(s),
  /** One command, or 'top' for the root help page: the groups without their commands (it lists only the groups). */
  only?: Entry | 'top',
): Command {
  const program = new Command('pm');
  program
    .description('pm: trade prediction markets from the command line, safely and scriptably')
    .version(VERSION, flagsOf(BUILTIN_FLAGS.version), BUILTIN_FLAGS.version.description);
  for (const spec of Object.values(GLOBAL_FLAGS) as GlobalFlagSpec[]) program.addOption(globalOption(spec));
  program
    .showSuggestionAfterError(false)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', GLOBAL_EXAMPLES)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: false });

  const groups = new Map<string, Command>();
  for (const def of only === 'top' || only === undefined ? commands() : [only]) {
    let parent = program;
    const path = [...def.path];
    const leafName = path.pop() ?? '';
    for (const part of path) {
      let g = groups.get(part);
      if (!g) {
        g = new Command(part).description(GROUPS[part] ?? part);
        g.showSuggestionAfterError(false).showHelpAfterError(`(run pm ${part} --help for usage)`);
        g.configureHelp({ showGlobalOptions: false });
        const groupExamples = commands()
          .filter((c) => c.path[0] === part && c.examples[0])
          .map((c) => `  $ ${c.examples[0]}`);
        g.addHelpText('after', `\nExamples:\n${groupExamples.join('\n')}\n\n${GLOBAL_LINE}\nMore: pm help ${part} <command>`);
        groups.set(part, g);
        program.addCommand(g);
      }
      parent = g;
    }
    if (only === 'top' && path.length > 0) continue;
    const cmd = new Command(leafName).description(def.description ?? def.summary).summary(def.summary);
    for (const a of def.aliases ?? []) cmd.alias(a);
    for (const a of def.args) {
      const name = a.variadic ? `${a.name}...` : a.name;
      const arg = cmd.createArgument(a.required ? `<${name}>` : `[${name}]`, a.description);
      if (a.choices) {
        arg.choices(a.choices);
        if (!a.variadic) arg.argParser(choiceParser(a.choices));
      }
      cmd.addArgument(arg);
    }
    for (const o of def.options) addOption(cmd, o);
    // Leaf pages do not repeat the global options (as gh does): one line points to them.
    cmd.configureHelp({ showGlobalOptions: false });
    cmd.showSuggestionAfterError(false).showHelpAfterError(`(run pm ${def.path.join(' ')} --help for usage)`);
    cmd.addHelpText('after', `\nExamples:\n${def.examples.map((e) => `  $ ${e}`).join('\n')}\n\n${GLOBAL_LINE}`);
    cmd.action((...actionArgs: unknown[]) => {
      const command = actionArgs[actionArgs.length - 1] as Command;
      onRun({ def, positional: actionArgs.slice(0, -2), own: command.opts(), opts: command.optsWithGlobals() });
    });
    parent.addCommand(cmd);
  }

  const write = (s: string): void => void io.stdout.write(s);
  const configure = (c: Command): void => {
    c.exitOverride();
    // The did-you-mean comes from the one suggester (usage-hint.ts), not commander's.
    c.showSuggestionAfterError(false);
    c.configureOutput({ writeOut: write, writeErr, outputError: (s, w) => w(s) });
    for (const sub of c.commands) configure(sub);
  };
  configure(program);
  return program;
}

const GROUP_NAMES = (): Set<string> =>
  new Set(
    commands()
      .filter((c) => c.path.length > 1)
      .map((c) => c.path[0] ?? ''),
  );

/**
 * `pm help [group [verb]]` and a bare group (`pm order`) print that help page on stdout and exit
 * 0: rewritten to `pm [group [verb]] --help` before commander sees them. An unknown name stays a
 * usage error, and so does a bare group with JSON output (stdout holds JSON only).
 */
function helpArgv(argv: string[], { words, at, given }: ArgvScan): string[] {
  const globals = argv.filter((_a, i) => !at.includes(i));
  if (words[0] === 'help') {
    const target = words.slice(1);
    const known = target.length === 0 || commands().some((c) => target.every((w, i) => c.path[i] === w));
    if (!known)
      throw new UsageError(`no help for "${target.join(' ')}": there is no such command`, {
        hint: 'See pm help for the list of commands.',
      });
    const help: readonly string[] = [BUILTIN_FLAGS.help.long, BUILTIN_FLAGS.help.short];
    return [...globals.filter((a) => !help.includes(a)), ...target, BUILTIN_FLAGS.help.long];
  }
  if (words.length === 1 && GROUP_NAMES().has(words[0] ?? '') && !given.help) {
    const tail = argv.slice((at[0] ?? 0) + 1);
    if (tail.every((a) => a.startsWith('-'))) {
      // With JSON output stdout is JSON only: a group named alone is then a usage error, not its page.
      if (given.json || given.output === 'json' || given.output === 'ndjson') {
        const group = words[0] ?? '';
        const verbs = commands()
          .filter((c) => c.path[0] === group && c.path.length > 1)
          .map((c) => c.path[1]);
        throw new UsageError(`pm ${group} needs a command: ${verbs.join(', ')}`, { hint: `pm ${group} --help shows them, with examples.` });
      }
      return [...argv, BUILTIN_FLAGS.help.long];
    }
  }
  return argv;
}

/**
 * A commander usage error as pm's own: the message, and as the hint its did-you-mean, else the
 * help page commander's text names on its last line (`text`: commander's error output).
 */
function usageError(e: CommanderError, near: string | undefined, text: string): { message: string; hint: string } {
  const [first = '', ...more] = e.message.split('\n');
  const hint = more
    .join(' ')
    .replace(/^\((.*)\)$/, '$1')
    .trim();
  const page = /^\(run (pm [a-z -]+|with) --help for usage\)$/m.exec(text)?.[1];
  const help = helpPageHint(page === undefined || page === 'with' ? 'pm' : page);
  return { message: first.replace(/^error: /, ''), hint: near ?? (hint || help) };
}

/** The usage error as the JSON error object (--json). */
function usageJson(u: { message: string; hint: string }, line: number | undefined): string {
  return `${toJson({ error: { code: 'USAGE', ...u, ...(line !== undefined && { line }) } })}\n`;
}

/** The usage error as text: an `error:` line and a `hint:` line, as every other error. */
function usageLines(u: { message: string; hint: string }, line: number | undefined): string {
  return `error: ${linePrefix(line)}${u.message}\nhint: ${u.hint}\n`;
}

/** Whether argv asks for the root help page only (`pm`, `pm --help`, `pm help`, with global flags). */
function rootHelp(argv: string[], scan: ArgvScan): boolean {
  if (argv.length === 0) return true;
  return scan.direct && (scan.words.length === 0 ? scan.given.help === true : scan.words.length === 1 && scan.words[0] === 'help');
}

/**
 * Runs pm with `argv` (without node and script) and returns the exit code.
 * @example const code = await main(['--json', 'markets', 'list'], io)
 */
export async function main(argv: string[], io: IO): Promise<number> {
  // Shell completion (the scripts of pm completion call this on every TAB).
  if (argv[0] === '__complete') return completeCommand(argv.slice(1), io);
  const scan = scanArgv(argv);
  // A plain command line runs without building commander's parser.
  const direct = directInvocation(argv, scan);
  if (direct) return runInvocation(direct, argv, io, main);
  const verbose = scan.given.verbose === true;
  let invocation: Invocation | undefined;
  // commander's error text is held back: with JSON output the error object replaces it.
  let usageText = '';
  const program = buildProgram(
    io,
    (inv) => {
      invocation = inv;
    },
    (s) => {
      usageText += s;
    },
    targetCommand(argv, scan) ?? (rootHelp(argv, scan) ? 'top' : undefined),
  );
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(helpArgv(argv, scan), { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return 0;
      const u = usageError(e, usageSuggestion(e.code, argv), usageText);
      // (commander.help: a help page asked for by mistake, printed as it is in text mode.)
      io.stderr.write(
        (await jsonWanted(scan, io)) ? usageJson(u, io.inputLine) : e.code === 'commander.help' ? usageText : usageLines(u, io.inputLine),
      );
      return 2;
    }
    return report(io, e, await jsonWanted(scan, io), verbose);
  }
  if (!invocation) return 0;
  return runInvocation(invocation, argv, io, main);
}
