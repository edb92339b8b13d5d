/**
 * TEST-ONLY: validates a legacy Karpenter object against the
 * `openAPIV3Schema` of its upstream CRD (vendored unchanged in
 * `../__fixtures__/crds/`, see its SOURCES.md), with gpu-common's CRD check:
 * CEL rules (`x-kubernetes-validations`) are not evaluated, so a test input
 * may still break one of them; the structural schema (fields, types, enums,
 * patterns) is checked.
 */
import path from 'node:path';
import { crdSchemaErrors } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';

const CRD_FILES: Record<string, string> = {
  'karpenter.sh/v1alpha5 Provisioner': 'v0.31.4/karpenter.sh_provisioners.yaml',
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate':
    'v0.31.4/karpenter.k8s.aws_awsnodetemplates.yaml',
  'karpenter.sh/v1beta1 NodePool': 'v0.37.7/karpenter.sh_nodepools.yaml',
  'karpenter.k8s.aws/v1beta1 EC2NodeClass':
    'v0.37.7/karpenter.k8s.aws_ec2nodeclasses.yaml',
};

/** Azure's provider v0.6.3: its v1beta1 NodePool and v1alpha2 AKSNodeClass. */
export const AZURE_V0_6_3_CRDS = {
  NodePool: 'azure-v0.6.3/karpenter.sh_nodepools.yaml',
  AKSNodeClass: 'azure-v0.6.3/karpenter.azure.com_aksnodeclasses.yaml',
} as const;

/**
 * The schema errors of an object on AKS today, against the CRDs of Azure's
 * provider v1.14.2 that gpu-common vendors (its `crds/SOURCES.md`).
 */
export function azureV1SchemaErrors(object: {
  apiVersion: string;
  kind: string;
}): string[] {
  const file =
    object.kind === 'AKSNodeClass'
      ? 'azure-v1.14.2_karpenter.azure.com_aksnodeclasses.yaml'
      : 'azure-v1.14.2_karpenter.sh_nodepools.yaml';
  return crdSchemaErrors(object, file);
}

/** The v1 NodePool of Karpenter v1.0.0, the first v1 (for the `v1.0.0` CRD's own check). */
export const V1_0_0_NODEPOOL_CRD = 'v1.0.0/karpenter.sh_nodepools.yaml';

const CRD_DIR = path.join(__dirname, '..', '__fixtures__', 'crds');

/**
 * The schema errors of a legacy object (empty when it conforms). `crdFile`
 * picks another vendored CRD than the default of its apiVersion/kind.
 */
export function legacySchemaErrors(
  object: { apiVersion: string; kind: string },
  crdFile?: string,
): string[] {
  const file = crdFile ?? CRD_FILES[`${object.apiVersion} ${object.kind}`];
  if (!file)
    throw new Error(`no legacy CRD for ${object.apiVersion} ${object.kind}`);
  return crdSchemaErrors(object, path.join(CRD_DIR, file));
}
