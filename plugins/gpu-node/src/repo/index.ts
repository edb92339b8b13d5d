export * from './tree';
export * from './readRepoState';
export type { SkippedFile } from './yamlObjects';
export * from './poolLabels';
