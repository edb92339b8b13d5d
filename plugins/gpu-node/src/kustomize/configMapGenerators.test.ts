import { configMapGenerators } from './configMapGenerators';

describe('configMapGenerators', () => {
  it("resolves each file against the kustomization's folder, keeps `key=` keys, and lists no file outside the repository", () => {
    expect(
      configMapGenerators('clusters/dev/gpu/kustomization.yaml', {
        namespace: 'gpu-operator',
        configMapGenerator: [
          {
            name: 'device-plugin-config',
            files: [
              'default=device-plugin/default.yaml',
              './mig/../time-slicing.yaml',
              '../../../../outside.yaml',
            ],
          },
          { name: 'other', namespace: 'kube-system', files: [] },
          { files: ['nameless.yaml'] },
        ],
      }),
    ).toEqual([
      {
        name: 'device-plugin-config',
        namespace: 'gpu-operator',
        files: new Map([
          ['clusters/dev/gpu/device-plugin/default.yaml', 'default'],
          ['clusters/dev/gpu/time-slicing.yaml', 'time-slicing.yaml'],
        ]),
      },
      { name: 'other', namespace: 'kube-system', files: new Map() },
    ]);
  });
});
