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
});
