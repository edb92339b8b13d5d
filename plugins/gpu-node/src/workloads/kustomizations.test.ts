import { MemoryRepoTree } from '../repo/tree';
import { readKustomizations } from './kustomizations';

describe('readKustomizations', () => {
  it('lists the patch files of every patch field, and no inline patch as a file', async () => {
    const inline =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 2\n';
    const tree = new MemoryRepoTree(
      new Map([
        [
          'apps/ml/api/kustomization.yaml',
          [
            'namespace: ml',
            'resources: [deployment.yaml, ../common]',
            'patchesStrategicMerge:',
            '  - ./sidecar.yaml',
            `  - ${JSON.stringify(inline)}`,
            'patches:',
            '  - path: gpu.yaml',
            '  - patch: "[{op: replace, path: /spec/replicas, value: 3}]"',
            '    target: { kind: Deployment, name: api }',
            'patchesJson6902:',
            '  - target: { kind: Deployment, name: api }',
            '    path: ops.yaml',
            'replicas: [{ name: api, count: 4 }]',
            '',
          ].join('\n'),
        ],
        ['apps/ml/api/deployment.yaml', 'kind: Deployment\n'],
        ['apps/ml/common/kustomization.yaml', 'resources: []\n'],
      ]),
    );
    const api = (await readKustomizations(tree)).byFolder.get('apps/ml/api');
    expect(api).toEqual({
      folder: 'apps/ml/api',
      file: 'apps/ml/api/kustomization.yaml',
      namespace: 'ml',
      files: ['apps/ml/api/deployment.yaml'],
      folders: ['apps/ml/common'],
      // kustomize's order: patchesStrategicMerge, patches, patchesJson6902.
      patches: [
        'apps/ml/api/sidecar.yaml',
        'apps/ml/api/gpu.yaml',
        'apps/ml/api/ops.yaml',
      ],
      helmReleases: [],
      replicas: { api: 4 },
    });
  });
});
