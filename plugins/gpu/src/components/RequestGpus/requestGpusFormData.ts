import {
  parseEntityRef,
  stringifyEntityRef,
  type Entity,
} from '@backstage/catalog-model';
import {
  entityWorkload,
  type RepositoryWorkload,
} from '@gpu-gitops/plugin-gpu-common';

/** The workload an entity stands for: its kubernetes-id (else its name) and pinned namespace (gpu-common `entityWorkload`). */
export function workloadOf(entity: Entity): {
  name: string;
  namespace?: string;
} {
  const { kubernetesId, namespace } = entityWorkload(entity);
  return { name: kubernetesId, ...(namespace ? { namespace } : {}) };
}

/**
 * What the gpu-workload template's form starts with for this component
 * (the scaffolder reads it from the `formData` query parameter): its
 * workload name and namespace, its owner as an entity ref (the OwnerPicker's
 * value), and — when the GitOps repository already runs a workload of that
 * name — that workload, so the request gives GPUs to it instead of creating
 * a second one. Field names are the template's (templates/gpu-workload).
 */
export function requestGpusFormData(
  entity: Entity,
  existing: RepositoryWorkload[],
): Record<string, string> {
  const workload = workloadOf(entity);
  const found = existing.find(
    w =>
      w.name === workload.name &&
      (!workload.namespace || w.namespace === workload.namespace),
  );
  const namespace = workload.namespace ?? found?.namespace;
  const owner = entity.spec?.owner;
  const data: Record<string, string> = { name: workload.name };
  if (namespace) data.namespace = namespace;
  if (typeof owner === 'string' && owner !== '') {
    data.owner = stringifyEntityRef(
      parseEntityRef(owner, {
        defaultKind: 'group',
        defaultNamespace: entity.metadata.namespace ?? 'default',
      }),
    );
  }
  if (found) {
    data.workloadType = 'existing';
    data.existingKind = found.kind;
    data.existingName = found.name;
  } else {
    data.workloadType = 'new';
  }
  return data;
}

/** The template's URL with the form prefilled (`?formData=<JSON>`, @backstage/plugin-scaffolder-react's useFormDataFromQuery). */
export function requestGpusUrl(
  templatePath: string,
  formData: Record<string, unknown>,
): string {
  return `${templatePath}?formData=${encodeURIComponent(JSON.stringify(formData))}`;
}
