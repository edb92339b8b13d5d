export * from './units';
export * from './money';
