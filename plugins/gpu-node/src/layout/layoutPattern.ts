/**
 * A layout entry's path template turned into a regular expression: the one
 * way a repository path is matched back to the entry and its variables
 * (`matchLayoutValues`, `layoutPrefix` and `compileRepoLayout` all use it).
 * Patterns are compiled once per layout, entry and fixed values: classifying
 * 40k paths on a cold start of the allocation index must not render
 * templates per path.
 */
import { escapeRegExp } from '../escapeRegExp';
import type { LayoutEntry, ResolvedRepoLayout } from './layout';

/** A valid name for every variable kind, unlikely in real paths, standing in for an unknown variable while rendering. */
function sentinelFor(variable: string): string {
  return `zz0${variable.toLowerCase()}0zz`;
}

/** One entry's template with some variables fixed, compiled. */
export interface EntryPattern {
  /**
   * The values of the entry's variables (the fixed ones included) when
   * `path` is what the entry renders to, else undefined. With `folder`,
   * `path` may also lie anywhere below it; `matched` is then the folder.
   */
  match(
    path: string,
    options?: { folder?: boolean },
  ): { values: Record<string, string>; matched: string } | undefined;
  /**
   * The folder prefix (ending in `/`, or empty) under which every path of
   * the entry lies whatever the values of the unfixed variables: the static
   * text before the first of them.
   */
  readonly prefix: string;
}

const cache = new WeakMap<ResolvedRepoLayout, Map<string, EntryPattern>>();
/** Fixed values are configured cluster names in practice; a bound keeps odd callers from growing the cache. */
const MAX_PATTERNS_PER_LAYOUT = 1000;

/**
 * The pattern of `entry` (whose template uses `variables`) with `known`
 * fixed; every other variable becomes a capture group.
 */
export function entryPattern(
  layout: ResolvedRepoLayout,
  entry: LayoutEntry,
  variables: readonly string[],
  known: Record<string, string>,
): EntryPattern {
  const key = JSON.stringify([entry, known]);
  let patterns = cache.get(layout);
  if (!patterns) {
    patterns = new Map();
    cache.set(layout, patterns);
  }
  let pattern = patterns.get(key);
  if (!pattern) {
    if (patterns.size >= MAX_PATTERNS_PER_LAYOUT) patterns.clear();
    pattern = compileEntryPattern(layout, entry, variables, known);
    patterns.set(key, pattern);
  }
  return pattern;
}

function compileEntryPattern(
  layout: ResolvedRepoLayout,
  entry: LayoutEntry,
  variables: readonly string[],
  known: Record<string, string>,
): EntryPattern {
  const unknown = variables.filter(v => known[v] === undefined);
  const values: Record<string, string> = { ...known };
  for (const v of unknown) values[v] = sentinelFor(v);
  const rendered = layout.render(entry, values);

  let source = escapeRegExp(rendered);
  for (const v of unknown) {
    // A variable used twice must have one value: a backreference after the first.
    let first = true;
    source = source.replace(
      new RegExp(escapeRegExp(sentinelFor(v)), 'g'),
      () => {
        const group = first ? `(?<${v}>[^/]+)` : `\\k<${v}>`;
        first = false;
        return group;
      },
    );
  }
  const exact = new RegExp(`^(?<matched>${source})$`);
  const inFolder = new RegExp(`^(?<matched>${source})(?:/.*)?$`);

  const first = Math.min(
    ...unknown.map(v => rendered.indexOf(sentinelFor(v))).filter(i => i >= 0),
  );
  const before = Number.isFinite(first) ? rendered.slice(0, first) : rendered;
  const slash = before.lastIndexOf('/');

  return {
    prefix: slash < 0 ? '' : before.slice(0, slash + 1),
    match(path, options = {}) {
      const groups = (options.folder ? inFolder : exact).exec(path)?.groups;
      if (!groups) return undefined;
      const found: Record<string, string> = { ...known };
      for (const v of unknown) found[v] = groups[v];
      return { values: found, matched: groups.matched };
    },
  };
}
