export * from './z2m-formats.ts';
export * from './mapping.ts';
export * from './convert.ts';
export * from './gateway-connection.ts';
export * from './bridge.ts';
export * from './stand-in/stand-in.ts';
export * from './stand-in/catalogue.ts';
