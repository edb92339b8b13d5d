export * from './finding';
export * from './karpenter-labels';
export * from './device-plugin-config';
export * from './mig-parted-config';
export * from './node-pool-rules';
export * from './object-rules';
