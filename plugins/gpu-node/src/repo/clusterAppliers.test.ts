/**
 * Which folders an Argo CD Application applies: the same sources the Helm
 * release readers see (`argoSources`), so a `spec.source` left beside
 * `spec.sources` is ignored by both, as Argo CD ignores it.
 */
import { clusterAppliers } from './clusterAppliers';

describe('clusterAppliers', () => {
  it('takes the paths of spec.sources, not of a spec.source left beside them', () => {
    const text = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata: { name: prod, namespace: argocd }',
      'spec:',
      '  source: { repoURL: https://github.com/example/gitops.git, path: clusters/prod/old }',
      '  sources:',
      '    - { repoURL: https://github.com/example/gitops.git, path: clusters/prod }',
      '',
    ].join('\n');
    expect(
      clusterAppliers([{ path: 'argocd/prod.yaml', text }], 'clusters/prod'),
    ).toEqual([
      expect.objectContaining({
        field: 'spec.sources[0].path',
        path: 'clusters/prod',
      }),
    ]);
  });
});
