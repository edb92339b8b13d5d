/**
 * What an import's report says, as plain data for its templates (the pull
 * request's markdown, the CLI's text): the import's findings grouped the way
 * a reviewer reads them — what was converted, what had no v1 equivalent (with
 * its value), what stays untouched and why, which pools were adopted and
 * which request records written, and what the workloads need from their
 * owners. Both renderings read this one view, so they never disagree.
 */
import type { FileChange } from '../changes/types';
import type { ImportFinding } from '../import/convert/findings';
import type { ImportChange } from '../import/buildImportChange';

/** A reported value longer than this is cut: the report shows it, the file keeps it whole. */
const MAX_VALUE_CHARS = 200;

/** @public */
export interface ImportReportFinding {
  path: string;
  object: string;
  field?: string;
  /** The value as compact JSON (cut at 200 characters), when the finding carries one. */
  value?: string;
  message: string;
}

/** @public */
export interface ImportReportView {
  cluster: string;
  /** The cluster's folder the import read. */
  clusterFolder: string;
  /**
   * Nothing to change and nothing left untouched: the repository is adopted
   * already (objects left as they are, e.g. outside the cluster's folder,
   * are not adopted).
   */
  empty: boolean;
  /**
   * True when the import changes a file, so it has a pull request to open;
   * the body's words ("This pull request …") are for that case only.
   */
  opensPullRequest: boolean;
  converted: { path: string; from: string; to: string }[];
  /** What the conversion moved, kept or changed in behaviour (`moved`, `default-kept`, `note`). */
  conversionNotes: ImportReportFinding[];
  /** Fields with no v1 equivalent, with the value the converted object goes without. */
  reported: ImportReportFinding[];
  /** Objects and files left as they are, with the reason. */
  untouched: ImportReportFinding[];
  adoptedPools: {
    name: string;
    path: string;
    gpuModel: string;
    /** e.g. `time-slicing, 4 slices per GPU`. */
    sharingMode: string;
    /** Where the sharing was read, when something shares its GPUs. */
    sharingSource?: string;
    resourceName: string;
    /** The ledger written on it, or "none" when no workload runs on it. */
    ledger: string;
    /** Each GPU count it carries, with its unit (slices or GPUs). */
    counts: string[];
  }[];
  records: { id: string; path: string; pool: string; workloadPath: string }[];
  /** What the import found on workloads (they are never changed by it). */
  workloads: ImportReportFinding[];
  files: { path: string; action: FileChange['action'] }[];
}

const CONVERSION_NOTE_KINDS = new Set<ImportFinding['kind']>([
  'moved',
  'default-kept',
  'note',
]);

function shownValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_VALUE_CHARS
    ? `${text.slice(0, MAX_VALUE_CHARS)}…`
    : text;
}

function reportFinding(finding: ImportFinding): ImportReportFinding {
  const value = shownValue(finding.value);
  return {
    path: finding.path ?? '',
    object: finding.object,
    ...(finding.field ? { field: finding.field } : {}),
    ...(value !== undefined ? { value } : {}),
    message: finding.message,
  };
}

/** True when the finding is about a file of the cluster's folder (not a workload). */
function inFolder(finding: ImportFinding, folder: string): boolean {
  return finding.path === folder || !!finding.path?.startsWith(`${folder}/`);
}

export function buildImportView(
  change: Pick<
    ImportChange,
    | 'cluster'
    | 'clusterFolder'
    | 'changeSet'
    | 'converted'
    | 'adoptedPools'
    | 'requests'
    | 'findings'
  >,
): ImportReportView {
  const folder = change.clusterFolder;
  const clusterFindings = change.findings.filter(f => inFolder(f, folder));
  const ofKinds = (kinds: ImportFinding['kind'][]) =>
    clusterFindings.filter(f => kinds.includes(f.kind)).map(reportFinding);
  const untouched = ofKinds(['not-converted', 'not-understood']);
  return {
    cluster: change.cluster.name,
    clusterFolder: folder,
    empty: change.changeSet.changes.length === 0 && untouched.length === 0,
    opensPullRequest: change.changeSet.changes.length > 0,
    converted: change.converted.map(c => ({ ...c })),
    conversionNotes: clusterFindings
      .filter(f => CONVERSION_NOTE_KINDS.has(f.kind))
      .map(reportFinding),
    reported: ofKinds(['no-v1-equivalent']),
    untouched,
    adoptedPools: change.adoptedPools.map(p => ({
      name: p.name,
      path: p.path,
      gpuModel: p.gpuModel ?? 'unknown',
      sharingMode:
        p.slicesPerGpu !== undefined
          ? `${p.sharingMode}, ${p.slicesPerGpu} slices per GPU`
          : p.sharingMode,
      ...(p.sharingSource ? { sharingSource: p.sharingSource } : {}),
      resourceName: p.resourceName,
      ledger: p.ledger || 'none',
      counts: [...p.counts],
    })),
    records: change.requests.map(r => ({ ...r })),
    workloads: change.findings
      .filter(f => !inFolder(f, folder))
      .map(reportFinding),
    files: change.changeSet.changes.map(c => ({
      path: c.path,
      action: c.action,
    })),
  };
}
