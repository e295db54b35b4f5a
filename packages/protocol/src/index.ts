export * from './topics.ts';
export * from './devices.ts';
export * from './gateway.ts';
export * from './config.ts';
export * from './commands.ts';
export * from './messages.ts';
export * from './codec.ts';
export * from './text.ts';
