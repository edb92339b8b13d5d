/**
 * The last read of one live source (a cluster's Prometheus, or its
 * Kubernetes API) per cluster: what it gave, or why it gave nothing. The
 * routes read what the last refresh left, so a page never waits for a
 * cluster, and one that cannot be read shows intent with the reason.
 */
import type { LiveDataStatus } from '@gpu-gitops/plugin-gpu-common';

export class ClusterReadings<T> {
  private readonly byCluster = new Map<
    string,
    { status: LiveDataStatus; data?: T }
  >();

  constructor(
    /** The clusters this source is configured for, in the order they are shown. */
    private readonly clusters: string[],
    private readonly source: LiveDataStatus['source'],
  ) {}

  /**
   * Reads every cluster at once; what a read throws becomes that cluster's
   * reason (its message: the readers word it, without secrets).
   */
  async readAll(
    at: Date,
    read: (cluster: string) => Promise<T>,
  ): Promise<LiveDataStatus[]> {
    await Promise.all(
      this.clusters.map(async cluster => {
        try {
          this.succeeded(cluster, at, await read(cluster));
        } catch (error) {
          this.failed(cluster, (error as Error).message);
        }
      }),
    );
    return this.statuses();
  }

  succeeded(cluster: string, at: Date, data: T): void {
    this.byCluster.set(cluster, {
      status: {
        cluster,
        source: this.source,
        available: true,
        at: at.toISOString(),
      },
      data,
    });
  }

  failed(cluster: string, reason: string): void {
    this.byCluster.set(cluster, {
      status: { cluster, source: this.source, available: false, reason },
    });
  }

  /** What the last read gave; undefined when it failed or has not run. */
  dataOf(cluster: string): T | undefined {
    return this.byCluster.get(cluster)?.data;
  }

  statuses(): LiveDataStatus[] {
    return this.clusters.map(
      cluster =>
        this.byCluster.get(cluster)?.status ?? {
          cluster,
          source: this.source,
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
}
