import { SHARING_MODES, type SharingMode } from '@gpu-gitops/plugin-gpu-common';
import { ReasonedSelect } from './ReasonedSelect';

const SHARING_LABELS: Record<SharingMode, string> = {
  exclusive: 'Exclusive — whole GPUs per replica',
  'time-slicing': 'Time-slicing — replicas take turns, memory NOT isolated',
  mps: 'MPS — concurrent clients with a pinned memory limit each',
  mig: 'MIG — hardware-isolated GPU instances',
  dra: 'DRA — resource claims (static pools)',
};

/**
 * The sharing-mode select, each mode the cluster or the chosen model cannot
 * run disabled with its reason.
 */
export function SharingSelect(props: {
  label: string | undefined;
  value: SharingMode;
  /** Why a mode cannot be chosen, or undefined when it can. */
  reason: (mode: SharingMode) => string | undefined;
  disabled: boolean;
  onChange: (mode: SharingMode) => void;
}) {
  return (
    <ReasonedSelect
      id="gpu-sharing"
      label={props.label}
      value={props.value}
      choices={SHARING_MODES.map(mode => ({
        value: mode,
        label: SHARING_LABELS[mode],
      }))}
      reason={props.reason}
      disabled={props.disabled}
      onChange={props.onChange}
    />
  );
}
