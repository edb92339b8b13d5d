export * from './cacheDirs';
export * from './readClusterProfiles';
export * from './readGitOpsConfig';
export * from './readGpuCatalog';
export * from './readGpuConfig';
export * from './readGpuPolicy';
