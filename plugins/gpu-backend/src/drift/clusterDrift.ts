/**
 * Drift per cluster: each refresh reads every configured cluster's
 * Kubernetes API once (readClusterObjects.ts: six calls, never one per
 * entity) and compares it with the index's view of Git. The allocation
 * route reads what the last refresh left, so a page never waits for a
 * cluster, and one that cannot be read shows intent with the reason.
 */
import type {
  DriftFinding,
  GpuAllocation,
  LiveDataStatus,
} from '@gpu-gitops/plugin-gpu-common';
import type { KubernetesTarget } from '../config/readDriftConfig';
import type { IndexSnapshot } from '../repoIndex/indexSnapshot';
import { detectDrift, type ClusterDriftFindings } from './detectDrift';
import { readClusterObjects } from './readClusterObjects';

interface ClusterReading {
  status: LiveDataStatus;
  findings?: ClusterDriftFindings;
}

export class ClusterDrift {
  private readonly byCluster = new Map<string, ClusterReading>();

  constructor(
    private readonly targets: KubernetesTarget[],
    private readonly options: {
      /** Pods pending longer than this are drift; younger ones may be starting. */
      graceMs: number;
      now?: () => Date;
    },
  ) {}

  /** Reads every cluster once; a failing cluster keeps its reason. */
  async refresh(
    snapshot: Pick<IndexSnapshot, 'clusters'>,
  ): Promise<LiveDataStatus[]> {
    const at = (this.options.now ?? (() => new Date()))();
    await Promise.all(
      this.targets.map(async target => {
        const { cluster } = target;
        const fail = (reason: string) =>
          this.byCluster.set(cluster, {
            status: { cluster, source: 'kubernetes', available: false, reason },
          });
        if (target.unusable) {
          fail(target.unusable);
          return;
        }
        const indexed = snapshot.clusters.get(cluster);
        if (!indexed) {
          fail('the GitOps repository has not been indexed yet');
          return;
        }
        try {
          const objects = await readClusterObjects(
            target,
            indexed.profile.devicePluginConfigMap,
          );
          this.byCluster.set(cluster, {
            status: {
              cluster,
              source: 'kubernetes',
              available: true,
              at: at.toISOString(),
            },
            findings: detectDrift(objects, {
              profile: indexed.profile,
              repoState: indexed.repoState,
              now: at,
              graceMs: this.options.graceMs,
            }),
          });
        } catch (error) {
          fail((error as Error).message);
        }
      }),
    );
    return this.statuses();
  }

  statuses(): LiveDataStatus[] {
    return this.targets.map(
      ({ cluster }) =>
        this.byCluster.get(cluster)?.status ?? {
          cluster,
          source: 'kubernetes',
          available: false,
          reason: 'not read yet',
        },
    );
  }

  /** The status of each of these clusters (configured ones only). */
  statusOf(clusters: string[]): LiveDataStatus[] {
    const wanted = new Set(clusters);
    return this.statuses().filter(s => wanted.has(s.cluster));
  }

  /** What runs in the cluster that Git no longer has (undefined: not read). */
  notInGitOf(cluster: string): DriftFinding[] | undefined {
    return this.byCluster.get(cluster)?.findings?.notInGit;
  }

  /**
   * What differs for the allocation: its pool's findings, then its own
   * pods'. Undefined when its cluster was not read (intent only).
   */
  driftOf(allocation: GpuAllocation): DriftFinding[] | undefined {
    const findings = this.byCluster.get(allocation.cluster)?.findings;
    if (!findings) return undefined;
    return [
      ...(findings.byPool.get(allocation.pool) ?? []),
      ...(findings.byWorkload.get(allocation.id) ?? []),
    ];
  }
}
