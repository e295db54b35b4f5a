export * from './clock.ts';
export * from './radio.ts';
export * from './devices.ts';
export * from './energy.ts';
export * from './gateway.ts';
export * from './fleet.ts';
export * from './emergency.ts';
export * from './command-error.ts';
