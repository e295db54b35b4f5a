import { createServer, type AddressInfo } from 'node:net';

/** A TCP port nobody listens on now (the system's pick for port 0), on `host`. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, host, done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}
