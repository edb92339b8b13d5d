/**
 * The rollout steps a reviewer ticks off after merge. MIG reconfiguration is
 * disruptive (the MIG manager needs the GPU idle), so its steps are explicit;
 * shared modes only need the device plugin to reload its config.
 */
import {
  WELL_KNOWN_KEYS,
  type HandWrittenConfigMapRef,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';

function handWrittenLabel(ref: HandWrittenConfigMapRef): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}

export function rolloutChecklist(
  plan: Plan,
  gitopsTool = 'Argo CD / Flux',
  poolLabel: string = WELL_KNOWN_KEYS.karpenterNodePool,
): string[] {
  // Sync first: a node label naming a config key that is not yet in the
  // ConfigMap makes the device plugin / MIG manager fail.
  const steps: string[] = [
    `Merge, then let ${gitopsTool} sync the cluster's GPU folder and \`apps/${plan.request.metadata.namespace}/${plan.request.metadata.name}\``,
  ];
  const pool = plan.pool.name;
  const sharing = plan.sharing;
  const selector = `${poolLabel}=${pool}`;
  // A reused pool whose nodes already run the planned config: nothing to redo.
  const keepsConfig =
    plan.pool.reused &&
    plan.pool.liveConfigName !== undefined &&
    plan.pool.liveConfigName ===
      (sharing.mode === 'mig'
        ? sharing.migConfigName
        : sharing.deviceConfigName);
  if (sharing.mode === 'mig' && sharing.migConfigName && keepsConfig) {
    steps.push(
      `The nodes of \`${pool}\` keep MIG config \`${sharing.migConfigName}\`: nothing to re-partition (new nodes get it from the NodePool template)`,
    );
  } else if (sharing.mode === 'mig' && sharing.migConfigName) {
    steps.push(
      `Existing nodes of \`${pool}\` whose layout changes: \`kubectl cordon -l ${selector}\``,
      `Drain them: \`kubectl drain <node> --ignore-daemonsets --delete-emptydir-data\``,
      `Label them: \`kubectl label node <node> nvidia.com/mig.config=${sharing.migConfigName} --overwrite\` (new nodes get it from the NodePool template)`,
      `Wait for \`nvidia.com/mig.config.state=success\`: \`kubectl get nodes -l ${selector} -L nvidia.com/mig.config.state\``,
      `Uncordon: \`kubectl uncordon -l ${selector}\``,
    );
  }
  if (
    (sharing.mode === 'time-slicing' || sharing.mode === 'mps') &&
    sharing.onOperatorDefault
  ) {
    steps.push(
      `The nodes of \`${pool}\` run the GPU Operator's default device-plugin config \`${sharing.deviceConfigName}\` (they carry no \`nvidia.com/device-plugin.config\` label), which already gives this sharing: nothing to relabel`,
    );
  } else if (
    (sharing.mode === 'time-slicing' || sharing.mode === 'mps') &&
    sharing.deviceConfigName &&
    keepsConfig
  ) {
    steps.push(
      `The nodes of \`${pool}\` keep device-plugin config \`${sharing.deviceConfigName}\`: nothing to relabel`,
    );
  } else if (
    (sharing.mode === 'time-slicing' || sharing.mode === 'mps') &&
    sharing.deviceConfigName
  ) {
    // A key of a ConfigMap written by hand is there already: this change adds none.
    const where = sharing.handWrittenConfigMap
      ? `is a key of the hand-written ConfigMap \`${handWrittenLabel(sharing.handWrittenConfigMap)}\` (\`${sharing.handWrittenConfigMap.path}\`), which this pull request leaves as it is`
      : 'is in the ConfigMap after sync';
    steps.push(
      `Device-plugin config \`${sharing.deviceConfigName}\` ${where}; nodes pick it up through the label \`nvidia.com/device-plugin.config=${sharing.deviceConfigName}\` (new nodes: NodePool template; existing nodes: \`kubectl label node <node> nvidia.com/device-plugin.config=${sharing.deviceConfigName} --overwrite\` to reload)`,
      `Check capacity: \`kubectl get nodes -l ${selector} -o custom-columns=NAME:.metadata.name,SHARED:.status.allocatable.${plan.resourceName.replace(/\./g, '\\.')}\``,
    );
  }
  steps.push(
    `Verify: \`kubectl -n ${plan.request.metadata.namespace} get pods -o wide\` shows the replicas Running on nodes of \`${pool}\``,
  );
  return steps;
}
