// `npm run docs`: writes the command reference docs/commands/ from the command definitions
// (src/app/docs.ts, run after `npm run build`), and removes files of commands that are gone.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
const { commandDocs } = await import('../dist/app/docs.js');
const dir = new URL('../docs/commands/', import.meta.url);
mkdirSync(dir, { recursive: true });
const files = commandDocs();
for (const f of readdirSync(dir)) if (!(f in files)) rmSync(new URL(f, dir));
for (const [f, text] of Object.entries(files)) writeFileSync(new URL(f, dir), text);
console.error(`wrote docs/commands/ (${Object.keys(files).length} files)`);
