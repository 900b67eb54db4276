// Public property keys (the filter vocabulary of market pages), as the official TS SDK's
// MarketPageFetcher reads them: GET /property-keys, /property-keys/:id and
// /property-keys/:id/options[?parentId=]. The sandbox derives them from its markets: a `category`
// key (select) with one option per category, and a `tags` key (multi-select) whose options sit
// under the category of the first market that carries the tag (so parentId has a meaning).
import type { SandboxState } from '../types.js';
import type { Route } from '../handlers.js';

interface PropertyOption {
  id: string;
  propertyKeyId: string;
  value: string;
  label: string;
  sortOrder: number;
  parentOptionId: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface PropertyKey {
  id: string;
  name: string;
  slug: string;
  type: 'select' | 'multi-select';
  metadata: Record<string, unknown>;
  isSystem: boolean;
  options: PropertyOption[];
  createdAt: string;
  updatedAt: string;
}

const slugOf = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The property keys of the current markets (deterministic ids, so they are stable across reads). */
function propertyKeys(state: SandboxState): PropertyKey[] {
  const since = state.markets.map((m) => m.createdAt).sort()[0] ?? new Date(0).toISOString();
  const option = (key: string, value: string, sortOrder: number, parent: string | null): PropertyOption => ({
    id: `${key}:${slugOf(value)}`,
    propertyKeyId: key,
    value,
    label: value,
    sortOrder,
    parentOptionId: parent,
    metadata: {},
    createdAt: since,
    updatedAt: since,
  });
  const categories: PropertyOption[] = [];
  const tags: PropertyOption[] = [];
  for (const m of state.markets) {
    for (const c of m.categories) {
      if (!categories.some((o) => o.value === c)) categories.push(option('category', c, categories.length, null));
    }
    const parent = m.categories[0] === undefined ? null : `category:${slugOf(m.categories[0])}`;
    for (const t of m.tags) {
      if (!tags.some((o) => o.value === t)) tags.push(option('tags', t, tags.length, parent));
    }
  }
  const key = (id: string, name: string, type: PropertyKey['type'], options: PropertyOption[]): PropertyKey => ({
    id,
    name,
    slug: id,
    type,
    metadata: {},
    isSystem: true,
    options,
    createdAt: since,
    updatedAt: since,
  });
  return [key('category', 'Category', 'select', categories), key('tags', 'Tags', 'multi-select', tags)];
}

const P: Route['auth'] = { kind: 'public' };

export const propertyRoutes: Route[] = [
  { method: 'GET', pattern: '/property-keys', auth: P, handler: (_req, ctx) => ({ status: 200, body: propertyKeys(ctx.state) }) },
  {
    method: 'GET',
    pattern: '/property-keys/:id',
    auth: P,
    handler: (req, ctx) => {
      const k = propertyKeys(ctx.state).find((x) => x.id === req.params['id']);
      return k ? { status: 200, body: k } : { status: 404, body: { message: `Property key ${req.params['id'] ?? ''} not found` } };
    },
  },
  {
    method: 'GET',
    pattern: '/property-keys/:id/options',
    auth: P,
    handler: (req, ctx) => {
      const k = propertyKeys(ctx.state).find((x) => x.id === req.params['id']);
      if (!k) return { status: 404, body: { message: `Property key ${req.params['id'] ?? ''} not found` } };
      const parent = req.query.get('parentId');
      return { status: 200, body: parent === null ? k.options : k.options.filter((o) => o.parentOptionId === parent) };
    },
  },
];
