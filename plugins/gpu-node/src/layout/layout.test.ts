import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  clusterOwningPath,
  pathReachesCluster,
  defaultRepoLayout,
  devicePluginConfigPath,
  layoutPrefix,
  matchLayoutPath,
  matchLayoutValues,
  migConfigPath,
  nodePoolPath,
  normaliseRepoPath,
  requestPath,
  resolveLayout,
  workloadDirPath,
} from './layout';

function issueOf(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isGpuInputError(e)) return e.issues[0];
    throw e;
  }
  throw new Error('expected a GpuInputError');
}

describe('repository layout', () => {
  it('renders the default layout of docs/architecture.md', () => {
    const layout = resolveLayout();
    expect(clusterKustomizationPath(layout, 'dev')).toBe(
      'clusters/dev/gpu/kustomization.yaml',
    );
    expect(nodePoolPath(layout, 'dev', 'gpu-a100-80gb-mig-3g.40gb')).toBe(
      'clusters/dev/gpu/nodepools/gpu-a100-80gb-mig-3g.40gb.yaml',
    );
    expect(devicePluginConfigPath(undefined, 'dev', 'ts-4')).toBe(
      'clusters/dev/gpu/device-plugin/ts-4.yaml',
    );
    expect(migConfigPath(undefined, 'dev')).toBe(
      'clusters/dev/gpu/mig/config.yaml',
    );
    expect(workloadDirPath(undefined, 'ml', 'chat')).toBe('apps/ml/chat');
    expect(requestPath(undefined, 'ml', 'chat')).toBe('requests/ml/chat.yaml');
    expect(layout.templates).toEqual(defaultRepoLayout);
  });

  it('applies overrides and normalises the rendered paths', () => {
    const layout = resolveLayout({
      workloadDir: 'tenants/{{namespace}}//workloads/./{{component}}/',
      request: 'audit/{{namespace}}-{{name}}.yaml',
    });
    expect(workloadDirPath(layout, 'ml', 'chat')).toBe(
      'tenants/ml/workloads/chat',
    );
    expect(requestPath(layout, 'ml', 'chat')).toBe('audit/ml-chat.yaml');
    expect(nodePoolPath(layout, 'prod', 'gpu-t4-ts4')).toBe(
      'clusters/prod/gpu/nodepools/gpu-t4-ts4.yaml',
    );
    // A resolved layout passes through unchanged (compiled once).
    expect(resolveLayout(layout)).toBe(layout);
  });

  it.each([
    ['../escape', 'dns1123-label'],
    ['Dev', 'dns1123-label'],
    ['a/b', 'dns1123-label'],
    ['', 'dns1123-label'],
  ])('refuses cluster name %j', (cluster, rule) => {
    expect(
      issueOf(() => clusterKustomizationPath(undefined, cluster)),
    ).toMatchObject({ path: 'cluster', rule });
  });

  it('refuses pool and config names that are not DNS-1123 subdomains', () => {
    expect(issueOf(() => nodePoolPath(undefined, 'dev', '..'))).toMatchObject({
      path: 'pool',
      rule: 'dns1123-subdomain',
    });
    expect(
      issueOf(() => devicePluginConfigPath(undefined, 'dev', 'ts-4/../../x')),
    ).toMatchObject({
      path: 'config',
      rule: 'dns1123-subdomain',
    });
  });

  it('refuses templates that escape the repository or are absolute', () => {
    expect(
      issueOf(() =>
        resolveLayout({ request: '../{{namespace}}/{{name}}.yaml' }),
      ),
    ).toMatchObject({
      path: 'layout.request',
      rule: 'path-escape',
    });
    expect(
      issueOf(() =>
        resolveLayout({ nodePool: '/etc/{{cluster}}/{{pool}}.yaml' }),
      ),
    ).toMatchObject({
      path: 'layout.nodePool',
      rule: 'path-absolute',
    });
    expect(
      issueOf(() =>
        resolveLayout({ migConfig: 'clusters/{{cluster}}/../../../x.yaml' }),
      ),
    ).toMatchObject({
      rule: 'path-escape',
    });
  });

  it('refuses unknown variables (strict mode), unknown entries and broken templates', () => {
    expect(
      issueOf(() =>
        resolveLayout({ migConfig: 'clusters/{{cluster}}/{{pool}}.yaml' }),
      ),
    ).toMatchObject({
      path: 'layout.migConfig',
      rule: 'template',
    });
    expect(issueOf(() => resolveLayout({ bogus: 'x' } as any))).toMatchObject({
      path: 'layout.bogus',
      rule: 'unknown-key',
    });
    expect(
      issueOf(() => resolveLayout({ request: 'requests/{{namespace' })),
    ).toMatchObject({ rule: 'template' });
  });

  it('normaliseRepoPath refuses escapes and keeps POSIX form', () => {
    expect(normaliseRepoPath('a\\b//c/./d.yaml')).toBe('a/b/c/d.yaml');
    expect(issueOf(() => normaliseRepoPath('a/../../b'))).toMatchObject({
      rule: 'path-escape',
    });
    expect(issueOf(() => normaliseRepoPath('C:/x'))).toMatchObject({
      rule: 'path-absolute',
    });
  });

  it('matches existing paths back to names and gives folder prefixes', () => {
    const known = { cluster: 'dev' };
    expect(
      matchLayoutPath(
        undefined,
        'devicePluginConfig',
        known,
        'config',
        'clusters/dev/gpu/device-plugin/ts-4.yaml',
      ),
    ).toBe('ts-4');
    expect(
      matchLayoutPath(
        undefined,
        'devicePluginConfig',
        known,
        'config',
        'clusters/prod/gpu/device-plugin/ts-4.yaml',
      ),
    ).toBeUndefined();
    expect(
      matchLayoutPath(
        undefined,
        'devicePluginConfig',
        known,
        'config',
        'clusters/dev/gpu/device-plugin/a/b.yaml',
      ),
    ).toBeUndefined();
    expect(layoutPrefix(undefined, 'nodePool', known, 'pool')).toBe(
      'clusters/dev/gpu/nodepools/',
    );
    expect(
      layoutPrefix(undefined, 'workloadDir', { component: 'x' }, 'namespace'),
    ).toBe('apps/');
  });

  it('matches and prefixes layouts whose variables come in another order', () => {
    const layout = resolveLayout({
      workloadDir: 'workloads/{{component}}/ns-{{namespace}}',
    });
    expect(layoutPrefix(layout, 'workloadDir', {}, 'namespace')).toBe(
      'workloads/',
    );
    expect(
      matchLayoutValues(
        layout,
        'workloadDir',
        {},
        'workloads/chat/ns-ml/deployment.yaml',
        { folder: true },
      ),
    ).toEqual({ component: 'chat', namespace: 'ml' });
    expect(
      matchLayoutValues(
        layout,
        'workloadDir',
        {},
        'workloads/chat/ml/deployment.yaml',
        { folder: true },
      ),
    ).toBeUndefined();
    expect(
      matchLayoutValues(
        layout,
        'workloadDir',
        { namespace: 'web' },
        'workloads/chat/ns-ml',
        {},
      ),
    ).toBeUndefined();
  });

  it('says which cluster’s folder holds a path', () => {
    expect(
      clusterOwningPath(undefined, 'clusters/prod/karpenter/values.yaml'),
    ).toBe('prod');
    expect(
      clusterOwningPath(undefined, 'clusters/dev/gpu/nodepools/gpu-t4.yaml'),
    ).toBe('dev');
    // Outside every cluster's folder, and the folder itself is no file of it.
    expect(
      clusterOwningPath(undefined, 'argocd/karpenter.yaml'),
    ).toBeUndefined();
    expect(clusterOwningPath(undefined, 'clusters/prod')).toBeUndefined();
    const envs = {
      clusterKustomization: 'envs/{{cluster}}/gpu/kustomization.yaml',
    };
    expect(clusterOwningPath(envs, 'envs/prod-eu/infra/karpenter.yaml')).toBe(
      'prod-eu',
    );
    expect(
      clusterOwningPath(envs, 'clusters/prod/karpenter.yaml'),
    ).toBeUndefined();
    // A layout that gives every cluster one folder names no cluster.
    const shared = { clusterKustomization: 'gpu/{{cluster}}.yaml' };
    expect(clusterOwningPath(shared, 'gpu/prod.yaml')).toBeUndefined();
  });

  it('says a path reaches a cluster from its own folder or from a folder of no cluster, never from another cluster’s', () => {
    const reaches = (path: string) =>
      pathReachesCluster(undefined, 'prod', path);
    expect(reaches('clusters/prod/karpenter/values.yaml')).toBe(true);
    expect(reaches('infrastructure/karpenter/overlays.yaml')).toBe(true);
    expect(reaches('clusters/dev/karpenter/values.yaml')).toBe(false);
  });
});
