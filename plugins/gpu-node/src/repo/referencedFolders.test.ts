import { referencedFolders } from './referencedFolders';

describe('referencedFolders', () => {
  it('names the folders appliers apply and kustomizations build from, a file entry by its folder', () => {
    expect(
      referencedFolders([
        {
          path: 'clusters/prod/flux-system/infrastructure.yaml',
          text: 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: { name: infra }\nspec:\n  path: ./infrastructure/controllers/\n',
        },
        {
          path: 'clusters/prod/apps.yaml',
          text: 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: { name: apps }\nspec:\n  source: { repoURL: https://example.invalid/gitops.git, path: apps/prod }\n',
        },
        {
          path: 'clusters/prod/kustomization.yaml',
          text: 'resources:\n  - ../../infrastructure/karpenter/overlays.yaml\n  - ../../base/gpu\n  - local.yaml\ncomponents:\n  - ../../components/monitoring\n',
        },
      ]),
    ).toEqual([
      'apps/prod',
      'base/gpu',
      'clusters/prod',
      'components/monitoring',
      'infrastructure/controllers',
      'infrastructure/karpenter',
    ]);
  });

  it('names no remote entry, no folder outside the repository, and not the whole repository', () => {
    expect(
      referencedFolders([
        {
          path: 'kustomization.yaml',
          text: 'resources:\n  - https://github.com/acme/base?ref=v1\n  - github.com/acme/other\n  - ../outside\n',
        },
        {
          path: 'clusters/prod/flux.yaml',
          text: 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: { name: all }\nspec:\n  path: ./\n',
        },
        {
          path: 'clusters/prod/outside.yaml',
          text: 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: { name: outside }\nspec:\n  source: { repoURL: https://example.invalid/gitops.git, path: ../elsewhere }\n',
        },
      ]),
    ).toEqual([]);
  });

  it('names the chart folders of the repository Flux HelmReleases install and kustomize helmCharts entries inflate, not a Helm repository chart', () => {
    expect(
      referencedFolders([
        {
          path: 'clusters/prod/releases.yaml',
          text: [
            'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: { name: local }\nspec:\n  chart:\n    spec: { chart: ./charts/gpu-stack, sourceRef: { kind: GitRepository, name: flux-system } }\n',
            'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: { name: upstream }\nspec:\n  chart:\n    spec: { chart: gpu-operator, sourceRef: { kind: HelmRepository, name: nvidia } }\n',
          ].join('---\n'),
        },
        {
          path: 'clusters/prod/kustomization.yaml',
          text: 'helmGlobals: { chartHome: ../../vendor/charts }\nhelmCharts:\n  - { name: device-plugin, releaseName: nvdp }\n  - { name: dcgm-exporter, repo: https://nvidia.github.io/dcgm-exporter/helm-charts }\n',
        },
        {
          path: 'clusters/dev/kustomization.yaml',
          text: 'helmCharts:\n  - { name: gpu-operator, releaseName: gpu-operator }\n',
        },
      ]),
    ).toEqual([
      'charts/gpu-stack',
      'clusters/dev/charts/gpu-operator',
      'vendor/charts/device-plugin',
    ]);
  });

  it('names the folders the Applications of an ApplicationSet git generator apply lie in, which a sparse checkout cannot list', () => {
    const applicationSet = (name: string, git: string, path: string) =>
      `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: { name: ${name} }\nspec:\n  generators:\n    - git: ${git}\n  template:\n    metadata: { name: x }\n    spec:\n      source: { repoURL: https://example.invalid/gitops.git, path: '${path}' }\n`;
    expect(
      referencedFolders([
        {
          path: 'clusters/prod/addons.yaml',
          text: [
            applicationSet(
              'dirs',
              '{ directories: [{ path: platform/addons/* }, { path: platform/addons/legacy, exclude: true }] }',
              '{{path}}',
            ),
            applicationSet(
              'files',
              '{ files: [{ path: teams/*/gpu/config.json }] }',
              'deploy/{{.path.path}}/overlays/prod',
            ),
            applicationSet(
              'fixed',
              '{ directories: [{ path: anything/* }] }',
              'infra/gpu/',
            ),
            applicationSet(
              'unknown',
              '{ directories: [{ path: elsewhere/* }] }',
              '{{path.basename}}',
            ),
            applicationSet(
              'everything',
              '{ directories: [{ path: "*" }] }',
              '{{path}}',
            ),
          ].join('---\n'),
        },
      ]),
    ).toEqual(['deploy/teams', 'infra/gpu', 'platform/addons']);
  });
});
