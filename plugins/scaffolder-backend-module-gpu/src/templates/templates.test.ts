import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  builtinCatalog,
  parseGpuRequest,
  SHARING_MODES,
  WORKLOAD_KINDS,
  type GpuInputError,
} from '@gpu-gitops/plugin-gpu-common';
import { createGpuGitopsBootstrapAction } from '../actions/gpuGitopsBootstrap';
import { createGpuGitopsImportAction } from '../actions/gpuGitopsImport';
import { createGpuGitopsPullRequestAction } from '../actions/gpuGitopsPullRequest';
import { createGpuGitopsRenderAction } from '../actions/gpuGitopsRender';
import { createGpuPlanAction } from '../actions/gpuPlan';
import { testServices } from '../__testUtils__/testServices';
import { gpuModelChoices } from '@gpu-gitops/plugin-gpu-common';
import { syncTemplateModels } from './syncTemplateModels';
import {
  EXISTING_WORKLOAD_DEFAULTS,
  GPU_WORKLOAD_DEFAULTS,
  gpuWorkloadValues,
} from '@gpu-gitops/plugin-gpu-node';

const TEMPLATES_DIR = path.resolve(__dirname, '../../templates');

async function readTemplate(name: string) {
  return parse(
    await fs.readFile(path.join(TEMPLATES_DIR, name, 'template.yaml'), 'utf8'),
  );
}

const services = testServices(undefined);
const actions = Object.fromEntries(
  [
    createGpuPlanAction(services),
    createGpuGitopsRenderAction(services),
    createGpuGitopsPullRequestAction(services),
    createGpuGitopsBootstrapAction(services),
    createGpuGitopsImportAction(services),
  ].map(a => [a.id, a]),
);

/** Every `gpu:*` step passes only inputs its action declares (additionalProperties is false). */
/** The Workload step's branch for `workloadType` = `value` (its `dependencies` oneOf entry). */
function workloadBranch(template: any, value: string) {
  const page = template.spec.parameters.find(
    (p: any) => p.properties?.workloadType,
  );
  return page.dependencies.workloadType.oneOf.find(
    (b: any) => b.properties.workloadType.const === value,
  );
}

function expectStepInputsDeclared(template: any) {
  for (const step of template.spec.steps) {
    const action = actions[step.action];
    if (!action) continue;
    const declared = Object.keys(
      (action.schema?.input as { properties: object }).properties,
    );
    expect({
      step: step.id,
      extra: Object.keys(step.input).filter(k => !declared.includes(k)),
    }).toEqual({
      step: step.id,
      extra: [],
    });
  }
}

describe('software templates', () => {
  it('gpu-workload offers exactly the catalog GPU models, labelled with memory and price', async () => {
    const template = await readTemplate('gpu-workload');
    const gpuPage = template.spec.parameters.find(
      (p: any) => p.properties?.gpu,
    );
    const gpu = gpuPage.properties.gpu;
    const model = gpu.properties.model;
    const choices = gpuModelChoices(builtinCatalog);
    expect(model.enum).toEqual(['auto', ...choices.map(c => c.id)]);
    expect(model.enumNames.slice(1)).toEqual(choices.map(c => c.label));
    expect(gpu.properties.sharing.enum).toEqual([...SHARING_MODES]);
  });

  it('gpu-workload asks for the GPU with the GpuRequestPicker field and its steps read the picked values', async () => {
    const template = await readTemplate('gpu-workload');
    const gpuPage = template.spec.parameters.find(
      (p: any) => p.properties?.gpu,
    );
    expect(gpuPage.required).toEqual(['gpu']);
    const gpu = gpuPage.properties.gpu;
    expect(gpu['ui:field']).toBe('GpuRequestPicker');
    expect(gpu.type).toBe('object');
    // The picker's value (cluster, model, sharing, replicas, vramGiB, gpusPerReplica),
    // validated by the backend against this schema.
    expect(gpu.required).toEqual(['model', 'sharing', 'replicas', 'vramGiB']);
    expect(Object.keys(gpu.properties)).toEqual([
      'cluster',
      'model',
      'sharing',
      'replicas',
      'vramGiB',
      'gpusPerReplica',
    ]);
    expect(gpu.default).toEqual({
      cluster: '',
      model: 'auto',
      sharing: 'exclusive',
      replicas: 1,
      vramGiB: 8,
      gpusPerReplica: 1,
    });
    for (const stepId of ['plan', 'pr']) {
      const step = template.spec.steps.find((s: any) => s.id === stepId);
      for (const key of Object.keys(gpu.properties)) {
        expect([stepId, key, step.input[key]]).toEqual([
          stepId,
          key,
          `\${{ parameters.gpu.${key} }}`,
        ]);
      }
    }
  });

  it("gpu-workload's defaults are GPU_WORKLOAD_DEFAULTS (what scripts get for fields they leave out)", async () => {
    const template = await readTemplate('gpu-workload');
    const defaults: Record<string, unknown> = {};
    for (const page of template.spec.parameters) {
      for (const [key, field] of Object.entries<any>(page.properties)) {
        if (key === 'gpu') Object.assign(defaults, field.default);
        else if (field.default !== undefined) defaults[key] = field.default;
      }
    }
    expect(defaults).toEqual(GPU_WORKLOAD_DEFAULTS);

    const existingDefaults: Record<string, unknown> = {};
    for (const [key, field] of Object.entries<any>(
      workloadBranch(template, 'existing').properties,
    )) {
      if (field.default !== undefined) existingDefaults[key] = field.default;
    }
    expect(existingDefaults).toEqual(EXISTING_WORKLOAD_DEFAULTS);
  });

  it('gpu-workload names an existing Deployment, StatefulSet, Job or CronJob and its GPU container (GpuWorkloadContainerPicker), and both steps get them', async () => {
    const template = await readTemplate('gpu-workload');
    const existing = workloadBranch(template, 'existing');
    expect(existing.required).toEqual(['existingName']);
    const { existingKind, existingName, existingContainer } =
      existing.properties;
    expect(existingKind.enum).toEqual([...WORKLOAD_KINDS]);
    expect(existingKind.enumNames).toHaveLength(WORKLOAD_KINDS.length);
    existingKind.enumNames.forEach((label: string, i: number) =>
      expect(label.startsWith(`${WORKLOAD_KINDS[i]} — `)).toBe(true),
    );
    expect(existingName.type).toBe('string');
    expect(existingContainer).toEqual(
      expect.objectContaining({
        type: 'string',
        'ui:field': 'GpuWorkloadContainerPicker',
      }),
    );
    for (const stepId of ['plan', 'pr']) {
      const step = template.spec.steps.find((s: any) => s.id === stepId);
      for (const key of ['existingKind', 'existingName', 'existingContainer']) {
        expect([stepId, key, step.input[key]]).toEqual([
          stepId,
          key,
          `\${{ parameters.${key} }}`,
        ]);
      }
    }
    // The Workload step comes before the GPU step, so the GPU picker's
    // preview knows the existing workload (its replicas now).
    const titles = template.spec.parameters.map((p: any) => p.title);
    expect(titles).toEqual(['Component', 'Workload', 'GPU']);
  });

  it('gpu-workload says what a bad name or namespace is in the request schema’s words, not with its pattern', async () => {
    const template = await readTemplate('gpu-workload');
    const component = template.spec.parameters[0].properties;
    let issues: Array<{ path: string; message: string }> = [];
    try {
      parseGpuRequest({
        kind: 'GpuRequest',
        metadata: { name: 'Bad_Name', namespace: 'ml' },
        spec: {
          owner: 'group:default/ml-platform',
          gpu: { model: 't4', sharing: 'exclusive', replicas: 1, vramGiB: 1 },
          workload: { image: 'ghcr.io/acme/x:1' },
        },
      });
    } catch (error) {
      issues = (error as GpuInputError).issues;
    }
    const words = issues.find(i => i.path === 'metadata.name')!.message;
    for (const field of [component.name, component.namespace]) {
      expect(field.errorMessage).toEqual({ pattern: words });
    }
    // Every box of the GPU picker has words for a blank or bad value.
    const gpu = template.spec.parameters[2].properties.gpu;
    expect(Object.keys(gpu.errorMessage.properties)).toEqual([
      'replicas',
      'vramGiB',
      'gpusPerReplica',
    ]);
  });

  it('gpuWorkloadValues adds the existing branch defaults only for an existing workload', () => {
    expect(
      gpuWorkloadValues({
        name: 'recommender',
        workloadType: 'existing',
        existingName: 'recommender',
      }),
    ).toEqual(
      expect.objectContaining({
        existingKind: 'Deployment',
        existingName: 'recommender',
        existingContainer: '',
      }),
    );
    expect(
      gpuWorkloadValues({
        workloadType: 'existing',
        existingKind: 'CronJob',
        existingName: 'embeddings-refresh',
        existingContainer: 'embed',
      }),
    ).toEqual(
      expect.objectContaining({
        existingKind: 'CronJob',
        existingContainer: 'embed',
      }),
    );
    expect(
      gpuWorkloadValues({ image: 'ghcr.io/org/app:1' }),
    ).not.toHaveProperty('existingKind');
  });

  it('gpu-workload looks the component up, plans, opens the PR and links the PR and the entity', async () => {
    const template = await readTemplate('gpu-workload');
    expect(template.apiVersion).toBe('scaffolder.backstage.io/v1beta3');
    expect(template.kind).toBe('Template');
    expect(template.spec.steps.map((s: any) => s.action)).toEqual([
      'catalog:fetch',
      'gpu:plan',
      'gpu:gitops:pull-request',
      'catalog:register',
    ]);
    expectStepInputsDeclared(template);
    const links = template.spec.output.links;
    expect(links[0].url).toBe('${{ steps.pr.output.pullRequestUrl }}');
    expect(links[1]).toMatchObject({
      if: '${{ steps.component.output.entity }}',
      entityRef: 'component:default/${{ parameters.name }}',
    });
    expect(links[2]).toMatchObject({
      entityRef: '${{ steps.register.output.entityRef }}',
    });
    expect(template.spec.output.text[0].content).toBe(
      '${{ steps.plan.output.summary }}',
    );
  });

  it('gpu-cluster-bootstrap runs gpu:gitops:bootstrap with declared inputs', async () => {
    const template = await readTemplate('gpu-cluster-bootstrap');
    expect(template.spec.steps.map((s: any) => s.action)).toEqual([
      'gpu:gitops:bootstrap',
    ]);
    expectStepInputsDeclared(template);
    // The cluster is chosen from the configured ones, with their providers.
    expect(template.spec.parameters[0].properties.cluster['ui:field']).toBe(
      'GpuClusterPicker',
    );
  });

  it('gpu-release runs gpu:gitops:release with declared inputs and links the pull request', async () => {
    const template = await readTemplate('gpu-release');
    expect(template.spec.steps.map((s: any) => s.action)).toEqual([
      'gpu:gitops:release',
    ]);
    expectStepInputsDeclared(template);
    expect(template.spec.parameters[0].required).toEqual(['name', 'namespace']);
    expect(template.spec.output.links[0].url).toBe(
      '${{ steps.release.output.pullRequestUrl }}',
    );
  });

  it('gpu-setup-import asks for the cluster as gpu-cluster-bootstrap does, runs gpu:gitops:import and shows the pull request and the report', async () => {
    const template = await readTemplate('gpu-setup-import');
    const bootstrap = await readTemplate('gpu-cluster-bootstrap');
    expect(template.spec.steps.map((s: any) => s.action)).toEqual([
      'gpu:gitops:import',
    ]);
    expectStepInputsDeclared(template);
    const [page] = template.spec.parameters;
    expect(page.properties.cluster).toEqual(
      bootstrap.spec.parameters[0].properties.cluster,
    );
    expect(page.required).toEqual(['owner']);
    expect(page.properties.owner['ui:field']).toBe('OwnerPicker');
    expect(template.spec.output.links[0].url).toBe(
      '${{ steps.import.output.pullRequestUrl }}',
    );
    expect(template.spec.output.text[0].content).toBe(
      '${{ steps.import.output.body }}',
    );
  });
});

describe('syncTemplateModels', () => {
  it('rewrites only the model choices, from the catalog given', () => {
    const text = [
      'spec:',
      '  parameters:',
      '    - title: GPU',
      '      properties:',
      '        # comment kept',
      '        model: { type: string, enum: [old], enumNames: [Old] }',
      '        replicas: { type: integer }',
      '',
    ].join('\n');
    const catalog = {
      models: [builtinCatalog.models[0]],
      instanceTypes: builtinCatalog.instanceTypes,
    };
    const synced = syncTemplateModels(text, catalog);
    expect(synced).toContain('# comment kept');
    const model = parse(synced).spec.parameters[0].properties.model;
    expect(model.enum).toEqual(['auto', builtinCatalog.models[0].id]);
    expect(model.enumNames[1]).toBe(gpuModelChoices(catalog)[0].label);
    expect(parse(synced).spec.parameters[0].properties.replicas).toEqual({
      type: 'integer',
    });
  });

  it('rewrites the model choices inside the GpuRequestPicker object', () => {
    const text = [
      'spec:',
      '  parameters:',
      '    - title: GPU',
      '      properties:',
      '        gpu:',
      '          ui:field: GpuRequestPicker',
      '          properties:',
      '            model: { type: string, enum: [old], enumNames: [Old] }',
      '',
    ].join('\n');
    const catalog = {
      models: [builtinCatalog.models[0]],
      instanceTypes: builtinCatalog.instanceTypes,
    };
    const gpu = parse(syncTemplateModels(text, catalog)).spec.parameters[0]
      .properties.gpu;
    expect(gpu['ui:field']).toBe('GpuRequestPicker');
    expect(gpu.properties.model.enum).toEqual([
      'auto',
      builtinCatalog.models[0].id,
    ]);
  });

  it('refuses a template without a model parameter', () => {
    expect(() =>
      syncTemplateModels('spec:\n  parameters: [{ properties: {} }]\n', {
        models: [],
        instanceTypes: [],
      }),
    ).toThrow('template has no `model` parameter');
  });
});
