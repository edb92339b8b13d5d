/**
 * A backend that lets package discovery find the GPU packages
 * (`backend.packages`), as the install guide (docs/platform-engineers.md) offers: Backstage's own
 * `discoveryFeatureLoader` reads the backend package's dependencies and keeps
 * the default export of each backend plugin and module it finds.
 */
import { discoveryFeatureLoader } from '@backstage/backend-defaults';
import { mockServices } from '@backstage/backend-test-utils';
import path from 'node:path';
import gpuBackend from '@gpu-gitops/plugin-gpu-backend';
import scaffolderModuleGpu from '@gpu-gitops/plugin-scaffolder-backend-module-gpu';

// The loader's inner function, which `createBackend` calls with these deps.
type FeatureLoader = {
  loader(deps: { config: unknown; logger: unknown }): Promise<unknown[]>;
};

/** `backend.packages` as Backstage reads it. */
type PackagesConfig = 'all' | { include?: string[]; exclude?: string[] };

async function discover(packages: PackagesConfig): Promise<unknown[]> {
  // Discovery reads the package.json closest to the started script.
  const argv1 = process.argv[1];
  process.argv[1] = path.resolve(__dirname, 'index.ts');
  try {
    return await (discoveryFeatureLoader as unknown as FeatureLoader).loader({
      config: mockServices.rootConfig({ data: { backend: { packages } } }),
      logger: mockServices.rootLogger(),
    });
  } finally {
    process.argv[1] = argv1;
  }
}

describe('a backend that discovers its packages', () => {
  it('finds the gpu backend plugin and the scaffolder module', async () => {
    const features = await discover({
      include: [
        '@gpu-gitops/plugin-gpu-backend',
        '@gpu-gitops/plugin-scaffolder-backend-module-gpu',
      ],
    });
    expect(features).toEqual([gpuBackend, scaffolderModuleGpu]);
  });
});
