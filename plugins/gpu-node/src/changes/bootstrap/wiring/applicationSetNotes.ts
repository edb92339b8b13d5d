/**
 * What the notes say of the Argo CD ApplicationSets that apply parts of the
 * cluster's folder: one note per set (not per Application it generates),
 * that its git generator picks a folder of the bootstrap up by its globs,
 * or which generator field to extend so that it does.
 */
import type { ClusterApplier } from '../../../repo/clusterAppliers';
import type { GitGenerator } from '../../../repo/argoApplicationSets';

/** A folder the bootstrap writes (`GpuFolder`), as these notes need it. */
interface Folder {
  folder: string;
  what: string;
}

const globs = (generator: GitGenerator) =>
  generator.include.map(g => `\`${g}\``).join(', ');

function fix(generator: GitGenerator, folder: string): string {
  return generator.kind === 'directories'
    ? `add \`- path: ${folder}\` to its \`${generator.field}\` (or widen a glob there to match it)`
    : `add a file matching ${globs(generator)} to \`${folder}/\`, or a git directories generator with \`- path: ${folder}\``;
}

/**
 * Notes on the sets among `appliers`: a folder of `folders` one of its
 * Applications applies as its own path is picked up; one of `unapplied`
 * (applied by nothing) is not, with the generator field to extend.
 */
export function applicationSetNotes(
  appliers: readonly ClusterApplier[],
  folders: readonly Folder[],
  unapplied: readonly Folder[],
): string[] {
  const sets = new Map<string, ClusterApplier[]>();
  for (const applier of appliers) {
    if (!applier.generator) continue;
    const key = `${applier.file}\n${applier.object}`;
    sets.set(key, [...(sets.get(key) ?? []), applier]);
  }
  return [...sets.values()].flatMap(generated => {
    const [{ object, file, generator }] = generated;
    const picked = folders.flatMap(f => {
      const app = generated.find(a => a.path === f.folder);
      return app?.generator
        ? [
            `${object} in \`${file}\` picks up ${f.what} \`${f.folder}/\`: its \`${app.generator.field}\` glob ${globs(app.generator)} matches it, so it makes an Application for it.`,
          ]
        : [];
    });
    const todo = unapplied.map(
      f =>
        `**To do**: ${f.what} \`${f.folder}/\` is not picked up by ${object} in \`${file}\`: the globs of its \`${generator!.field}\` (${globs(generator!)}) do not match it, and none of the Applications it makes reaches it. To apply it, ${fix(generator!, f.folder)}.`,
    );
    return [...picked, ...todo];
  });
}
