/** What `sendPacketsAtOnce` needs of an mqtt.js client: its current socket, and its connect event. */
interface StreamClient {
  readonly stream: unknown;
  on(event: 'connect', listener: () => void): unknown;
}

/**
 * Turns Nagle's algorithm off on the client's socket, now and on every reconnect. With it on, a packet
 * written in two parts (mqtt.js writes header and payload separately) waits for the peer to acknowledge the
 * first part, which Linux delays by up to 40 ms: every command and every answer paid that wait.
 */
export function sendPacketsAtOnce(client: StreamClient): void {
  const apply = () => {
    const socket = client.stream as { setNoDelay?: (noDelay: boolean) => unknown } | undefined;
    socket?.setNoDelay?.(true);
  };
  apply();
  client.on('connect', apply);
}
