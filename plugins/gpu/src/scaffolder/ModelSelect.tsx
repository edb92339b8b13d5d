import type { GpuModelChoice } from '@gpu-gitops/plugin-gpu-common';
import { ReasonedSelect } from './ReasonedSelect';

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
    <ReasonedSelect
      id="gpu-model"
      label={props.label}
      value={props.value}
      choices={[
        { value: 'auto', label: AUTO_LABEL },
        ...models.map(m => ({ value: m.id, label: m.label })),
      ]}
      // `auto` is always offered: the planner picks among what is allowed.
      reason={id => (id === 'auto' ? undefined : reason(id))}
      disabled={props.disabled}
      onChange={props.onChange}
    />
  );
}
