/**
 * How long a state has lasted, for the rules that wait out a grace period
 * before calling something drift (a node starting its device plugin, a
 * pod waiting for its node, a MachineDeployment scaling up, NFD labelling
 * a node).
 */

/** How long ago `since` was; 0 when it is unknown (never drift on a guess). */
export function ageMs(since: Date | string | undefined, now: Date): number {
  return since ? now.getTime() - new Date(since).getTime() : 0;
}

/** `25 min`. */
export function minutes(ms: number): string {
  return `${Math.floor(ms / 60_000)} min`;
}

/** The metadata `lastWrittenAt` reads. */
export interface WrittenMetadata {
  creationTimestamp?: string;
  managedFields?: { time?: string }[];
}

/**
 * When an object was last written: the latest of its managed-fields
 * times, else its creation. The API server keeps one entry per writer and
 * updates its `time` whenever that writer adds, changes or removes a field
 * (kubernetes/apimachinery v0.33 `pkg/apis/meta/v1/types.go`,
 * `ManagedFieldsEntry.Time`), so a sync that changed the object moves it
 * even where the object has no status to say when it was applied.
 */
export function lastWrittenAt(metadata: WrittenMetadata): string | undefined {
  const times = (metadata.managedFields ?? [])
    .map(entry => entry.time)
    .filter((time): time is string => time !== undefined);
  if (times.length === 0) return metadata.creationTimestamp;
  return times.reduce((latest, time) =>
    new Date(time).getTime() > new Date(latest).getTime() ? time : latest,
  );
}
