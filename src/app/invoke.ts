// Running one parsed command: the Context, the guard, the command's module, and the error report.
// Commander-free, so a command whose argv src/app/direct.ts reads (or commander parsed, in
// src/app/main.ts) runs without commander loaded.
import type { Context } from '../cli/context.js';
import { errorJson, errorText, helpPageHint, InterruptedError, ReportedExit, toPmError, UsageError } from '../cli/errors.js';
import { AuthError, ValidationError, withHint } from '../core/errors.js';
import { GLOBAL_FLAGS, quietFlags, scanArgv } from '../cli/global-flags.js';
import type { ArgvScan, GlobalFlags, GlobalFlagSpec } from '../cli/global-flags.js';
import { toJson } from '../cli/json.js';
import type { Format, IO } from '../cli/output.js';
import { COMPLETIONS } from './completion.js';
import type { Entry } from './registry.js';

/** A parsed command line: the command, its positional arguments and options. */
export interface Invocation {
  def: Entry;
  positional: unknown[];
  /** The command's own options. */
  own: Record<string, unknown>;
  /** Its own and the global options. */
  opts: Record<string, unknown>;
}

export /** The global flags commander parsed (it has checked choices and read durations), as a command's context takes them. */
function globalFlags(opts: Record<string, unknown>): GlobalFlags {
  const flags: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(GLOBAL_FLAGS) as [string, GlobalFlagSpec][]) {
    // A --no-… switch is on unless given (commander stores false).
    if (!spec.value) flags[key] = spec.long.startsWith('--no-') ? opts[key] !== false : opts[key] === true;
    else if (opts[key] !== undefined) flags[key] = opts[key];
  }
  flags['json'] = flags['json'] === true || opts['output'] === 'json' || opts['output'] === 'ndjson';
  return flags as GlobalFlags;
}

/** The format argv asks for, read before parsing so that usage errors honour it too. */
function argvFormat(scan: ArgvScan): Format | undefined {
  const o = scan.given.output;
  return GLOBAL_FLAGS.output.choices.find((c) => c === o);
}

/** Whether an error must be printed as JSON: flag > PM_OUTPUT > the profile's output setting. */
export async function jsonWanted(scan: ArgvScan, io: IO): Promise<boolean> {
  const output = argvFormat(scan);
  if (output !== undefined) return output !== 'table';
  if (scan.given.json) return true;
  try {
    const { Context } = await import('../cli/kernel.js');
    const { profile } = scan.given;
    return new Context(io, quietFlags(profile)).out.isJson;
  } catch {
    return false;
  }
}

export function report(io: IO, e: unknown, json: boolean, verbose: boolean, held = ''): number {
  // Its errors were reported already, as they happened (pm shell's lines: docs/shell.md).
  if (e instanceof ReportedExit) return e.exitCode;
  const err = toPmError(e);
  // Stopped by SIGTERM rather than Ctrl-C: 143, as a shell reports a process ended by it.
  const code =
    err instanceof InterruptedError && (io.signal?.reason as { signal?: unknown } | undefined)?.signal === 'SIGTERM' ? 143 : err.exitCode;
  if (!json && err instanceof InterruptedError && err.quiet) return code;
  if (json) {
    const obj = errorJson(err, io.inputLine);
    const extra = held.trim();
    if (extra) obj.error.details = obj.error.details ? `${obj.error.details}\n${extra}` : extra;
    io.stderr.write(`${toJson(obj)}\n`);
  } else io.stderr.write(errorText(err, verbose, io.inputLine));
  return code;
}

/**
 * An error nothing caught (an exception or a rejection outside any command's flow), printed as
 * every error is: `error: …`, or the JSON object when argv or PM_OUTPUT asks for JSON. Exit 1.
 */
export function reportUncaught(e: unknown, argv: string[], io: IO): number {
  const scan = scanArgv(argv);
  const out = argvFormat(scan) ?? io.env['PM_OUTPUT'];
  return report(io, e, scan.given.json === true || out === 'json' || out === 'ndjson', scan.given.verbose === true);
}

/** Runs the parsed command; returns the exit code. `run` is main, for the commands that run pm lines (pm shell). */
export async function runInvocation(
  inv: Invocation,
  argv: string[],
  io: IO,
  run: (argv: string[], io: IO) => Promise<number>,
): Promise<number> {
  const flags = globalFlags(inv.opts);
  let ctx: Context | undefined;
  let json = flags.json;
  try {
    // Two formats asked at once: refused, not one of them silently (the error is JSON: --json was given).
    if (inv.opts['json'] === true && inv.opts['output'] === 'table')
      throw new UsageError('--json and -o table ask for two different formats', {
        hint: 'Keep one: --json (or -o json, -o ndjson) for JSON, -o table for a table.',
      });
    // Loaded only when a command runs, so --help and --version stay fast.
    const { Context, guard } = await import('../cli/kernel.js');
    // Inside pm shell, the session's Context shares the passphrase across lines.
    const Ctx = io.session ? (await import('./session.js')).sessionContext(Context, io.session) : Context;
    ctx = new Ctx(io, flags, { run, completion: (shell) => COMPLETIONS[shell].make(), argv });
    json = ctx.out.isJson;
    await ctx.out.ready();
    // The command's module (and its dependencies) loads only now.
    const loaded = await inv.def.load();
    const input = loaded.input(inv.positional, inv.own);
    if (inv.def.actsFor) ctx.actFor(input.opts['onBehalfOf'] as number | undefined);
    // A command line that cannot run is refused as such, before anyone is asked about it.
    loaded.def.check?.(ctx, input as never);
    const effect = await guard(ctx, inv.def, loaded.def, input);
    const long = loaded.def.longRunning;
    if (!(typeof long === 'function' ? long(input as never) : long === true)) ctx.useOneDeadline();
    await loaded.def.run(ctx, input as never);
    // Ctrl-C while a change of orders or money was on the wire: it was waited for, and its result
    // is printed above; the run still ends as interrupted (exit 130), saying that it went through.
    if (ctx.signal?.aborted && (effect === 'order' || effect === 'money'))
      throw new InterruptedError(`interrupted after the request was sent: it went through (the result is above)`, { sent: true });
    return 0;
  } catch (e) {
    return report(io, helpHint(inv, ctx ? noProfileHint(ctx, e) : e), json, flags.verbose, ctx?.heldStderr);
  } finally {
    await ctx?.dispose();
  }
}

/**
 * No API token, and no profile active while some exist (the active one was removed): the hint
 * names the profiles to pick from rather than pm init.
 */
function noProfileHint(ctx: Context, e: unknown): unknown {
  if (!(e instanceof AuthError) || !e.noToken) return e;
  let names: string[];
  try {
    if (ctx.profileName() !== undefined) return e;
    names = Object.keys(ctx.config().profiles);
  } catch {
    return e;
  }
  if (names.length === 0) return e;
  return withHint(
    e,
    `No profile is active: pm profile use ${names[0]} picks one (profiles here: ${names.join(', ')}); or set PM_TOKEN_ID and PM_TOKEN_SECRET.`,
    'replace',
  );
}

/**
 * A usage or validation error with no hint of its own: the command's help page is its hint, as a
 * usage error commander finds has (docs/output.md: every error has one). Here only, in the CLI:
 * the library's errors keep the library's words.
 */
function helpHint(inv: Invocation, e: unknown): unknown {
  if (!(e instanceof UsageError || e instanceof ValidationError) || e.hint) return e;
  return withHint(e, helpPageHint(`pm ${inv.def.path.join(' ')}`), 'replace');
}
