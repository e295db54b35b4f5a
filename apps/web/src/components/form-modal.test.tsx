import { useState } from 'react';
import { Input } from 'antd';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render.tsx';
import { FormModal } from './form-modal.tsx';

/** A dialog with one field whose OK runs `submit`; closing it is the page's, as in the app. */
function Dialog({ submit }: { submit: () => Promise<unknown> }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button onClick={() => setOpen(true)}>open</button>
      <FormModal
        open={open}
        title="Rename"
        okText="Save"
        onSubmit={async () => {
          await submit();
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      >
        <Input aria-label="Name" />
      </FormModal>
    </>
  );
}

describe('FormModal', () => {
  it('says Cancel in the page language', async () => {
    await renderInApp(<Dialog submit={async () => undefined} />, { lang: 'ja' });
    expect(await screen.findByRole('button', { name: 'キャンセル' })).toBeTruthy();
  });

  it('sends on Enter in a field and stays open when the sending is refused', async () => {
    let tries = 0;
    const { user } = await renderInApp(
      <Dialog
        submit={async () => {
          tries++;
          throw new Error('refused');
        }}
      />,
    );
    await user.type(await screen.findByLabelText('Name'), 'Hall{Enter}');
    await waitFor(() => expect(tries).toBe(1));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Hall');
  });

  it('forgets what was typed once it has closed', async () => {
    const { user } = await renderInApp(<Dialog submit={async () => undefined} />);
    await user.type(await screen.findByLabelText('Name'), 'Hall');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByLabelText('Name')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'open' }));
    expect(((await screen.findByLabelText('Name')) as HTMLInputElement).value).toBe('');
  });
});
