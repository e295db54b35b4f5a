export * from './shared.ts';
export * from './endpoints/index.ts';
export * from './live-topics.ts';
