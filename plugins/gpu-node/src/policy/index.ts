export * from './gpuPolicy';
export * from './gpuUsage';
export * from './requestOwners';
export * from './ownerPolicyCheck';
export * from './ownerCapabilities';
