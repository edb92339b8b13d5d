import { IndexStore } from './indexStore';
import { recordChanges } from './dirtyFiles';
import { RepoFolders } from './repoFolders';

describe('recordChanges', () => {
  it('gives the event loop a turn between the files it sorts (a first index sorts every file)', async () => {
    const folders = new RepoFolders(undefined, ['prod']);
    const store = new IndexStore(folders);
    const changes = new Map<string, string | undefined>();
    for (let i = 0; i < 30; i++) {
      changes.set(`apps/ml/app-${i}/deployment.yaml`, `${i}`.padStart(40, '0'));
    }
    changes.set('requests/ml/app-0.yaml', 'f'.repeat(40));
    let turns = 0;

    const dirty = await recordChanges(store, folders, changes, async () => {
      turns++;
    });

    expect(turns).toBeGreaterThanOrEqual(changes.size);
    expect(dirty.folders.size).toBe(30);
    expect(dirty.requests).toEqual(['requests/ml/app-0.yaml']);
    expect(store.blobs.size).toBe(changes.size);
  });
});
