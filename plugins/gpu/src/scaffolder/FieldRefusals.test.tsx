import { render, screen } from '@testing-library/react';
import { FieldRefusals, type FieldRefusalsProps } from './FieldRefusals';

// The GPU step of the gpu-workload template, as the form gets it.
const rootSchema = {
  type: 'object',
  properties: {
    gpu: {
      type: 'object',
      properties: { replicas: { type: 'integer' } },
    },
    model_name: { type: 'string' },
  },
};

const overQuota = 'Replicas: GPU quota exceeded';

/** The form's own template for a field's errors, as rjsf's theme gives it (`@rjsf/material-ui` 5.24 lists them). */
function ThemeFieldErrors(props: { errors?: unknown[] }) {
  return (
    <ul aria-label="errors under the field">
      {(props.errors ?? []).map((error, i) => (
        <li key={i}>{String(error)}</li>
      ))}
    </ul>
  );
}

/** The props rjsf gives a field's error template (`@rjsf/core` 5.24.13 SchemaField), the form's values in its context as the Stepper puts them. */
function propsFor(
  id: string,
  errors: string[],
  formData: unknown,
): FieldRefusalsProps {
  return {
    errors,
    idSchema: { $id: id },
    registry: {
      formContext: { formData },
      rootSchema,
      templates: { FieldErrorTemplate: ThemeFieldErrors },
    },
  };
}

const shown = () =>
  screen.queryAllByRole('listitem').map(item => item.textContent);

describe('FieldRefusals', () => {
  it("shows a field's refusals with the theme's template while its value stands", () => {
    render(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], { gpu: { replicas: 9 } })}
      />,
    );
    expect(shown()).toEqual([overQuota]);
  });

  it('drops a refusal kept from the last Review once the value it refused changes, and shows it again when that value is back', () => {
    const { rerender } = render(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], { gpu: { replicas: 9 } })}
      />,
    );
    // The same (stale) errors, as the Stepper keeps them, with a changed value.
    rerender(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], { gpu: { replicas: 7 } })}
      />,
    );
    expect(shown()).toEqual([]);
    rerender(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], { gpu: { replicas: 9 } })}
      />,
    );
    expect(shown()).toEqual([overQuota]);
  });

  it('keeps a refusal while only another field changes', () => {
    const { rerender } = render(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], {
          gpu: { replicas: 9 },
          model_name: 'a',
        })}
      />,
    );
    rerender(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], {
          gpu: { replicas: 9 },
          model_name: 'b',
        })}
      />,
    );
    expect(shown()).toEqual([overQuota]);
  });

  it('finds a field whose name holds the id separator, and one not filled in yet', () => {
    const { rerender } = render(
      <FieldRefusals {...propsFor('root_model_name', ['is required'], {})} />,
    );
    expect(shown()).toEqual(['is required']);
    rerender(
      <FieldRefusals
        {...propsFor('root_model_name', ['is required'], { model_name: 'x' })}
      />,
    );
    expect(shown()).toEqual([]);
  });

  it('judges the next Review on its own value: a refusal that left the errors is forgotten', () => {
    const { rerender } = render(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], { gpu: { replicas: 9 } })}
      />,
    );
    // Review pressed again: the Stepper clears its errors, then refuses 10.
    rerender(
      <FieldRefusals {...propsFor('root_gpu', [], { gpu: { replicas: 10 } })} />,
    );
    rerender(
      <FieldRefusals
        {...propsFor('root_gpu', [overQuota], { gpu: { replicas: 10 } })}
      />,
    );
    expect(shown()).toEqual([overQuota]);
  });
});
