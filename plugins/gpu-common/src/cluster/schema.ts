import { z } from 'zod';
import { GpuInputError } from '../errors';
import {
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
} from '../request/formats';
import { zodIssuesToInputIssues } from '../request/zodIssues';
import { clusterApiSchema } from './clusterApi';
import { nfdTaintKeyProblem, staticNodesSchema } from './staticNodes';
import { defaultClusterProfile } from './defaults';
import {
  karpenterHasNodeOverlayGate,
  parseKarpenterVersion,
} from './karpenterVersion';
import { draSharingProblem } from './draSharing';
import { draSettingsSchema, kubernetesVersionSchema } from './draSettings';
import { binPackingVersionProblem } from '../scheduling/binPackingScheduler';
import { isSupportedKueueVersion } from '../kueue/kueueVersion';
import { karpenterMachinesOf } from '../providers/karpenterMachines';
import {
  AUTO_MODE_DEFAULT_NODE_CLASS,
  EKS_AUTO_MODE,
  autoModeProfileProblems,
} from './eksAutoMode';
import { gkeProfileProblems } from './gkeProfile';
import type { ClusterProfile, ClusterProvider } from './types';

const dns1123Label = z.string().refine(isDns1123Label, {
  message: 'must be a DNS-1123 label (lowercase letters, digits, "-", <= 63)',
  params: { rule: 'dns1123-label' },
});

const dns1123Subdomain = z.string().refine(isDns1123Subdomain, {
  message: 'must be a DNS-1123 subdomain',
  params: { rule: 'dns1123-subdomain' },
});

/**
 * Label domains Karpenter restricts (CEL rules of aws/karpenter-provider-aws
 * v1.14.1 `pkg/apis/crds/karpenter.sh_nodepools.yaml`; `kubernetes.io` and
 * `k8s.io` up to v1.8) or that kubelet strips (`RejectForbiddenLabels` in
 * `pkg/providers/amifamily/resolver.go`).
 */
const RESTRICTED_DOMAIN_SUFFIXES = [
  'karpenter.sh',
  'karpenter.k8s.aws',
  'kubernetes.io',
  'k8s.io',
];

function isUsableLabelDomain(domain: string): boolean {
  return (
    isDns1123Subdomain(domain) &&
    !RESTRICTED_DOMAIN_SUFFIXES.some(
      suffix => domain === suffix || domain.endsWith(`.${suffix}`),
    )
  );
}

const configMapRef = z
  .strictObject({ name: dns1123Subdomain, namespace: dns1123Label })
  .partial();

/** The profile's fields, each checked alone; `clusterProfileSchema` checks them together. */
const profileFields = z
  .strictObject({
    name: dns1123Label,
    provider: z.enum([
      'aws-karpenter',
      'eks-auto-mode',
      'azure-karpenter',
      'static',
      'cluster-api',
      'gke',
    ]),
    region: z.string().refine(isDns1123Label, {
      message:
        'must be a region name such as "eu-west-1" or "westeurope" (lowercase letters, digits, "-")',
      params: { rule: 'region' },
    }),
    karpenterVersion: z
      .string()
      .refine(v => parseKarpenterVersion(v) !== undefined, {
        message: 'must be a version such as "1.14.1"',
        params: { rule: 'version' },
      }),
    kubernetesVersion: kubernetesVersionSchema,
    dra: draSettingsSchema,
    nodeClass: z
      .strictObject({
        group: dns1123Subdomain,
        kind: z.string().regex(/^[A-Z][A-Za-z0-9]{0,62}$/),
        name: dns1123Subdomain,
      })
      .partial(),
    generateNodeClass: z.boolean(),
    devicePluginConfigMap: configMapRef,
    migPartedConfigMap: configMapRef,
    migStrategy: z.enum(['single', 'mixed']),
    nodeOverlay: z.boolean(),
    gpuTaintKey: z.string().refine(isQualifiedName, {
      message: 'must be a Kubernetes taint key such as "nvidia.com/gpu"',
      params: { rule: 'taint-key' },
    }),
    labelDomain: z.string().refine(isUsableLabelDomain, {
      message:
        'must be a DNS subdomain outside the Kubernetes and Karpenter domains (karpenter.sh, karpenter.k8s.aws, kubernetes.io, k8s.io)',
      params: { rule: 'label-domain' },
    }),
    consolidateAfter: z.string().regex(/^(([0-9]+(s|m|h))+|Never)$/, {
      message: 'must be a duration such as "5m", "1h30m" or "Never"',
    }),
    systemNamespaces: z.array(dns1123Label).max(100),
    clusterApi: clusterApiSchema,
    staticNodes: staticNodesSchema,
    kueue: z.boolean(),
    kueueVersion: z.string().refine(isSupportedKueueVersion, {
      message:
        'must be a Kueue release of v0.19 or later, as its chart names it, such as "0.19.2" (the product writes kueue.x-k8s.io/v1beta2 and the Configuration of v0.19)',
      params: { rule: 'version' },
    }),
    binPacking: z.boolean(),
  })
  .partial();

/** A profile's settings as given, before the defaults. */
type ProfileFields = z.infer<typeof profileFields>;

/**
 * A partial, strict override of the default cluster profile (a file or the
 * `gpu.clusters` app-config entry). Unknown keys are errors.
 *
 * @public
 */
export const clusterProfileSchema = profileFields.superRefine(
  (profile, ctx) => {
    for (const problem of [
      ...providerSettingProblems(profile),
      ...versionProblems(profile),
    ]) {
      ctx.addIssue({
        code: 'custom',
        path: problem.path,
        message: problem.message,
        params: { rule: problem.rule },
      });
    }
  },
);

/** A setting the profile's other settings contradict: its field, why, and the rule. */
interface ProfileProblem {
  path: (string | number)[];
  message: string;
  rule: string;
}

/** Settings that belong to another provider, or that the provider does not let the platform set. */
function providerSettingProblems(profile: ProfileFields): ProfileProblem[] {
  const provider = profile.provider ?? defaultClusterProfile.provider;
  const problems: ProfileProblem[] = [];
  // The clusterApi settings belong to provider cluster-api, which needs them.
  if (provider === 'cluster-api' && !profile.clusterApi) {
    problems.push({
      path: ['clusterApi'],
      message:
        'is required for provider "cluster-api": clusterName, namespace, infrastructure, kubernetesVersion, autoscaler and the settings of the infrastructure (openStack, vSphere or metal3)',
      rule: 'cluster-api-settings',
    });
  }
  if (profile.clusterApi && provider !== 'cluster-api') {
    problems.push({
      path: ['clusterApi'],
      message: `applies only to provider "cluster-api", not "${provider}"`,
      rule: 'cluster-api-settings',
    });
  }
  if (profile.staticNodes && provider !== 'static') {
    problems.push({
      path: ['staticNodes'],
      message: `applies only to provider "static", not "${provider}"`,
      rule: 'static-nodes-settings',
    });
  }
  return [
    ...problems,
    ...autoModeProfileProblems(profile),
    ...gkeProfileProblems(profile),
  ];
}

/** Settings the cluster's Kubernetes, Karpenter or NFD cannot run. */
function versionProblems(profile: ProfileFields): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const schedulerProblem = profile.binPacking
    ? binPackingVersionProblem(profile.kubernetesVersion)
    : undefined;
  if (schedulerProblem) {
    problems.push({
      path: ['binPacking'],
      message: schedulerProblem,
      rule: 'bin-packing-kubernetes-version',
    });
  }
  const sharingProblem = draSharingProblem(profile);
  if (sharingProblem) {
    problems.push({
      path: ['dra', 'consumableShares'],
      message: sharingProblem,
      rule: 'dra-sharing-kubernetes-version',
    });
  }
  if (profile.nodeOverlay === true && !nodeOverlayAvailable(profile)) {
    problems.push({
      path: ['nodeOverlay'],
      message: `cannot be true on Karpenter ${profile.karpenterVersion}: the NodeOverlay API (karpenter.sh/v1alpha1) and its feature gate arrived in Karpenter v1.7.0, so the cluster could not apply the NodeOverlays; upgrade Karpenter (profile karpenterVersion) or set nodeOverlay: false`,
      rule: 'node-overlay-karpenter-version',
    });
  }
  // The pool taint goes on the nodes through NFD, which drops what it denies.
  const taintProblem = profile.staticNodes
    ? nfdTaintKeyProblem(
        profile.gpuTaintKey ?? defaultClusterProfile.gpuTaintKey,
      )
    : undefined;
  if (taintProblem) {
    problems.push({
      path: ['gpuTaintKey'],
      message: `cannot be the taint of static pools: ${taintProblem}`,
      rule: 'nfd-taint-key',
    });
  }
  return problems;
}

/**
 * Whether the profile's Karpenter can run NodeOverlays: the API arrived with
 * its `NodeOverlay` feature gate in kubernetes-sigs/karpenter v1.7.0 (PR
 * #2404 "Add a feature flag for Node Overlay"; the providers took it with
 * core v1.7, e.g. Azure/karpenter-provider-azure PR #1238). A provider
 * without Karpenter never reads the field, so it is never refused there.
 */
function nodeOverlayAvailable(
  profile: Pick<ClusterProfileOverride, 'provider' | 'karpenterVersion'>,
): boolean {
  const provider = profile.provider ?? defaultClusterProfile.provider;
  if (!karpenterMachinesOf({ provider })) return true;
  return (
    karpenterHasNodeOverlayGate(
      profile.karpenterVersion ?? defaultClusterProfile.karpenterVersion,
    ) !== false
  );
}

/**
 * The node class a profile references unless it names another: the
 * provider's own kind (an Azure cluster's GPU pools reference an
 * AKSNodeClass), named as the default profile names it.
 */
function defaultNodeClass(provider: ClusterProvider | undefined) {
  const base = defaultClusterProfile.nodeClass;
  const machines = provider ? karpenterMachinesOf({ provider }) : undefined;
  // Auto Mode's GPU pools reference the NodeClass its built-in pools create.
  const name =
    provider === EKS_AUTO_MODE ? AUTO_MODE_DEFAULT_NODE_CLASS : base.name;
  return machines ? { ...machines.nodeClass, name } : { ...base };
}

/** @public */
export type ClusterProfileOverride = z.infer<typeof clusterProfileSchema>;

/**
 * The default profile with `override` applied (nested refs merged key by key).
 * Throws GpuInputError naming the field when the override is invalid.
 *
 * @public
 */
export function resolveClusterProfile(override?: unknown): ClusterProfile {
  const base = defaultClusterProfile;
  if (override === undefined || override === null) {
    return {
      ...base,
      systemNamespaces: [...base.systemNamespaces],
      nodeClass: { ...base.nodeClass },
      devicePluginConfigMap: { ...base.devicePluginConfigMap },
      migPartedConfigMap: { ...base.migPartedConfigMap },
    };
  }
  const result = clusterProfileSchema.safeParse(override, {
    reportInput: true,
  });
  if (!result.success) {
    throw new GpuInputError(zodIssuesToInputIssues(result.error.issues));
  }
  const o = result.data;
  return {
    ...base,
    ...(o.provider === 'gke' ? { migStrategy: 'single' as const } : {}),
    ...o,
    // A platform engineer who states an older Karpenter and says nothing of
    // overlays expects none written (the cluster could not apply them); one
    // who asks for them explicitly is refused above instead of surprised.
    // No NodeOverlay on Auto Mode (cluster/eksAutoMode.ts).
    nodeOverlay:
      o.nodeOverlay ??
      (o.provider !== EKS_AUTO_MODE &&
        base.nodeOverlay &&
        nodeOverlayAvailable(o)),
    systemNamespaces: [...(o.systemNamespaces ?? base.systemNamespaces)],
    nodeClass: { ...defaultNodeClass(o.provider), ...o.nodeClass },
    devicePluginConfigMap: {
      ...base.devicePluginConfigMap,
      ...o.devicePluginConfigMap,
    },
    migPartedConfigMap: {
      ...base.migPartedConfigMap,
      ...o.migPartedConfigMap,
    },
  };
}
