import { ConfigReader } from '@backstage/config';
import {
  createGpuActionServices,
  type GpuActionServices,
} from '../services/gpuActionServices';
import type { FixtureRepo } from './fixtureGitopsRepo';
import { testGpuConfig } from './testGpuConfig';

/** Module services as `createGpuActionServices` builds them from app-config, for a fixture repo. */
export function testServices(
  repo: FixtureRepo | undefined,
  gpu: Record<string, unknown> = {},
): GpuActionServices {
  return createGpuActionServices(
    new ConfigReader({ gpu: testGpuConfig(repo, gpu) }),
  );
}
