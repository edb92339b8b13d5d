import { kustomizationPatchEntries } from '../kustomize/patchEntries';
import { isKustomizationFile } from '../kustomize/roots';
import { FsRepoTree } from '../repo/tree';
import {
  isYamlPath,
  ParsedDocument,
  parseYamlDocuments,
} from '../repo/yamlObjects';
import type { Finding } from './findings';

/** The repository as its files say it: every YAML document, parsed. */
export interface SourceTree {
  tree: FsRepoTree;
  files: string[];
  docs: ParsedDocument[];
  /** Files some kustomization applies as a patch: partial objects by design. */
  patchFiles: Set<string>;
  /** What was left unread and why (Helm chart folders), for the reviewer: never a finding. */
  notes: string[];
}

/** Reads and parses every YAML file; a file that does not parse is a finding. */
export async function readSourceTree(
  dir: string,
  findings: Finding[],
): Promise<SourceTree> {
  const tree = new FsRepoTree(dir);
  const files = await tree.listFiles();
  const charts = helmChartFolders(files);
  const docs: ParsedDocument[] = [];
  for (const file of files.filter(
    f =>
      (isYamlPath(f) || isKustomizationFile(f)) &&
      !charts.some(chart => f.startsWith(chart)),
  )) {
    const { documents, error } = parseYamlDocuments(
      file,
      (await tree.readFile(file)) ?? '',
    );
    if (error)
      findings.push({ file, object: '', rule: 'yaml-syntax', message: error });
    docs.push(...documents);
  }
  return {
    tree,
    files,
    docs,
    patchFiles: kustomizePatchFiles(docs),
    notes: charts.map(
      chart =>
        `${chart === '' ? '.' : chart.slice(0, -1)} is a Helm chart (it holds Chart.yaml): its templates are not YAML until Helm renders them, so its files were not checked (kustomize checks what it inflates with --enable-helm)`,
    ),
  };
}

/**
 * Folders holding a `Chart.yaml`, with a trailing slash: a Helm chart, whose
 * `templates/` are Go templates (`{{ }}`) and whose other files are chart
 * inputs, not objects (Helm docs, "Charts": the chart file structure).
 */
function helmChartFolders(files: string[]): string[] {
  return files
    .filter(f => f === 'Chart.yaml' || f.endsWith('/Chart.yaml'))
    .map(folderPrefix);
}

/** Folder of a repository path, with a trailing slash ('' for the top). */
export function folderPrefix(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash + 1);
}

/** Files that some kustomization applies as a patch (`kustomize/patchEntries.ts`). */
function kustomizePatchFiles(docs: ParsedDocument[]): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) {
    if (!isKustomizationFile(doc.path)) continue;
    for (const entry of kustomizationPatchEntries(doc.path, doc.value)) {
      if (entry.file !== undefined) out.add(entry.file);
    }
  }
  return out;
}
