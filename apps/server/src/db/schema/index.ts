export * from './users.ts';
export * from './auth.ts';
export * from './outbox.ts';
export * from './projects.ts';
export * from './gateways.ts';
export * from './devices.ts';
export * from './reports.ts';
export * from './groups.ts';
