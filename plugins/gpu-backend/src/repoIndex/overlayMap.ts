/**
 * A snapshot's maps with a few keys changed, without copying them: a
 * one-commit refresh used to copy the by-Kubernetes-id and by-name maps
 * whole (`new Map(previous)`, 20k entries each on the bench: most of the
 * index's CPU of a `+1 commit`, `npm run bench -- allocation-index`), so a
 * refresh cost O(repository) instead of O(commit).
 */

/**
 * Past this share of the plain map's size, the changes are folded into a
 * new plain map: lookups stay one `Map.get` or two, and the copy is paid
 * once per that many changed keys, not once per commit.
 */
const FOLD_SHARE = 1 / 16;
/** Small maps are copied at once (a copy of a few hundred entries costs nothing). */
const FOLD_MIN = 256;

/**
 * `base` with the keys of `changes` set to their values (undefined: removed),
 * read-only: `set`, `delete` and `clear` throw, as snapshots never change.
 * A `Map` (the snapshot's types name Maps) whose own storage stays empty;
 * every read goes to the plain map under it and to the changes.
 */
class OverlayMap<K, V> extends Map<K, V> {
  // Private fields, not properties: a map's equality (Jest's `toEqual`, as
  // the index's tests compare an updated snapshot with a full build) looks
  // at its entries and its own enumerable properties.
  readonly #plain: ReadonlyMap<K, V>;
  readonly #changes: ReadonlyMap<K, V | undefined>;
  readonly #count: number;

  constructor(
    plain: ReadonlyMap<K, V>,
    changes: ReadonlyMap<K, V | undefined>,
  ) {
    super();
    let count = plain.size;
    for (const [key, value] of changes) {
      count += (value !== undefined ? 1 : 0) - (plain.has(key) ? 1 : 0);
    }
    this.#plain = plain;
    this.#changes = changes;
    this.#count = count;
  }

  /** The plain map under the changes. */
  get plain(): ReadonlyMap<K, V> {
    return this.#plain;
  }

  /** Every change since `plain` (undefined: removed). */
  get changes(): ReadonlyMap<K, V | undefined> {
    return this.#changes;
  }

  get size(): number {
    return this.#count;
  }

  get(key: K): V | undefined {
    return this.#changes.has(key)
      ? this.#changes.get(key)
      : this.#plain.get(key);
  }

  has(key: K): boolean {
    return this.#changes.has(key)
      ? this.#changes.get(key) !== undefined
      : this.#plain.has(key);
  }

  /** The plain map's order, a changed key in its place; new keys after, in the order they came. */
  *entries(): MapIterator<[K, V]> {
    for (const [key, value] of this.#plain) {
      if (!this.#changes.has(key)) yield [key, value];
      else {
        const changed = this.#changes.get(key);
        if (changed !== undefined) yield [key, changed];
      }
    }
    for (const [key, value] of this.#changes) {
      if (value !== undefined && !this.#plain.has(key)) yield [key, value];
    }
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(
    callback: (value: V, key: K, map: Map<K, V>) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, value] of this.entries()) {
      callback.call(thisArg, value, key, this);
    }
  }

  set(): this {
    throw new TypeError('a snapshot map never changes');
  }

  delete(): boolean {
    throw new TypeError('a snapshot map never changes');
  }

  clear(): void {
    throw new TypeError('a snapshot map never changes');
  }
}

// Its constructor reads as Map's: equality that compares constructors
// (Jest's `toEqual`, with which the index's tests compare an updated
// snapshot with a full build) sees a Map with these entries, as before.
Object.defineProperty(OverlayMap.prototype, 'constructor', {
  value: Map,
  writable: true,
  configurable: true,
});

/**
 * `previous` with `changes` applied (a value undefined: the key removed), as
 * a new read-only map; `previous` is left as it is. Costs O(changes) until
 * the changes since the last plain copy reach `FOLD_SHARE` of it.
 */
export function withEntries<K, V>(
  previous: Map<K, V>,
  changes: ReadonlyMap<K, V | undefined>,
): Map<K, V> {
  const plain = previous instanceof OverlayMap ? previous.plain : previous;
  const all = new Map(previous instanceof OverlayMap ? previous.changes : []);
  for (const [key, value] of changes) all.set(key, value);
  if (all.size > Math.max(FOLD_MIN, plain.size * FOLD_SHARE)) {
    const folded = new Map<K, V>();
    for (const [key, value] of new OverlayMap(plain, all)) {
      folded.set(key, value);
    }
    return folded;
  }
  return new OverlayMap(plain, all);
}
