/**
 * What the bootstrap pull request tells its reviewer about GPU Operator
 * releases the repository declares: where each is, that the bootstrap never
 * edits it, what it already sets as the product needs, and exactly what to
 * set where, or where the cluster profile disagrees. Nothing for the
 * bootstrap's own release: the description lists what its values set.
 */
import type { GpuOperatorOutcome } from './bootstrapGpuOperator';
import type { OperatorReleaseCheck } from './operatorSettings';

function releaseNotes(check: OperatorReleaseCheck): string[] {
  const { release } = check;
  const facts = [
    release.version ? `chart version ${release.version}` : undefined,
    release.namespace ? `in namespace \`${release.namespace}\`` : undefined,
  ].filter(Boolean);
  const asNeeded =
    check.asNeeded.length > 0
      ? ` As the product needs: ${check.asNeeded.join(', ')}.`
      : '';
  return [
    `The GPU Operator is installed by ${release.declaredBy} in \`${release.file}\`${facts.length > 0 ? `, ${facts.join(', ')}` : ''}; the bootstrap writes no GPU Operator release of its own and never edits this one.${asNeeded}`,
    ...check.findings,
  ];
}

/** The description's lines about the GPU Operator for `outcome`. */
export function gpuOperatorNotes(outcome: GpuOperatorOutcome): string[] {
  if (outcome.kind === 'bootstrap') return [];
  const notes: string[] = [];
  if (outcome.checks.length > 1) {
    notes.push(
      `${outcome.checks.length} GPU Operator releases were found for this cluster, where one operator runs: keep one.`,
    );
  }
  for (const check of outcome.checks) notes.push(...releaseNotes(check));
  if (outcome.managedFolder) {
    notes.push(
      `The bootstrap's own GPU Operator release in \`${outcome.managedFolder}/\` installs the operator a second time: remove that folder.`,
    );
  }
  return notes;
}
