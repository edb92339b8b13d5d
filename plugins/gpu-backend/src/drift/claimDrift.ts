/**
 * Pods of a `dra` request get their GPUs through ResourceClaims
 * (`resource.k8s.io/v1`), which the claim controller makes from the pod's
 * ResourceClaimTemplate and owns by the pod. The scheduler allocates a
 * claim (writes `status.allocation`) only when a node publishes a device
 * the claim's class and selectors match; while none does, the pod waits
 * Pending, and the reason is the claim, not the pod's resources: no DRA
 * driver on the pool's nodes, or one that publishes no device of that
 * model, profile or share count.
 */
import type { V1Pod, ResourceV1ResourceClaim } from '@kubernetes/client-node';
import type { DriftFinding } from '@gpu-gitops/plugin-gpu-common';

/** The claims a pod owns (the controller's `ownerReferences` to it). */
function claimsOf(
  pod: V1Pod,
  claims: ResourceV1ResourceClaim[],
): ResourceV1ResourceClaim[] {
  return claims.filter(
    claim =>
      claim.metadata?.namespace === pod.metadata?.namespace &&
      (claim.metadata?.ownerReferences ?? []).some(
        owner =>
          owner.kind === 'Pod' &&
          (owner.uid === pod.metadata?.uid ||
            owner.name === pod.metadata?.name),
      ),
  );
}

/** The device classes a claim asks for, as written (`exactly` or each of `firstAvailable`). */
function deviceClassesOf(claim: ResourceV1ResourceClaim): string[] {
  return (claim.spec.devices?.requests ?? []).flatMap(request => [
    ...(request.exactly ? [request.exactly.deviceClassName] : []),
    ...(request.firstAvailable ?? []).map(s => s.deviceClassName),
  ]);
}

const plural = (count: number, word: string) =>
  `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * The finding for `pending` pods of one workload whose ResourceClaims are
 * not allocated, given the cluster's claims (undefined: not read, the
 * profile enables no DRA or the cluster serves no `resource.k8s.io/v1`).
 */
export function claimUnallocatedFindings(
  pending: V1Pod[],
  claims: ResourceV1ResourceClaim[] | undefined,
): DriftFinding[] {
  if (!claims) return [];
  const waiting = pending.flatMap(pod =>
    claimsOf(pod, claims).filter(claim => !claim.status?.allocation),
  );
  if (waiting.length === 0) return [];
  const pods = new Set(waiting.map(c => c.metadata?.ownerReferences?.[0]?.name))
    .size;
  const [first] = waiting;
  const classes = [...new Set(waiting.flatMap(deviceClassesOf))].sort();
  const name = `${first.metadata?.namespace}/${first.metadata?.name}`;
  return [
    {
      kind: 'claim-unallocated',
      object: `ResourceClaim/${name}`,
      message: `${plural(pods, 'pod')} wait${pods === 1 ? 's' : ''} for GPUs through DRA: ${plural(waiting.length, 'ResourceClaim')} (e.g. ${name}) ${waiting.length === 1 ? 'is' : 'are'} not allocated, as no node publishes a device of class ${classes.join(' or ') || '(none named)'} that matches ${waiting.length === 1 ? 'its' : 'their'} selectors: check that NVIDIA's DRA driver runs on the pool's nodes and publishes that GPU model, MIG profile or share count`,
    },
  ];
}
