// Drives an interactive command through a pseudo-terminal (python3's pty module), answering
// prompts as they appear.
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PTY = fileURLToPath(new URL('./ptyrun.py', import.meta.url));

let python: string | undefined;
/**
 * The Python interpreter itself, asked once: `python3` on PATH may be a version manager's shim
 * (pyenv's is a shell script that costs ~0.15 s of CPU and ~0.2 s of wall time on every start,
 * measured on 2 cores, against ~0.03 s for the interpreter run directly).
 */
function interpreter(): string {
  python ??= execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim() || 'python3';
  return python;
}
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r/g;

export interface Step {
  /** Text to wait for on the screen (ANSI stripped). */
  waitFor: string | RegExp;
  /** Keys to send once it appears. */
  send: string;
  /** Something to do (before sending) once it appears, e.g. change the exchange's state. */
  then?: () => void;
}

export const KEY = { enter: '\r', down: '\x1b[B', up: '\x1b[A' };

/** Runs `argv` under a TTY, plays the steps, resolves with the exit code and the screen text. */
export function runInPty(
  argv: string[],
  steps: Step[],
  env: Record<string, string | undefined>,
  timeoutMs = 20_000,
): Promise<{ code: number | null; screen: string; raw: string }> {
  return new Promise((resolve, reject) => {
    // -I -S: no site packages nor PYTHON* variables (the script needs only the standard library).
    const child = spawn(interpreter(), ['-I', '-S', PTY, ...argv], { env: { ...env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'inherit'] });
    let screen = '';
    let consumed = 0;
    let i = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pty timed out at step ${i} waiting for ${String(steps[i]?.waitFor)}; screen:\n${screen.replace(ANSI, '')}`));
    }, timeoutMs);
    const pump = (): void => {
      while (i < steps.length) {
        const step = steps[i];
        if (!step) break;
        const text = screen.replace(ANSI, '').slice(consumed);
        const m =
          typeof step.waitFor === 'string'
            ? text.includes(step.waitFor)
              ? { index: text.indexOf(step.waitFor), len: step.waitFor.length }
              : null
            : (() => {
                const r = step.waitFor.exec(text);
                return r ? { index: r.index, len: r[0].length } : null;
              })();
        if (!m) break;
        consumed += m.index + m.len;
        i++;
        // A small pause lets the prompt finish drawing before the keys arrive.
        setTimeout(() => {
          step.then?.();
          child.stdin.write(step.send);
          pump();
        }, 60);
        return;
      }
    };
    child.stdout.on('data', (c: Buffer) => {
      screen += c.toString('utf8');
      pump();
    });
    // (A first step may wait for nothing: its keys go at once, before the command draws anything.)
    pump();
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, screen: screen.replace(ANSI, ''), raw: screen });
    });
  });
}
