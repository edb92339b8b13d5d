/**
 * `device-plugin`: a GPU pool whose nodes no device plugin serves, or two
 * serve, or a MIG pool where no MIG manager runs (gpu-common
 * `scheduling/devicePluginService.ts`, the rule `verify` refuses by).
 * Judged only when the caller read what the repository runs on the
 * cluster's GPU nodes (`validate --cluster`).
 */
import type { BuiltPool } from './builtPools';
import type { Finding } from './findings';
import { servedPools, type PoolsStack } from './poolNodeShapes';

export function checkPoolDevicePlugins(
  pools: readonly BuiltPool[],
  stack: PoolsStack,
  findings: Finding[],
): void {
  for (const { pool, problems } of servedPools(pools, stack)) {
    // A pool of machines without GPUs needs no device plugin.
    if (!pool.gpuCounts.some(count => count > 0)) continue;
    for (const message of problems) {
      findings.push({
        file: pool.file,
        object: `${pool.object.kind}/${pool.name}`,
        rule: 'device-plugin',
        message,
      });
    }
  }
}
