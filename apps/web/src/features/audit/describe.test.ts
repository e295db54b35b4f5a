import { describe, expect, it } from 'vitest';
import { describeChange } from './describe.ts';

describe('the sentence of an audit entry', () => {
  it('says what a device control set', () => {
    const control = (action: Record<string, unknown>) =>
      describeChange({ endpoint: 'devices.control', request: { body: { id: '1', action } } });
    expect(control({ op: 'onOff', on: true })).toEqual({ key: 'audit.change.switchedOn', values: { channel: '' } });
    expect(control({ op: 'onOff', on: false })).toEqual({ key: 'audit.change.switchedOff', values: { channel: '' } });
    expect(control({ op: 'channel', on: true, channel: 2 })).toEqual({ key: 'audit.change.switchedOn', values: { channel: ' (2)' } });
    expect(control({ op: 'brightness', percent: 40 })).toEqual({ key: 'audit.change.dimmed', values: { percent: 40, channel: '' } });
    expect(control({ op: 'cct', kelvin: 3000 }).key).toBe('audit.change.colourTemp');
  });

  it('names the endpoint of anything else', () => {
    expect(describeChange({ endpoint: 'devices.rename', request: { body: { id: '1', name: 'Lamp' } } })).toEqual({
      key: 'audit.change.other',
      values: { endpoint: 'devices.rename' },
    });
  });
});
