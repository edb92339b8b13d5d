import { mockServices } from '@backstage/backend-test-utils';
import { AllocationQueries } from '../allocation/AllocationQueries';
import {
  emptySnapshot,
  type ClusterIndex,
  type IndexSnapshot,
} from '../repoIndex/indexSnapshot';
import {
  staticClusterIndex as clusterIndex,
  staticIndexCatalog as catalog,
} from '../__testUtils__/staticClusterIndex';
import { preparePoolsPages } from './poolsPagePreparation';

/**
 * A snapshot of `clusters`; after `previous` as a refresh builds it, with
 * what did not change (the stored requests) the same objects.
 */
function snapshotOf(
  clusters: ClusterIndex[],
  previous: IndexSnapshot = emptySnapshot(),
): IndexSnapshot {
  const snapshot = { ...previous, clusters: new Map() };
  for (const cluster of clusters)
    snapshot.clusters.set(cluster.profile.name, cluster);
  return snapshot;
}

/** An index that lands the snapshots it is given, as `RepoIndex` reports them. */
function fakeIndex(first: IndexSnapshot) {
  let current = first;
  const listeners = new Set<(snapshot: IndexSnapshot) => void>();
  return {
    snapshot: () => current,
    onSnapshot: (listener: (snapshot: IndexSnapshot) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    land(next: IndexSnapshot) {
      current = next;
      for (const listener of listeners) listener(next);
    },
  };
}

describe('preparePoolsPages', () => {
  it('prepares the current snapshot at once and each one a refresh lands, the untouched clusters kept', async () => {
    const a = clusterIndex('rack-a');
    const b = clusterIndex('rack-b');
    const index = fakeIndex(snapshotOf([a, b]));
    const queries = new AllocationQueries(catalog);
    const prepare = jest.spyOn(queries, 'preparePools');
    let turns = 0;
    const preparation = preparePoolsPages({
      queries,
      ...index,
      turn: async () => {
        turns += 1;
      },
    });
    await preparation.settled();
    expect(prepare).toHaveBeenCalledTimes(1);
    // A turn before each pool's summary and each pool's text.
    expect(turns).toBe(4);
    const first = queries.pools(index.snapshot());
    expect(await prepare.mock.results[0].value).toBe(first);

    // rack-a resized to three GPUs; rack-b's parts stay the same objects.
    const second = snapshotOf([clusterIndex('rack-a', 3), b], index.snapshot());
    turns = 0;
    index.land(second);
    await preparation.settled();
    expect(prepare).toHaveBeenCalledTimes(2);
    expect(turns).toBe(3);
    const pools = queries.pools(second);
    expect(await prepare.mock.results[1].value).toBe(pools);
    expect(pools.find(p => p.cluster === 'rack-a')!.allocated).toBe(3);
    expect(pools.find(p => p.cluster === 'rack-b')).toBe(first[1]);

    preparation.stop();
    index.land(snapshotOf([a, b], second));
    await preparation.settled();
    expect(prepare).toHaveBeenCalledTimes(2);
  });

  it('gives up a snapshot a newer one replaced mid-way, and prepares the newer one after it', async () => {
    const index = fakeIndex(emptySnapshot());
    const queries = new AllocationQueries(catalog);
    const prepare = jest.spyOn(queries, 'preparePools');
    const rackB = clusterIndex('rack-b');
    const older = snapshotOf([clusterIndex('rack-a'), rackB]);
    const newer = snapshotOf([clusterIndex('rack-a', 2), rackB], older);
    const preparation = preparePoolsPages({
      queries,
      ...index,
      // The newer snapshot lands during the older one's first turn.
      turn: async () => {
        if (index.snapshot() === older) index.land(newer);
      },
    });
    index.land(older);
    await preparation.settled();

    expect(prepare.mock.calls.map(([snapshot]) => snapshot)).toEqual([
      expect.anything(),
      older,
      newer,
    ]);
    expect(await prepare.mock.results[1].value).toBeUndefined();
    expect(await prepare.mock.results[2].value).toBe(queries.pools(newer));
  });

  it('logs a preparation that failed and goes on with the next snapshot', async () => {
    const index = fakeIndex(snapshotOf([clusterIndex('rack-a')]));
    const queries = new AllocationQueries(catalog);
    jest
      .spyOn(queries, 'preparePools')
      .mockRejectedValueOnce(new Error('no cost for pool gpu-t4'));
    const logger = mockServices.logger.mock();
    const preparation = preparePoolsPages({ queries, ...index, logger });
    await preparation.settled();
    expect(logger.warn).toHaveBeenCalledWith(
      'GPU page not prepared ahead: no cost for pool gpu-t4',
    );

    const next = snapshotOf([clusterIndex('rack-a', 2)], index.snapshot());
    index.land(next);
    await preparation.settled();
    expect(queries.preparePools).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});
