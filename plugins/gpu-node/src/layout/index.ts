export * from './layout';
export * from './names';
