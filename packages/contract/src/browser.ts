// The contract as the browser takes it: everything but the endpoint tables, whose schemas the browser never
// checks; their routes (src/endpoint-routes.ts) stand in, under the same names. The schemas the other modules
// export are dropped by the web build unless a page reads one (apps/web/vite.config.ts).
export * from './shared.ts';
export * from './endpoint-routes.ts';
export * from './endpoint-summaries.ts';
