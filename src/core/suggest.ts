// The one did-you-mean of pm: commands, flags, profiles and market slugs are all suggested by
// `suggest`, ranked the same way, so a typo gets the same kind of answer wherever it is made.

/** Levenshtein distance (short strings: names, flags, slugs). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

const bare = (s: string): string => s.toLowerCase().replace(/^-+/, '');
const parts = (s: string): string[] => s.split(/[-_.\s/]+/).filter((p) => p.length > 0);

/**
 * How far `candidate` is from what was typed (lower is nearer), or undefined when it is not a
 * sensible guess: a prefix either way ranks first, then a whole part of a hyphenated name
 * (`--stdin` in `--secret-stdin`), then an edit distance of at most a third of the length.
 */
function nearness(typed: string, candidate: string): number | undefined {
  const q = bare(typed);
  const c = bare(candidate);
  if (q === '' || c === '') return undefined;
  if (q === c) return 0;
  const d = editDistance(q, c);
  const limit = Math.max(1, Math.floor(Math.max(q.length, c.length) / 3));
  if (q.length >= 2 && (c.startsWith(q) || q.startsWith(c))) return 0.5 + d / 100;
  if (q.length >= 3 && (parts(c).includes(q) || parts(q).includes(c))) return 1 + d / 100;
  if (d <= limit) return 1 + d;
  return undefined;
}

/**
 * The candidates nearest to `typed`, best first (at most `max`): a prefix either way, a whole
 * part of a hyphenated name, or a few edits away; nothing when nothing is near.
 * @example suggest('--stdin', ['--secret-stdin', '--name']) // ['--secret-stdin']
 * @example suggest('sandbx', ['sandbox', 'prod']) // ['sandbox']
 */
export function suggest(typed: string, candidates: Iterable<string>, max = 3): string[] {
  const scored: { c: string; n: number }[] = [];
  for (const c of new Set(candidates)) {
    const n = nearness(typed, c);
    if (n !== undefined) scored.push({ c, n });
  }
  return scored
    .sort((a, b) => a.n - b.n || a.c.localeCompare(b.c))
    .slice(0, max)
    .map((x) => x.c);
}

/** "Did you mean a, b or c?", or undefined for none. */
export function didYouMean(near: readonly string[]): string | undefined {
  if (near.length === 0) return undefined;
  const last = near[near.length - 1];
  return `Did you mean ${near.length === 1 ? last : `${near.slice(0, -1).join(', ')} or ${last}`}?`;
}

/**
 * The keys of an object that are not among `known` (those holding undefined pass: they say
 * nothing), with a hint for a refusal naming them: the nearest known key of each, then all of them.
 * @example unknownKeys({ postonly: true }, ['postOnly', 'size'], 'Keys') // { unknown: ['postonly'], hint: 'Did you mean postOnly? Keys: postOnly, size.' }
 */
export function unknownKeys(given: object, known: readonly string[], label: string): { unknown: string[]; hint: string } | undefined {
  const unknown = Object.entries(given)
    .filter(([k, v]) => v !== undefined && !known.includes(k))
    .map(([k]) => k);
  if (unknown.length === 0) return undefined;
  const near = [...new Set(unknown.flatMap((k) => suggest(k, known, 1)))];
  return { unknown, hint: [didYouMean(near), `${label}: ${known.join(', ')}.`].filter((s) => s !== undefined).join(' ') };
}
