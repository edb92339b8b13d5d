import type { Config } from '@backstage/config';
import {
  builtinCatalog,
  catalogOverrideSchema,
  mergeCatalog,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * The organisation's GPU catalog: the built-in one with `gpu.catalog` merged
 * on top (pass that sub-config, or undefined). Validated at start-up.
 */
export function readGpuCatalog(config: Config | undefined): GpuCatalog {
  if (!config) return builtinCatalog;
  const parsed = catalogOverrideSchema.safeParse(config.get());
  if (!parsed.success) {
    throw new Error(
      `gpu.catalog is invalid: ${parsed.error.issues
        .map(i => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  }
  return mergeCatalog(builtinCatalog, parsed.data);
}
