import { MenuItem, TextField } from '@material-ui/core';
import type { GpuModelChoice } from '@gpu-gitops/plugin-gpu-common';
import { Choice } from './Choice';

const AUTO_LABEL = 'Automatic — the cheapest model that fits';

/**
 * The GPU model select: `auto` first, then the models the cluster offers,
 * each one the cluster or the owner's policy refuses disabled with its reason.
 */
export function ModelSelect(props: {
  label: string | undefined;
  value: string;
  models: Array<Pick<GpuModelChoice, 'id' | 'label'>>;
  /** Why a model cannot be chosen, or undefined when it can. */
  reason: (modelId: string) => string | undefined;
  disabled: boolean;
  onChange: (model: string) => void;
}) {
  const { models, reason } = props;
  return (
    <TextField
      select
      id="gpu-model"
      label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={e => props.onChange(e.target.value as string)}
      SelectProps={{
        renderValue: v =>
          v === 'auto'
            ? AUTO_LABEL
            : (models.find(m => m.id === v)?.label ?? String(v)),
      }}
    >
      <MenuItem value="auto">
        <Choice label={AUTO_LABEL} />
      </MenuItem>
      {models.map(m => (
        <MenuItem key={m.id} value={m.id} disabled={!!reason(m.id)}>
          <Choice label={m.label} reason={reason(m.id)} />
        </MenuItem>
      ))}
    </TextField>
  );
}
