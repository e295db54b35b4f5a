export * from './shared.ts';
export * from './endpoints/index.ts';
