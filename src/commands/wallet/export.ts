import { statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { writePrivateFileAtomic } from '../../core/fsutil.js';
import { walletName } from './common.js';
import { defineCommand } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';

export default defineCommand({
  path: ['wallet', 'export'],
  effect: 'destructive',
  // (Nothing changes, but a key leaves the keystore: asked as a destructive command is, saying so.)
  effectNote: 'With `--format key` it writes the plain private key; otherwise a copy of the encrypted keystore',
  effectOf: ({ opts }) => ({
    effect: 'destructive',
    why: opts.format === 'key' ? 'it writes the plain private key out of the keystore' : 'it writes a copy of the encrypted keystore',
  }),
  describe: async (ctx, { args, opts }) => {
    const name = walletName(args.name, ctx.profile().wallet ?? 'default');
    const address = (await ctx.keystore()).walletAddress(name);
    return `Export ${opts.format === 'key' ? 'the PLAIN private key' : 'the encrypted keystore'} of ${name} (${address}) to ${opts.out === '-' ? 'stdout' : (opts.out ?? '?')}`;
  },
  summary: 'Export a wallet as its keystore file or plain key, to a file (or stdout with --out -)',
  args: { name: { description: "wallet name (default: the profile's)" } },
  options: {
    format: {
      type: 'string',
      value: 'format',
      description: 'keystore (encrypted JSON) or key (plain hex)',
      choices: ['keystore', 'key'],
      default: 'keystore',
    },
    out: { type: 'string', value: 'file', description: 'where to write (mode 0600); - for stdout' },
  },
  examples: ['pm wallet export --out backup.json', 'pm wallet export bot --format key --out - --yes'],
  check: (ctx, { args, opts }) => void commandLine(ctx, args, opts),
  run: async (ctx, { args, opts }) => {
    const { name, format, out } = commandLine(ctx, args, opts);
    const ks = await ctx.keystore();
    const address = ks.walletAddress(name);
    const secret = format === 'key' ? await ks.exportWalletKey(name, await ctx.passphrase()) : ks.exportWalletJson(name);
    const text = `${secret}\n`;
    if (out === '-') {
      // --json: one document, the export inside it.
      const doc = { name, address, format, ...(format === 'key' ? { privateKey: secret } : { keystore: JSON.parse(secret) as unknown }) };
      ctx.out.data(doc, () => ctx.io.stdout.write(text));
    } else {
      writePrivateFileAtomic(out, text);
      ctx.out.data({ name, address, format, path: out }, () =>
        ctx.out.info(`wrote ${format === 'key' ? 'the private key' : 'the keystore'} of ${name} (${address}) to ${out} (mode 0600)`),
      );
    }
    if (format === 'key') ctx.out.warn('anyone with this key controls the wallet: keep it offline, delete it when done');
  },
});

/** The command line, read offline (no --out is refused before the export is confirmed). */
function commandLine(ctx: Context, args: { name: string | undefined }, opts: { format: string; out: string | undefined }) {
  const name = walletName(args.name, ctx.profile().wallet ?? 'default');
  const format = opts.format;
  const out = opts.out;
  if (out === undefined) {
    throw new UsageError('say where the export goes: --out FILE (written 0600), or --out - for stdout', {
      hint: `pm wallet export ${name} --format ${format} --out ${name}.json`,
    });
  }
  // (A directory where the file goes: said before the export is confirmed.)
  if (out !== '-' && statSync(out, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`--out ${out} is a directory: the export is one file`, {
      hint: `Name a file in it: --out ${join(out, `${name}.json`)}`,
    });
  return { name, format, out };
}
