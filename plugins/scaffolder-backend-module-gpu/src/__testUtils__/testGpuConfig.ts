import type { FixtureRepo } from './fixtureGitopsRepo';

/**
 * The `gpu:` app-config the module's tests run with: the fixture repository
 * (when given) as a local-forge remote, and the dev, prod and inference
 * cluster profiles; `gpu` overrides top-level keys.
 */
export function testGpuConfig(
  repo: FixtureRepo | undefined,
  gpu: Record<string, unknown> = {},
) {
  return {
    ...(repo
      ? {
          gitops: {
            repoUrl: repo.bareDir,
            baseBranch: 'main',
            forge: 'local',
            cacheDir: repo.cacheDir,
          },
        }
      : {}),
    clusters: {
      default: 'dev',
      profiles: {
        dev: { karpenterVersion: '1.14.1' },
        // Its bootstrap runs the bin-packing scheduler: the kube-scheduler of this release.
        prod: { karpenterVersion: '1.14.1', kubernetesVersion: '1.33.4' },
        // MPS needs MIG strategy "single" (the device plugin rejects MPS with "mixed").
        inference: { karpenterVersion: '1.14.1', migStrategy: 'single' },
      },
    },
    ...gpu,
  };
}
