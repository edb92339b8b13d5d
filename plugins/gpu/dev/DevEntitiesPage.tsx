import { parseEntityRef, type Entity } from '@backstage/catalog-model';
import { Content, Header, Page } from '@backstage/core-components';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { Box, Typography } from '@material-ui/core';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { GpuAllocationCard } from '../src/components/GpuAllocationCard';
import { GpuPoolsContent } from '../src/components/GpuPoolsContent';
import { GpuReleasePreview } from '../src/scaffolder/GpuReleasePreview';
import { GpuRequestPicker } from '../src/scaffolder/GpuRequestPicker';
import { GpuWorkloadContainerPicker } from '../src/scaffolder/GpuWorkloadContainerPicker';
import type { GpuRequestPickerValue } from '../src/scaffolder/previewRequest';

/** A stand-in for a catalog entity: the card only needs its ref. */
function entityFor(ref: string): Entity {
  const { kind, namespace, name } = parseEntityRef(ref, {
    defaultKind: 'component',
    defaultNamespace: 'default',
  });
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind,
    metadata: { name, namespace },
  };
}

/**
 * The dev app's page (no catalog needed): `/gpu-dev?entity=component:default/a&entity=...`
 * shows the allocation card of each entity; `&view=tab` shows the GPU tab of
 * the first one instead; `?view=picker` shows the scaffolder field alone;
 * `?view=containers&namespace=ml&kind=Deployment&name=recommender` the
 * container picker of that existing workload, with the GPU picker's preview;
 * `?view=release&namespace=ml&name=chat` the Release form's preview of that request.
 */
export function DevEntitiesPage() {
  const params = new URLSearchParams(useLocation().search);
  const refs = params.getAll('entity');
  const entities = (refs.length > 0 ? refs : ['component:default/example']).map(
    entityFor,
  );
  const view = params.get('view') ?? 'cards';
  return (
    <Page themeId="tool">
      <Header title="GPU plugin" subtitle="dev app" />
      <Content>
        {view === 'picker' && <PickerAlone />}
        {view === 'containers' && <ContainerPickerAlone params={params} />}
        {view === 'release' && <ReleasePreviewAlone params={params} />}
        {view === 'tab' && (
          <EntityProvider entity={entities[0]}>
            <GpuPoolsContent />
          </EntityProvider>
        )}
        {view === 'cards' &&
          entities.map(entity => (
            <Box key={entity.metadata.name} mb={3}>
              <Typography variant="h6">{entity.metadata.name}</Typography>
              <EntityProvider entity={entity}>
                <GpuAllocationCard />
              </EntityProvider>
            </Box>
          ))}
      </Content>
    </Page>
  );
}

/** The GpuRequestPicker outside a template, holding its value like the form does. */
function PickerAlone() {
  const [value, setValue] = useState<GpuRequestPickerValue | undefined>();
  const props: any = {
    formData: value,
    onChange: setValue,
    uiSchema: {},
    schema: { title: 'GPU', type: 'object' },
    formContext: { formData: { name: 'dev-preview', namespace: 'ml' } },
    rawErrors: [],
    idSchema: { $id: 'root_gpu' },
    name: 'gpu',
    disabled: false,
    readonly: false,
  };
  return <GpuRequestPicker {...props} />;
}

/**
 * The GpuWorkloadContainerPicker for the workload the URL names, and the
 * GpuRequestPicker beside it previewing the request for that workload (as
 * the gpu-workload template's Workload and GPU steps do).
 */
function ContainerPickerAlone(props: { params: URLSearchParams }) {
  const { params } = props;
  const [container, setContainer] = useState<string | undefined>();
  const [gpu, setGpu] = useState<GpuRequestPickerValue | undefined>();
  const formData = {
    name: params.get('name') ?? 'recommender',
    namespace: params.get('namespace') ?? 'ml',
    workloadType: 'existing',
    existingKind: params.get('kind') ?? 'Deployment',
    existingName: params.get('name') ?? 'recommender',
    existingContainer: container,
  };
  const common = {
    rawErrors: [],
    formContext: { formData },
    disabled: false,
    readonly: false,
  };
  const containerProps: any = {
    ...common,
    formData: container,
    onChange: setContainer,
    uiSchema: {},
    schema: { title: 'Container', type: 'string' },
    idSchema: { $id: 'root_existingContainer' },
    name: 'existingContainer',
  };
  const gpuProps: any = {
    ...common,
    formData: gpu,
    onChange: setGpu,
    uiSchema: {},
    schema: { title: 'GPU', type: 'object' },
    idSchema: { $id: 'root_gpu' },
    name: 'gpu',
  };
  return (
    <>
      <GpuWorkloadContainerPicker {...containerProps} />
      <GpuRequestPicker {...gpuProps} />
    </>
  );
}

/** The Release template's preview field for the request the URL names. */
function ReleasePreviewAlone(props: { params: URLSearchParams }) {
  const fieldProps: any = {
    formData: undefined,
    onChange: () => {},
    uiSchema: {},
    schema: {
      title: 'What the release deletes and what stays',
      type: 'string',
    },
    formContext: {
      formData: {
        namespace: props.params.get('namespace') ?? 'ml',
        name: props.params.get('name') ?? 'chat',
      },
    },
    rawErrors: [],
    idSchema: { $id: 'root_preview' },
    name: 'preview',
    disabled: false,
    readonly: false,
  };
  return <GpuReleasePreview {...fieldProps} />;
}
