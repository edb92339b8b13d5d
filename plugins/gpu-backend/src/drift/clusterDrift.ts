/**
 * Drift per cluster: each refresh reads every configured cluster's
 * Kubernetes API once (readClusterObjects.ts: four to six calls by
 * provider, never one per entity). The comparison with Git runs against
 * the index snapshot a request is answered from, once per (cluster read,
 * snapshot): so a read that lands before the repository is first indexed
 * still counts, and a merged pull request shows as "not synced yet" right
 * away rather than after the next read. A page never waits for a cluster;
 * one that cannot be read shows intent with the reason.
 */
import type {
  ClusterProfile,
  DriftFinding,
  GpuAllocation,
  LiveDataStatus,
} from '@gpu-gitops/plugin-gpu-common';
import type { KubernetesTarget } from '../config/readDriftConfig';
import { ClusterReadings } from '../live/clusterReadings';
import type { ClusterIndex, IndexSnapshot } from '../repoIndex/indexSnapshot';
import { detectDrift, type ClusterDriftFindings } from './detectDrift';
import { readClusterObjects, type ClusterObjects } from './readClusterObjects';

/** A cluster's last read, and its findings against one indexed state of Git. */
interface ClusterRead {
  objects: ClusterObjects;
  at: Date;
  compared?: { index: ClusterIndex; findings: ClusterDriftFindings };
}

export class ClusterDrift {
  private readonly readings: ClusterReadings<ClusterRead>;
  private readonly profiles: Map<string, ClusterProfile>;

  constructor(
    private readonly targets: KubernetesTarget[],
    private readonly options: {
      /** The cluster profiles (what each cluster's pools are, where its device-plugin ConfigMap is). */
      profiles: ClusterProfile[];
      /** Pods pending longer than this are drift; younger ones may be starting. */
      graceMs: number;
      now?: () => Date;
    },
  ) {
    this.profiles = new Map(options.profiles.map(p => [p.name, p]));
    this.readings = new ClusterReadings(
      targets.map(t => t.cluster),
      'kubernetes',
    );
  }

  /** Reads every cluster once; a failing cluster keeps its reason. */
  async refresh(): Promise<LiveDataStatus[]> {
    const at = (this.options.now ?? (() => new Date()))();
    return this.readings.readAll(at, async cluster => {
      const target = this.targets.find(t => t.cluster === cluster)!;
      const profile = this.profiles.get(cluster);
      if (target.unusable || !profile) {
        throw new Error(
          target.unusable ?? `cluster "${cluster}" has no profile`,
        );
      }
      const objects = await readClusterObjects(target, profile);
      return { objects, at };
    });
  }

  statuses(): LiveDataStatus[] {
    return this.readings.statuses();
  }

  /** The status of each of these clusters (configured ones only). */
  statusOf(clusters: string[]): LiveDataStatus[] {
    return this.readings.statusOf(clusters);
  }

  /** The last read of a cluster compared with the snapshot's Git (cached per pair). */
  private findingsOf(
    cluster: string,
    snapshot: Pick<IndexSnapshot, 'clusters'>,
  ): ClusterDriftFindings | undefined {
    const read = this.readings.dataOf(cluster);
    const index = snapshot.clusters.get(cluster);
    if (!read || !index) return undefined;
    if (read.compared?.index !== index) {
      read.compared = {
        index,
        findings: detectDrift(read.objects, {
          profile: index.profile,
          repoState: index.repoState,
          now: read.at,
          graceMs: this.options.graceMs,
        }),
      };
    }
    return read.compared.findings;
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

  /** A pool's own findings (its pool object, overlays, its nodes); undefined: not read. */
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
