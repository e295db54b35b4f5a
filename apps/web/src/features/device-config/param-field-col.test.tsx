import { Button, Form, Row } from 'antd';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEVICE_TYPE_CODES as C, ERRORS } from '@lumigrid/contract/browser';
import { renderInApp } from '../../test/render.tsx';
import { paramFields } from './param-fields.ts';
import { ParamFieldCol } from './param-field-col.tsx';

vi.mock('../../app/boot.tsx', () => ({ useBoot: () => ({ lang: 'en' }) }));

/** The parameters of a type in a form, as the device and parameter-set editors lay them out. */
function ParamForm({ type, names }: { type: number; names: string[] }) {
  return (
    <Form onFinish={() => undefined}>
      <Row>
        {paramFields(type)
          .filter((field) => names.includes(field.name))
          .map((field) => (
            <ParamFieldCol key={field.name} field={field} deviceType={type} col={{ xs: 24 }} testIdPrefix="param" />
          ))}
      </Row>
      <Button htmlType="submit">Send</Button>
    </Form>
  );
}

describe('ParamFieldCol', () => {
  it('says what the server would say of a value out of range, beside the field', async () => {
    const { user } = await renderInApp(<ParamForm type={C['sensor-motion']} names={['holdTime']} />);
    await user.type(screen.getByTestId('param-holdTime'), '15');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(ERRORS[100221].en)).toBeTruthy();
  });

  it('gives a switch one count per channel, each checked alone', async () => {
    const { user } = await renderInApp(<ParamForm type={C['switch-3']} names={['lampCounts']} />);
    expect(['0', '1', '2'].map((i) => screen.getByTestId(`param-lampCounts-${i}`))).toHaveLength(3);
    await user.type(screen.getByTestId('param-lampCounts-1'), '30');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(ERRORS[100239].en)).toBeTruthy();
  });
});
