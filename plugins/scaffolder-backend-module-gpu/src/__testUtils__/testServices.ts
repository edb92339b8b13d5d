import { ConfigReader } from '@backstage/config';
import {
  createGpuActionServices,
  type GpuActionServices,
} from '../services/gpuActionServices';
import type { FixtureRepo } from './fixtureGitopsRepo';

/** Module services as `createGpuActionServices` builds them from app-config, for a fixture repo. */
export function testServices(
  repo: FixtureRepo | undefined,
  gpu: Record<string, unknown> = {},
): GpuActionServices {
  return createGpuActionServices(
    new ConfigReader({
      gpu: {
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
            prod: { karpenterVersion: '1.14.1' },
            // MPS needs MIG strategy "single" (the device plugin rejects MPS with "mixed").
            inference: { karpenterVersion: '1.14.1', migStrategy: 'single' },
          },
        },
        ...gpu,
      },
    }),
  );
}
