export * from './finding';
export * from './karpenterLabels';
export * from './devicePluginConfig';
export * from './migPartedConfig';
export * from './nodePoolRules';
export * from './objectRules';
