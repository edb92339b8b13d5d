import { compileRepoLayout } from './compileRepoLayout';
import { matchLayoutValues, resolveLayout } from './layout';

describe('compileRepoLayout', () => {
  const compiled = compileRepoLayout(undefined, ['dev', 'prod']);

  it('places every kind of file of the default layout, for the clusters compiled', () => {
    expect(compiled.place('clusters/prod/gpu/kustomization.yaml')).toEqual({
      entry: 'clusterKustomization',
      cluster: 'prod',
    });
    expect(compiled.place('clusters/dev/gpu/mig/config.yaml')).toEqual({
      entry: 'migConfig',
      cluster: 'dev',
    });
    expect(compiled.place('clusters/dev/gpu/device-plugin/ts-4.yaml')).toEqual({
      entry: 'devicePluginConfig',
      cluster: 'dev',
      config: 'ts-4',
    });
    // Any YAML file of the pool folder: NodePools keep their overlays beside them.
    expect(compiled.place('clusters/prod/gpu/nodepools/hand-made.yml')).toEqual(
      { entry: 'nodePool', cluster: 'prod' },
    );
    expect(compiled.place('requests/ml/chat.yaml')).toEqual({
      entry: 'request',
      namespace: 'ml',
      name: 'chat',
    });
    expect(
      compiled.place('apps/ml/chat/overlays/prod/kustomization.yaml'),
    ).toEqual({
      entry: 'workloadDir',
      folder: 'apps/ml/chat',
      namespace: 'ml',
    });
    // A file above the workload folders' depth stands for its own folder.
    expect(compiled.place('apps/loose.yaml')).toEqual({
      entry: 'workloadDir',
      folder: 'apps',
    });
    // Any other YAML file of a cluster's folder: hand-written pools and ConfigMaps.
    expect(compiled.place('clusters/dev/karpenter/gpu.yaml')).toEqual({
      entry: 'clusterFolder',
      cluster: 'dev',
    });
    expect(compiled.place('clusters/prod/gpu/nodeclasses/gpu.yml')).toEqual({
      entry: 'clusterFolder',
      cluster: 'prod',
    });
  });

  it('keeps a workload folder inside a cluster folder a workload folder', () => {
    const inside = compileRepoLayout(
      { workloadDir: 'clusters/dev/apps/{{namespace}}/{{component}}' },
      ['dev'],
    );
    expect(inside.place('clusters/dev/apps/ml/chat/deployment.yaml')).toEqual({
      entry: 'workloadDir',
      folder: 'clusters/dev/apps/ml/chat',
      namespace: 'ml',
    });
    expect(inside.place('clusters/dev/karpenter/gpu.yaml')).toEqual({
      entry: 'clusterFolder',
      cluster: 'dev',
    });
  });

  it('has no place for other clusters, files that are not YAML and paths outside the layout', () => {
    expect(compiled.place('clusters/staging/gpu/nodepools/a.yaml')).toBe(
      undefined,
    );
    expect(compiled.place('clusters/dev/gpu/nodepools/README.md')).toBe(
      undefined,
    );
    expect(compiled.place('clusters/dev/README.md')).toBe(undefined);
    expect(compiled.place('apps/ml/chat/README.md')).toBe(undefined);
    expect(compiled.place('docs/index.yaml')).toBe(undefined);
    expect(compiled.place('requests/ml/a/b.yaml')).toBe(undefined);
  });

  it('answers by name for one cluster, and gives the folders it reads', () => {
    expect(
      compiled.devicePluginConfigName(
        'dev',
        'clusters/dev/gpu/device-plugin/mps-2.yaml',
      ),
    ).toBe('mps-2');
    expect(
      compiled.devicePluginConfigName(
        'dev',
        'clusters/prod/gpu/device-plugin/mps-2.yaml',
      ),
    ).toBe(undefined);
    expect(compiled.workloadNamespace('apps/web/shop/deployment.yaml')).toBe(
      'web',
    );
    expect(compiled.workloadNamespace('clusters/dev/x.yaml')).toBe(undefined);
    expect(compiled.poolPrefix('prod')).toBe('clusters/prod/gpu/nodepools/');
    expect(compiled.workloadsPrefix).toBe('apps/');
    expect(compiled.requestsPrefix).toBe('requests/');
    expect(() => compiled.poolPrefix('staging')).toThrow(/not compiled/);
  });

  it('follows an overridden layout, with variables in another order or used twice', () => {
    const layout = resolveLayout({
      workloadDir: 'workloads/{{component}}/ns-{{namespace}}',
      devicePluginConfig: 'gpu/{{cluster}}/configs/{{config}}/{{cluster}}.yaml',
      request: 'audit/{{namespace}}-{{name}}.yaml',
    });
    const custom = compileRepoLayout(layout, ['dev']);
    expect(custom.layout).toBe(layout);
    expect(custom.place('workloads/chat/ns-ml/job.yaml')).toEqual({
      entry: 'workloadDir',
      folder: 'workloads/chat/ns-ml',
      namespace: 'ml',
    });
    expect(custom.place('gpu/dev/configs/ts-2/dev.yaml')).toEqual({
      entry: 'devicePluginConfig',
      cluster: 'dev',
      config: 'ts-2',
    });
    // The cluster named twice must be the same cluster.
    expect(custom.place('gpu/dev/configs/ts-2/prod.yaml')).toBe(undefined);
    expect(custom.place('audit/ml-chat.yaml')).toMatchObject({
      entry: 'request',
    });
    // matchLayoutValues reads a path with the same compiled pattern.
    expect(
      matchLayoutValues(
        layout,
        'devicePluginConfig',
        {},
        'gpu/a/configs/b/a.yaml',
      ),
    ).toEqual({ cluster: 'a', config: 'b' });
    expect(
      matchLayoutValues(
        layout,
        'devicePluginConfig',
        {},
        'gpu/a/configs/b/c.yaml',
      ),
    ).toBe(undefined);
  });
});
