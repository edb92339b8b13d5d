/**
 * What the generated repository's cluster would answer for drift: every
 * pool's NodePool (Ready) and NodeOverlay (validated), one GPU node per
 * pool with its GPU Feature Discovery and config labels, a pending pod and
 * its FailedScheduling event for one workload in ten, and the
 * device-plugin ConfigMap — served by the same fake Kubernetes API as the
 * unit tests (real client, TLS, token, schemas).
 */
import {
  configMap,
  failedScheduling,
  node,
  nodeOverlay,
  nodePool,
  pendingPod,
} from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/clusterFixtures';
import type { ClusterContents } from '@gpu-gitops/plugin-gpu-backend/src/__testUtils__/kubernetesApiServer';
import { MODES, namespaceOf, POOLS, WORKLOADS } from './gpuRepo';

/** GPUs per node of each mode's instance type (p4d.24xlarge: 8). */
const GPUS = { t4: 1, a10g: 1, l4: 1, 'a100-40gb': 8 } as const;

export function driftCluster(now: Date): ClusterContents {
  const contents: ClusterContents = {
    nodePools: [],
    nodeOverlays: [],
    nodes: [],
    pods: [],
    events: [],
    configMaps: [
      configMap(
        'gpu-operator',
        'nvidia-device-plugin-configs',
        Object.fromEntries(
          MODES.filter(m => m.sharing !== 'mig').map(m => [
            m.config,
            'version: v1\n',
          ]),
        ),
      ),
    ],
  };
  for (let i = 0; i < POOLS; i++) {
    const m = MODES[i % MODES.length];
    const pool = `gpu-p${i}`;
    const gpus = GPUS[m.model];
    contents.nodePools.push(nodePool(pool, { now }));
    contents.nodeOverlays!.push(
      nodeOverlay(`${pool}-1gpu`, pool, { validated: true, now }),
    );
    contents.nodes.push(
      node(`ip-10-${Math.floor(i / 250)}-${i % 250}-1`, {
        pool,
        labels:
          m.sharing === 'mig'
            ? {
                'nvidia.com/gpu.count': String(gpus),
                'nvidia.com/mig.config': m.config,
                'nvidia.com/mig.config.state': 'success',
              }
            : {
                'nvidia.com/gpu.count': String(gpus),
                'nvidia.com/device-plugin.config': m.config,
              },
        allocatable: { [m.resource]: String(gpus * m.slices) },
        ageMinutes: 120,
        now,
      }),
    );
  }
  for (let j = 0; j < WORKLOADS; j += 10) {
    const pod = `app-${j}-7d9f8b6c5d-q${String(j % 10000).padStart(4, '0')}`;
    contents.pods.push(
      pendingPod(namespaceOf(j), pod, { ageMinutes: 30, now }),
    );
    contents.events.push(
      failedScheduling(
        namespaceOf(j),
        pod,
        '0/2000 nodes are available: 2000 Insufficient nvidia.com/gpu.shared.',
        { ageMinutes: 5, now },
      ),
    );
  }
  return contents;
}
