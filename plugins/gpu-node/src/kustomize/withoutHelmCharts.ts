import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { parseDocument } from 'yaml';
import { BuiltObject, kustomizeBuild, KustomizeBuildOptions } from './build';
import { HELM_FIELDS, KUSTOMIZATION_FILE_NAMES } from './roots';

/**
 * Builds `root` of the repository at `repoDir` with its Helm charts left
 * out: the folders it builds from (`folders`, repository-relative; with
 * kustomize's default load restrictor nothing outside them can be read)
 * are copied to a temporary folder, `helmCharts` are dropped from their
 * kustomizations there, and that copy is built. Everything else the root
 * builds is exact; what the charts would add is missing. For checking a
 * tree offline, where `--enable-helm` cannot fetch charts.
 */
export async function kustomizeBuildWithoutHelmCharts(
  repoDir: string,
  root: string,
  folders: string[],
  options: KustomizeBuildOptions = {},
): Promise<BuiltObject[]> {
  const copy = await fs.mkdtemp(join(tmpdir(), 'gpu-gitops-kustomize-'));
  try {
    for (const folder of folders) {
      const from =
        folder === '.' ? repoDir : join(repoDir, ...folder.split('/'));
      const to = folder === '.' ? copy : join(copy, ...folder.split('/'));
      await fs.cp(from, to, {
        recursive: true,
        // A nested folder may already be there from an enclosing one.
        force: true,
        filter: source => !source.endsWith(`${join('/', '.git')}`),
      });
      await dropHelmCharts(to);
    }
    return await kustomizeBuild(
      root === '.' ? copy : join(copy, ...root.split('/')),
      { ...options, enableHelm: false, pathsRelativeTo: copy },
    );
  } finally {
    await fs.rm(copy, { recursive: true, force: true });
  }
}

async function dropHelmCharts(folder: string): Promise<void> {
  for (const name of KUSTOMIZATION_FILE_NAMES) {
    const file = join(folder, name);
    const text = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const doc = parseDocument(text);
    if (doc.errors.length > 0) continue; // kustomize will say why
    let changed = false;
    for (const field of HELM_FIELDS) {
      if (doc.has(field)) {
        doc.delete(field);
        changed = true;
      }
    }
    if (changed) await fs.writeFile(file, doc.toString());
  }
}
