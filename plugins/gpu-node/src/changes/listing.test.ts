/**
 * A new file is listed once: a folder the cluster's GPU kustomization lists
 * already builds it, however the team wrote that entry (`nodepools`,
 * `./nodepools/`), as kustomize resolves it (entryPaths.ts).
 */
import { MemoryRepoTree } from '../repo/tree';
import { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';
import { listResource } from './listing';

const GPU_KUSTOMIZATION = 'clusters/lab/gpu/kustomization.yaml';
const POOL = 'clusters/lab/gpu/nodepools/gpu-a100.yaml';

async function listPool(resources: string[]) {
  const text = `resources:\n${resources.map(r => `  - ${r}\n`).join('')}`;
  const staged = new StagedTree(new MemoryRepoTree({}));
  const kustomization = YamlFile.parse(GPU_KUSTOMIZATION, text);
  await listResource(staged, kustomization, POOL);
  return kustomization.firstMap().toJS().resources as string[];
}

describe('listResource', () => {
  it.each([['nodepools'], ['nodepools/'], ['./nodepools'], ['./nodepools/']])(
    'adds nothing when the listed folder %s covers the file',
    async entry => {
      expect(await listPool([entry])).toEqual([entry]);
    },
  );

  it('lists the file when no listed folder covers it', async () => {
    expect(await listPool(['device-plugin'])).toEqual([
      'device-plugin',
      'nodepools/gpu-a100.yaml',
    ]);
  });

  it('lists the file in a nested kustomization of its folder', async () => {
    const staged = new StagedTree(
      new MemoryRepoTree({
        'clusters/lab/gpu/nodepools/kustomization.yaml': 'resources: []\n',
      }),
    );
    const kustomization = YamlFile.parse(GPU_KUSTOMIZATION, 'resources: []\n');
    await listResource(staged, kustomization, POOL);
    expect(
      await staged.read('clusters/lab/gpu/nodepools/kustomization.yaml'),
    ).toContain('- gpu-a100.yaml');
  });
});
