/**
 * Drift per cluster: each refresh reads every configured cluster's
 * Kubernetes API once (readClusterObjects.ts: six calls, never one per
 * entity). The comparison with Git runs against the index snapshot a
 * request is answered from, once per (cluster read, snapshot): so a read
 * that lands before the repository is first indexed still counts, and a
 * merged pull request shows as "not synced yet" right away rather than
 * after the next read. A page never waits for a cluster; one that cannot
 * be read shows intent with the reason.
 */
import type {
  ClusterProfile,
  DriftFinding,
  GpuAllocation,
  LiveDataStatus,
} from '@gpu-gitops/plugin-gpu-common';
import type { KubernetesTarget } from '../config/readDriftConfig';
import type { ClusterIndex, IndexSnapshot } from '../repoIndex/indexSnapshot';
import { detectDrift, type ClusterDriftFindings } from './detectDrift';
import { readClusterObjects, type ClusterObjects } from './readClusterObjects';

interface ClusterReading {
  status: LiveDataStatus;
  read?: { objects: ClusterObjects; at: Date };
  /** The findings of `read` against one indexed state of Git. */
  compared?: { index: ClusterIndex; findings: ClusterDriftFindings };
}

export class ClusterDrift {
  private readonly byCluster = new Map<string, ClusterReading>();
  private readonly profiles: Map<string, ClusterProfile>;

  constructor(
    private readonly targets: KubernetesTarget[],
    private readonly options: {
      /** The cluster profiles (where each cluster's device-plugin ConfigMap is). */
      profiles: ClusterProfile[];
      /** Pods pending longer than this are drift; younger ones may be starting. */
      graceMs: number;
      now?: () => Date;
    },
  ) {
    this.profiles = new Map(options.profiles.map(p => [p.name, p]));
  }

  /** Reads every cluster once; a failing cluster keeps its reason. */
  async refresh(): Promise<LiveDataStatus[]> {
    const at = (this.options.now ?? (() => new Date()))();
    await Promise.all(
      this.targets.map(async target => {
        const { cluster } = target;
        const fail = (reason: string) =>
          this.byCluster.set(cluster, {
            status: { cluster, source: 'kubernetes', available: false, reason },
          });
        const profile = this.profiles.get(cluster);
        if (target.unusable || !profile) {
          fail(target.unusable ?? `cluster "${cluster}" has no profile`);
          return;
        }
        try {
          const objects = await readClusterObjects(
            target,
            profile.devicePluginConfigMap,
          );
          this.byCluster.set(cluster, {
            status: {
              cluster,
              source: 'kubernetes',
              available: true,
              at: at.toISOString(),
            },
            read: { objects, at },
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

  /** The last read of a cluster compared with the snapshot's Git (cached per pair). */
  private findingsOf(
    cluster: string,
    snapshot: Pick<IndexSnapshot, 'clusters'>,
  ): ClusterDriftFindings | undefined {
    const reading = this.byCluster.get(cluster);
    const index = snapshot.clusters.get(cluster);
    if (!reading?.read || !index) return undefined;
    if (reading.compared?.index !== index) {
      reading.compared = {
        index,
        findings: detectDrift(reading.read.objects, {
          profile: index.profile,
          repoState: index.repoState,
          now: reading.read.at,
          graceMs: this.options.graceMs,
        }),
      };
    }
    return reading.compared.findings;
  }

  /**
   * What differs for the allocation: its pool's findings, then its own
   * pods'. Undefined when its cluster was not read (intent only).
   */
  driftOf(
    allocation: GpuAllocation,
    snapshot: Pick<IndexSnapshot, 'clusters'>,
  ): DriftFinding[] | undefined {
    const findings = this.findingsOf(allocation.cluster, snapshot);
    if (!findings) return undefined;
    return [
      ...(findings.byPool.get(allocation.pool) ?? []),
      ...(findings.byWorkload.get(allocation.id) ?? []),
    ];
  }

  /** A pool's own findings (NodePool, overlays, its nodes); undefined: not read. */
  poolDriftOf(
    cluster: string,
    pool: string,
    snapshot: Pick<IndexSnapshot, 'clusters'>,
  ): DriftFinding[] | undefined {
    const findings = this.findingsOf(cluster, snapshot);
    return findings && (findings.byPool.get(pool) ?? []);
  }

  /** What runs in the cluster that Git no longer has (undefined: not read). */
  notInGitOf(
    cluster: string,
    snapshot: Pick<IndexSnapshot, 'clusters'>,
  ): DriftFinding[] | undefined {
    return this.findingsOf(cluster, snapshot)?.notInGit;
  }
}
