import type { GpuPullRequestMergeability } from '@gpu-gitops/plugin-gpu-common';
import { Chip } from '@material-ui/core';

/** Whether the pull request merges into its base as it is. */
export function MergeabilityChip(props: {
  mergeable?: GpuPullRequestMergeability;
  baseBranch: string;
}) {
  const { mergeable, baseBranch } = props;
  if (!mergeable) return null;
  return mergeable.clean ? (
    <Chip size="small" label={`merges into ${baseBranch}`} />
  ) : (
    <Chip
      size="small"
      color="secondary"
      label={`conflicts: ${mergeable.conflicts.join(', ')}`}
    />
  );
}
