/**
 * GitOps repository I/O, merge engine, forges, PR body and the gpu-gitops CLI.
 *
 * @packageDocumentation
 */
export type * from './changes/types';
export type * from './forges/types';
export * from './layout';
export * from './repo';
export * from './changes';
export * from './validate';
export * from './kustomize';
export * from './redact';
export * from './git';
export * from './forges';
export * from './pr';
export * from './publish';
export * from './workloads';
export * from './policy';
export * from './config';
