// What a pm process loads: bundle files (and the source modules in them, from
// dist/bundle-meta.json, written by the build) and Node built-ins, reported at exit by
// test/helpers/loaded-preload.cjs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LOADED_PRELOAD = fileURLToPath(new URL('./loaded-preload.cjs', import.meta.url));

/** Removes the LOADED lines from a process's stderr; returns the rest, the bundle modules' files, the pack files read and the built-ins. */
export function parseLoaded(stderr: string): { stderr: string; files: string[]; packs: string[]; builtins: string[] } {
  const files: string[] = [];
  const packs: string[] = [];
  const builtins: string[] = [];
  const rest: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^LOADED (\S+)$/.exec(line);
    if (m === null) rest.push(line);
    else if (m[1]!.startsWith('node:')) builtins.push(m[1]!);
    else if (m[1]!.startsWith('pack:')) packs.push(m[1]!.replace(/^.*[\\/]dist[\\/]/, '').replaceAll('\\', '/'));
    else files.push(m[1]!.replace(/^.*[\\/]dist[\\/]/, '').replaceAll('\\', '/'));
  }
  return { stderr: rest.join('\n').replace(/\n+$/, ''), files, packs, builtins };
}

/** The source modules (src/…, node_modules/…) in the given bundle files, and the built-ins. */
export function sourceModules(files: string[], builtins: string[]): string[] {
  const meta = JSON.parse(readFileSync(new URL('../../dist/bundle-meta.json', import.meta.url), 'utf8')) as Record<string, string[]>;
  const modules = new Set<string>(builtins);
  for (const file of files) {
    const inputs = meta[file];
    if (inputs === undefined) throw new Error(`${file} is not in dist/bundle-meta.json (stale build?)`);
    for (const i of inputs) modules.add(i);
  }
  return [...modules];
}
