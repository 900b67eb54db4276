// What each command loads (issue 15: nothing loads that the command does not use). bin/pm.js runs
// the esbuild bundle (CommonJS): a module in it is evaluated only when imported, and the sandbox
// and the large packages some commands use are bundle files of their own. A preloaded script
// reports the bundle files, the source modules whose code ran and the built-ins of the process.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOADED_PRELOAD, parseLoaded } from '../helpers/loaded.js';
import { limitOrder } from '../helpers/orders.js';
import { tempHome } from '../helpers/run.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const { home, cleanup } = tempHome();
afterAll(cleanup);

/** Runs pm with `preload` required first; returns its exit code and output. */
// (Spawned asynchronously: the sandbox answers from this process's event loop.)
async function pmWith(
  preload: string,
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-r', preload, 'bin/pm.js', ...argv], { env: { ...process.env, PM_HOME: home, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

/** Runs pm; returns its exit code and the source modules (and node: built-ins) it loaded. */
async function loads(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; modules: string[]; files: string[] }> {
  const { code, stdout, stderr } = await pmWith(LOADED_PRELOAD, argv, env);
  const { files, modules } = parseLoaded(stderr);
  return { code, stdout, modules, files };
}

const matching = (modules: string[], re: RegExp): string[] => modules.filter((m) => re.test(m));
const CRYPTO = /@noble\/|@scure\/|node_modules\/viem\/|^node:crypto$|src\/keystore\/|src\/core\/trade\/eip712/;
const SIGNING = /@noble\/curves|viem\/_esm\/accounts\/|viem\/_esm\/utils\/signature\/sign|src\/keystore\/|src\/core\/trade\/eip712/;
const KEYSTORE_FILES = /scrypt|pbkdf2|@noble\/ciphers|aes|bip39|wordlist|bip32|mnemonic|src\/keystore\/(store|v3|index|passphrase)\.ts/;

describe('module loading of the bundle', { timeout: 60_000 }, () => {
  it('--version and --help load no crypto, nor any command module', async () => {
    const version = await loads(['--version']);
    expect(version.code).toBe(0);
    expect(matching(version.modules, CRYPTO)).toEqual([]);
    // --version alone reads the argv scan (the global flags' table), not the CLI.
    expect(version.files).toEqual(['cli/global-flags.cjs']);
    // The root help page (piped: 80 columns) is the build's copy of commander's: no CLI loads.
    const root = await loads(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/Usage:/);
    expect(root.files).toEqual(['cli/global-flags.cjs']);
    const help = await loads(['order', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage:/);
    // The hook sees the app (so the lists above could be non-empty).
    expect(help.modules).toContain('src/app/main.ts');
    expect(matching(help.modules, CRYPTO)).toEqual([]);
    expect(matching(help.modules, /src\/commands\//)).toEqual([]);
    // Help reads the argv scan, the CLI's bundle and commander only, not the kernel (the Context and the commands).
    expect(help.files.sort()).toEqual(['cli/global-flags.cjs', 'cli/run.cjs', 'core/errors.cjs', 'vendor/commander.cjs']);
  });

  it('a read-only market command loads no signing code, and neither node:crypto (~5 ms on Node 24) nor node:os', async () => {
    const r = await loads(['--json', '--base-url', sb.current.baseUrl, 'markets', 'show', 'btc-100k-2026']);
    expect(r.code).toBe(0);
    expect(r.modules).toContain('src/commands/markets/show.ts');
    expect(matching(r.modules, SIGNING)).toEqual([]);
    expect(r.modules).toContain('node:http');
    expect(matching(r.modules, /^node:(crypto|os)$/)).toEqual([]);
    // A command line that names its command is read without commander (src/app/direct.ts).
    expect(r.files).not.toContain('vendor/commander.cjs');
  });

  it('a command line that names its command reads its own manifest file; anything else the whole manifest', async () => {
    // (Every read of a file under generated/, reported at exit.)
    const preload = join(home, 'generated-reads.cjs');
    writeFileSync(
      preload,
      "const fs = require('node:fs'); const read = fs.readFileSync; const seen = [];\n" +
        'fs.readFileSync = function (p, ...rest) { if (/generated/.test(String(p))) seen.push(String(p)); return read.call(this, p, ...rest); };\n' +
        "process.once('exit', () => fs.writeSync(2, seen.map((s) => `READ ${s}\\n`).join('')));\n",
    );
    const reads = async (argv: string[]) =>
      [...(await pmWith(preload, argv)).stderr.matchAll(/^READ .*[\\/]generated[\\/](.+)$/gm)].map((m) => m[1]);
    expect(await reads(['--json', '--base-url', sb.current.baseUrl, 'markets', 'show', 'btc-100k-2026'])).toEqual([
      'commands/markets.show.json',
    ]);
    expect(await reads(['--base-url', sb.current.baseUrl, 'markets', 'shw', 'btc-100k-2026'])).toContain('manifest.json');
  });

  it('order place --dry-run with PM_PRIVATE_KEY loads no scrypt, AES, BIP-39, keystore file code, @noble/curves or viem', async () => {
    const alice = sb.current.info.accounts.find((a) => a.name === 'alice');
    if (!alice) throw new Error('no alice');
    const env = { PM_PRIVATE_KEY: alice.privateKey, PM_TOKEN_ID: alice.token.tokenId, PM_TOKEN_SECRET: alice.token.secret };
    const r = await loads(
      [
        '--json',
        '--base-url',
        sb.current.baseUrl,
        ...limitOrder('btc-100k-2026', 'buy', 'yes', '0.2', '1'),
        '--client-id',
        'load-1',
        '--dry-run',
      ],
      env,
    );
    expect(r.code).toBe(0);
    // It does sign (so the checks below could fail): the credentials and pm's signer are loaded,
    // and the signer signs a process's first orders on node:crypto (src/keystore/secp256k1.ts).
    expect(r.modules).toContain('src/keystore/credentials.ts');
    expect(r.modules).toContain('src/keystore/secp256k1.ts');
    expect(JSON.parse(r.stdout).order.signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(matching(r.modules, KEYSTORE_FILES)).toEqual([]);
    expect(matching(r.modules, /@noble\/curves|node_modules\/viem\//)).toEqual([]);
    // The CLI's bundles only (not viem's, the prompts', the sandbox's).
    expect(r.files).toEqual(['cli/global-flags.cjs', 'cli/run.cjs', 'core/errors.cjs', 'cli/kernel.cjs']);
  });
});
