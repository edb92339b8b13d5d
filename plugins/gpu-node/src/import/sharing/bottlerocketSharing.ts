/**
 * Bottlerocket's NVIDIA variants run their own device plugin, configured in
 * the node class's user data (TOML), not by the GPU Operator's ConfigMap:
 * `[settings.kubelet-device-plugins.nvidia]` with `device-sharing-strategy`
 * (`none`, `time-slicing`, `mps`) and, per strategy, `replicas` and
 * `rename-by-default` (bottlerocket.dev settings reference,
 * `settings.kubelet-device-plugins.nvidia.*`, Bottlerocket 1.54). A
 * Karpenter EC2NodeClass runs Bottlerocket with `amiFamily: Bottlerocket`
 * or an `alias: bottlerocket@<version>` AMI term (aws/karpenter-provider-aws
 * v1.14.1 `pkg/apis/v1/ec2nodeclass.go`).
 */
import { parse } from 'smol-toml';
import { getIn, type PlainObject } from '../../repo/yamlObjects';
import { objectLabel } from '../convert/findings';
import type { NodeSharing } from './nodeSharing';

/** True when the EC2NodeClass's nodes run Bottlerocket. */
export function runsBottlerocket(nodeClass: PlainObject): boolean {
  if (getIn(nodeClass, 'spec', 'amiFamily') === 'Bottlerocket') return true;
  const terms = getIn(nodeClass, 'spec', 'amiSelectorTerms');
  return (
    Array.isArray(terms) &&
    terms.some(t => /^bottlerocket@/i.test(String(getIn(t, 'alias') ?? '')))
  );
}

/**
 * The sharing Bottlerocket's device plugin applies on the class's nodes;
 * undefined for whole GPUs (no setting, or `none`); `unreadable` with why.
 */
export function bottlerocketSharing(
  nodeClass: PlainObject,
): NodeSharing | { unreadable: string } | undefined {
  const userData = getIn(nodeClass, 'spec', 'userData');
  if (!runsBottlerocket(nodeClass) || typeof userData !== 'string') {
    return undefined;
  }
  let settings: unknown;
  try {
    settings = parse(userData);
  } catch (error) {
    return {
      unreadable: `its spec.userData is not TOML Bottlerocket reads (${(error as Error).message.split('\n')[0]})`,
    };
  }
  const nvidia = getIn(
    settings,
    'settings',
    'kubelet-device-plugins',
    'nvidia',
  );
  const strategy = getIn(nvidia, 'device-sharing-strategy');
  if (strategy !== 'time-slicing' && strategy !== 'mps') return undefined;
  const options = getIn(nvidia, strategy);
  const replicas = getIn(options, 'replicas');
  return {
    mode: strategy,
    ...(typeof replicas === 'number' && Number.isInteger(replicas)
      ? { slicesPerGpu: replicas }
      : {}),
    renameByDefault: getIn(options, 'rename-by-default') === true,
    source: `${objectLabel(nodeClass)} spec.userData (Bottlerocket's device plugin, settings.kubelet-device-plugins.nvidia)`,
  };
}
