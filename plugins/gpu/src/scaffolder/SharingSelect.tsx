import { MenuItem, TextField } from '@material-ui/core';
import { SHARING_MODES, type SharingMode } from '@gpu-gitops/plugin-gpu-common';
import { Choice } from './Choice';

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
    <TextField
      select
      id="gpu-sharing"
      label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={e => props.onChange(e.target.value as SharingMode)}
      SelectProps={{
        renderValue: v => SHARING_LABELS[v as SharingMode] ?? String(v),
      }}
    >
      {SHARING_MODES.map(mode => (
        <MenuItem key={mode} value={mode} disabled={!!props.reason(mode)}>
          <Choice label={SHARING_LABELS[mode]} reason={props.reason(mode)} />
        </MenuItem>
      ))}
    </TextField>
  );
}
