import { render, screen } from '@testing-library/react';
import { StepRefusalList, type StepRefusal } from './StepRefusalList';

// The GPU step of the gpu-workload template, as the form gets it.
const schema = {
  type: 'object',
  properties: {
    gpu: {
      title: 'GPU request',
      type: 'object',
      properties: {
        replicas: { title: 'Replicas', type: 'integer' },
        vramGiB: { title: 'GPU memory per replica (GiB)', type: 'number' },
      },
    },
    capacityTypes: {
      title: 'Capacity types',
      type: 'array',
      items: { title: 'Capacity type', type: 'string' },
    },
  },
};

const blankReplicas: StepRefusal = {
  property: '.gpu.replicas',
  message: 'must be a whole number from 1 to 1000',
  stack: '.gpu.replicas must be a whole number from 1 to 1000',
};
const overQuota: StepRefusal = {
  property: '.gpu',
  message: 'Replicas: GPU quota exceeded',
  stack: '.gpu Replicas: GPU quota exceeded',
};

const gpu = (replicas: number | null) => ({
  gpu: { replicas, vramGiB: 8 },
});

function listItems() {
  return screen.queryAllByRole('listitem').map(item => item.textContent);
}

describe('StepRefusalList', () => {
  it("names a nested box by its schema title, the form's label", () => {
    render(
      <StepRefusalList
        errors={[
          blankReplicas,
          {
            property: '.gpu.vramGiB',
            message: 'must be more than 0',
            stack: '.gpu.vramGiB must be more than 0',
          },
          overQuota,
        ]}
        schema={schema}
        formContext={{ formData: gpu(null) }}
      />,
    );
    expect(listItems()).toEqual([
      "'Replicas' must be a whole number from 1 to 1000",
      "'GPU memory per replica (GiB)' must be more than 0",
      "'GPU request' Replicas: GPU quota exceeded",
    ]);
  });

  it("prefers the uiSchema's ui:title, reads array items, and says the path when nothing titles it", () => {
    render(
      <StepRefusalList
        errors={[
          { property: '.gpu.replicas', message: 'is required', stack: '' },
          { property: '.capacityTypes.0', message: 'is unknown', stack: '' },
          { property: '.other.box', message: 'is wrong', stack: '' },
          { message: 'the step is refused', stack: 'the step is refused' },
        ]}
        schema={schema}
        uiSchema={{ gpu: { replicas: { 'ui:title': 'Pods' } } }}
        formContext={{ formData: {} }}
      />,
    );
    expect(listItems()).toEqual([
      "'Pods' is required",
      "'Capacity type' is unknown",
      "'other.box' is wrong",
      'the step is refused',
    ]);
  });

  it('drops a refusal once the value it refused changes, and lists it again when that value is back', () => {
    const { rerender } = render(
      <StepRefusalList
        errors={[blankReplicas, overQuota]}
        schema={schema}
        formContext={{ formData: gpu(null) }}
      />,
    );
    expect(listItems()).toHaveLength(2);

    // The same (stale) errors, as rjsf keeps them, with a changed value.
    rerender(
      <StepRefusalList
        errors={[blankReplicas, overQuota]}
        schema={schema}
        formContext={{ formData: gpu(7) }}
      />,
    );
    expect(listItems()).toEqual([]);

    rerender(
      <StepRefusalList
        errors={[blankReplicas, overQuota]}
        schema={schema}
        formContext={{ formData: gpu(null) }}
      />,
    );
    expect(listItems()).toHaveLength(2);
  });

  it('judges the next Review on its own value: a refusal that left the errors is forgotten', () => {
    const { rerender } = render(
      <StepRefusalList
        errors={[overQuota]}
        schema={schema}
        formContext={{ formData: gpu(9) }}
      />,
    );
    // Review pressed again: the Stepper clears its errors, then refuses 10.
    rerender(
      <StepRefusalList
        errors={[]}
        schema={schema}
        formContext={{ formData: gpu(10) }}
      />,
    );
    rerender(
      <StepRefusalList
        errors={[overQuota]}
        schema={schema}
        formContext={{ formData: gpu(10) }}
      />,
    );
    expect(listItems()).toEqual(["'GPU request' Replicas: GPU quota exceeded"]);
  });

  it('drops a schema refusal once rjsf clears it from its path, whatever the list still holds', () => {
    const held = { gpu: { replicas: { __errors: [blankReplicas.message] } } };
    const { rerender } = render(
      <StepRefusalList
        errors={[blankReplicas]}
        errorSchema={held}
        schema={schema}
        formContext={{ formData: gpu(null) }}
      />,
    );
    expect(listItems()).toEqual([
      "'Replicas' must be a whole number from 1 to 1000",
    ]);
    // A change: rjsf empties the field's path but keeps its error list.
    rerender(
      <StepRefusalList
        errors={[blankReplicas]}
        errorSchema={{}}
        schema={schema}
        formContext={{ formData: gpu(null) }}
      />,
    );
    expect(listItems()).toEqual([]);
  });
});
