import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDownload } from '../api/download.ts';
import { renderInApp } from '../test/render.tsx';
import { DownloadButton } from './download-button.tsx';

/** A download the test finishes: `finish` is set while the server would be writing the file. */
function Report({ started }: { started: { count: number; finish?: () => void } }) {
  const report = useDownload(
    () =>
      new Promise<void>((resolve) => {
        started.count += 1;
        started.finish = resolve;
      }),
  );
  return (
    <DownloadButton download={report} data-testid="report">
      Report
    </DownloadButton>
  );
}

describe('DownloadButton', () => {
  it('starts the download on a click and spins until the file is written', async () => {
    const started: { count: number; finish?: () => void } = { count: 0 };
    const { user } = await renderInApp(<Report started={started} />);
    const button = screen.getByTestId('report');
    expect(button.classList.contains('ant-btn-loading')).toBe(false);
    await user.click(button);
    expect(started.count).toBe(1);
    await waitFor(() => expect(button.classList.contains('ant-btn-loading')).toBe(true));
    started.finish!();
    await waitFor(() => expect(button.classList.contains('ant-btn-loading')).toBe(false));
  });
});
