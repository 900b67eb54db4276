// Regenerates completions/ from the command registry (run after `npm run build`).
import { writeFileSync } from 'node:fs';
const { COMPLETIONS } = await import('../dist/app/completion.js');
for (const { file, make } of Object.values(COMPLETIONS)) {
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), make());
  console.error(`wrote completions/${file}`);
}
