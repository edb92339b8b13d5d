import { Link } from '@backstage/core-components';
import type {
  GpuAllocation,
  RightSizeSuggestion,
} from '@gpu-gitops/plugin-gpu-common';
import { Typography } from '@material-ui/core';
import { changeGpusFormData } from '../RequestGpus/changeGpusFormData';
import { requestGpusUrl } from '../RequestGpus/requestGpusFormData';
import { formatGiB, formatUsd } from '../format/format';
import { GPU_TEMPLATE_PATH } from './templatePaths';

/**
 * The planner's cheaper (or roomier) fit for what the request really used,
 * with "Change GPUs" opening the form filled in with it.
 */
export function RightSizeLink(props: {
  allocation: GpuAllocation;
  suggestion: RightSizeSuggestion;
}) {
  const { allocation: a, suggestion } = props;
  const form = changeGpusFormData({
    ...a,
    requestSpec: suggestion.requestSpec,
  });
  let detail = '';
  if (suggestion.migProfile) detail = ` ${suggestion.migProfile}`;
  else if (suggestion.slicesPerGpu) {
    detail = ` ${suggestion.slicesPerGpu} per GPU`;
  }
  const money =
    suggestion.savedUsdPerMonth > 0
      ? `saves ${formatUsd(suggestion.savedUsdPerMonth)}/month`
      : `${formatUsd(-suggestion.savedUsdPerMonth)}/month more`;
  return (
    <Typography
      variant="caption"
      display="block"
      data-testid="gpu-allocation-right-size"
      title={suggestion.reason}
    >
      Right-size: {suggestion.sharingMode}
      {detail}, {formatGiB(suggestion.vramMiBPerReplica)} per replica on{' '}
      {suggestion.pool} — {money}
      {form && (
        <>
          {' · '}
          <Link to={requestGpusUrl(GPU_TEMPLATE_PATH, form)}>Change GPUs</Link>
        </>
      )}
    </Typography>
  );
}
