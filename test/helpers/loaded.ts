// What a pm process loaded, reported at exit by test/helpers/loaded-preload.cjs: the bundle files
// (paths under dist/), the source modules whose code ran, the Node built-ins (node:…) and the
// packages require()d from node_modules at run time (pkg:…).

export const LOADED_PRELOAD = new URL('./loaded-preload.cjs', import.meta.url).pathname;

/** Removes the LOADED lines from a process's stderr; returns the rest, the bundle files, and the modules that ran with the built-ins. */
export function parseLoaded(stderr: string): {
  stderr: string;
  files: string[];
  modules: string[];
  builtins: string[];
  packages: string[];
} {
  const files: string[] = [];
  const packages: string[] = [];
  const modules: string[] = [];
  const builtins: string[] = [];
  const rest: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^LOADED (\S+)$/.exec(line)?.[1];
    if (m === undefined) rest.push(line);
    else if (m.startsWith('node:')) builtins.push(m);
    else if (m.startsWith('src:')) modules.push(m.slice('src:'.length));
    else if (m.startsWith('pkg:')) packages.push(m.slice('pkg:'.length));
    else files.push(m.replace(/^.*[\\/]dist[\\/]/, '').replaceAll('\\', '/'));
  }
  return { stderr: rest.join('\n').replace(/\n+$/, ''), files, modules: [...modules, ...builtins], builtins, packages };
}
