export * from './tree';
export * from './readRepoState';
export * from './readDocuments';
export * from './parsePools';
export * from './parseDevicePluginConfigs';
export * from './parseMigConfigs';
export * from './parseWorkloads';
export type { SkippedFile } from './yamlObjects';
export * from './poolLabels';
