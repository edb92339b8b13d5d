import {
  infrastructureSettingsOf,
  type ClusterApiSettings,
} from '../../cluster/clusterApi';
import type { ClusterProfile } from '../../cluster/types';
import type { Plan } from '../../planner/types';
import type { KubernetesObject } from '../types';
import { CLUSTER_API } from './clusterApiGroups';
import { catalogMachineLabels, poolTemplate } from './poolTemplate';

/**
 * The bare-metal host of a pool's nodes (CAPM3 v1.13.2
 * `Metal3MachineTemplate` v1beta2): CAPM3 claims an available BareMetalHost
 * whose labels match `hostSelector` (metal3-io/cluster-api-provider-metal3
 * v1.13.2 `docs/api.md`, "hostSelector"), so the pool's nodes are hosts of
 * the class the plan priced them on: the profile's host class label set to
 * the catalog `metal3` machine's name. The profile gives the image Ironic
 * writes (CAPM3 requires an image or a custom deploy), and optionally the
 * Metal3DataTemplate and the cleaning mode.
 */
export function buildMetal3MachineTemplate(
  plan: Plan,
  cluster: ClusterProfile,
  settings: ClusterApiSettings,
): KubernetesObject {
  const metal3 = infrastructureSettingsOf(settings, 'metal3');
  const spec: Record<string, unknown> = {
    hostSelector: {
      matchLabels: { [metal3.hostClassLabel]: plan.nodes.instanceType },
    },
    image: { ...metal3.image },
  };
  if (metal3.dataTemplateName) {
    spec.dataTemplate = { name: metal3.dataTemplateName };
  }
  if (metal3.automatedCleaningMode) {
    spec.automatedCleaningMode = metal3.automatedCleaningMode;
  }
  return poolTemplate(
    CLUSTER_API.metal3MachineTemplate,
    plan,
    cluster,
    settings,
    {
      template: {
        metadata: { labels: catalogMachineLabels(plan, cluster) },
        spec,
      },
    },
  );
}
