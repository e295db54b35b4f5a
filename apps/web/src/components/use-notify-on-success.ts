import { App } from 'antd';

/**
 * A function that waits for a change and says `done` once it succeeds. A refusal was already shown by the API
 * client in the server's words, so it is swallowed here: a confirm's OK button stops spinning and nothing is
 * said twice.
 */
export function useNotifyOnSuccess() {
  const { message } = App.useApp();
  return (change: Promise<unknown>, done: string): Promise<void> => change.then(() => void message.success(done)).catch(() => undefined);
}
