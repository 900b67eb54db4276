import { readSecretFile, readTextFile } from '../../cli/files.js';
import { password } from '../../cli/prompt.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { attachWallet, describeReplace, replaceEffect, walletName } from './common.js';
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  path: ['wallet', 'import'],
  effect: 'local',
  // (--force over a wallet of that name destroys its key: asked for as wallet remove is.)
  effectNote: 'With `--force` over a wallet that exists: **destructive** (its key is replaced)',
  effectOf: ({ args, opts }, ctx) => replaceEffect(ctx, walletName(args.name), opts.force),
  describe: (ctx, { args }) => describeReplace(ctx, walletName(args.name)),
  summary: 'Import a key (hidden prompt, file or stdin) or a geth/cast/ethers keystore; never from argv',
  args: { name: { description: 'wallet name (default "default")' } },
  options: {
    file: { type: 'string', value: 'file', description: 'read the hex key from a file' },
    stdin: { type: 'boolean', description: 'read the hex key from stdin' },
    keystore: { type: 'string', value: 'file', description: 'import a V3 keystore file (re-encrypted with your passphrase)' },
    keystorePassphraseFile: { type: 'string', value: 'file', description: 'passphrase of that keystore file' },
    force: { type: 'boolean', description: 'replace a wallet of the same name (its key is lost unless backed up: asks, or needs --yes)' },
  },
  examples: ['pm wallet import trading', 'pm wallet import bot --file key.txt', 'pm wallet import old --keystore ~/.foundry/keystores/old'],
  run: async (ctx, { args, opts }) => {
    const name = walletName(args.name);
    const force = opts.force;
    const ks = await ctx.keystore();
    const keystoreFile = opts.keystore;
    let info;
    if (keystoreFile !== undefined) {
      let json: unknown;
      try {
        json = JSON.parse(readTextFile(keystoreFile, '--keystore'));
      } catch (e) {
        if (e instanceof UsageError) throw e;
        throw new ValidationError(`${keystoreFile} is not a keystore: it is not JSON`, {
          hint: 'A Web3 Secret Storage v3 file (geth, cast, ethers) is a JSON object with a "crypto" section.',
        });
      }
      const srcFile = opts.keystorePassphraseFile;
      const source =
        srcFile !== undefined
          ? readSecretFile(srcFile, 'the passphrase file', '--keystore-passphrase-file').replace(/\r?\n$/, '')
          : await password(ctx, `Passphrase of ${keystoreFile}`, 'Pass --keystore-passphrase-file FILE.');
      const pass = await ctx.newPassphrase();
      info = await ks.importWalletJson(name, json, source, pass, { force });
    } else {
      let key: string;
      const file = opts.file;
      if (file !== undefined) key = readTextFile(file, '--file');
      else if (opts.stdin) {
        key = '';
        for await (const c of ctx.io.stdin) key += typeof c === 'string' ? c : c.toString('utf8');
      } else key = await password(ctx, 'Private key (hex)', 'Pass --file FILE or --stdin (never the key itself).');
      const pass = await ctx.newPassphrase();
      info = await ks.importWalletKey(name, key.trim(), pass, { force });
    }
    const profile = await attachWallet(ctx, name, info.address);
    ctx.out.data({ name, address: info.address, path: info.path, profile }, () => {
      ctx.out.keyValue([
        ['wallet', name],
        ['address', info.address ?? '-'],
        ['file', info.path],
      ]);
      if (profile) ctx.out.info(`profile ${profile} now signs with this wallet`);
    });
  },
});
