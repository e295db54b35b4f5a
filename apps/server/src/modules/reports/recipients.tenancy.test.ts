import { OPERATE_AUTH, recipientEndpoints } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { SERVICE_DATABASES, apiData, api, expectError, startApp } from '../../test/harness.ts';
import { defaultProject, subAccount } from '../../test/projects.fixtures.ts';
import { tenancyCase, tenancyMatrix, tenancyWorld, type TenancyCase } from '../../test/tenancy.ts';

/** The first account's recipient: it may appear in no answer to the second account. */
const SECRET = 'Secret recipient';
const VICTIM = 'recipient-owner@example.com';

type Ids = { project: string; recipient: string };

const fields = { mail: 'someone@example.com', unit: 'day' as const, sendTime: '08:00', timeZone: 'UTC', contents: ['energy' as const] };

/** Every recipient call, made by a second account with the first account's ids. */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(recipientEndpoints.list, (a) => ({ query: { projectId: a.project } })),
  tenancyCase(recipientEndpoints.add, (a) => ({ body: { projectId: a.project, name: 'Mine now', ...fields } })),
  tenancyCase(recipientEndpoints.edit, (a) => ({ body: { id: a.recipient, name: 'Mine now', ...fields } })),
  tenancyCase(recipientEndpoints.remove, (a) => ({ query: { id: a.recipient } })),
  tenancyCase(recipientEndpoints.remove, () => ({ query: { id: '9999999999999999999' } })),
  tenancyCase(recipientEndpoints.realtimeSwitch, (a) => ({ params: { id: a.recipient, on: '1' as const } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the recipient calls on %s', (kind) => {
  const world = tenancyWorld({
    start: () => startApp(kind),
    accounts: { victim: VICTIM, intruder: 'recipient-intruder@example.com' },
    seed: async (h, tokens) => {
      const setUp = async (token: string, name: string): Promise<Ids> => {
        const project = (await defaultProject(h, token)).id;
        const recipient = await apiData(h.app, recipientEndpoints.add, { body: { projectId: project, name, ...fields } }, { token });
        return { project, recipient: recipient.id };
      };
      return { a: await setUp(tokens.victim, SECRET), b: await setUp(tokens.intruder, 'Own recipient') };
    },
    timeout: 60_000,
  });

  tenancyMatrix({ domain: recipientEndpoints, cases: CASES, secrets: [SECRET], world });

  it('lets a view-only sub-account read the recipients and change none', async () => {
    const { h, a } = world();
    const viewer = await subAccount(h, VICTIM, OPERATE_AUTH.viewOnly);
    const list = await apiData(h.app, recipientEndpoints.list, { query: { projectId: a.project } }, { token: viewer });
    expect(list.map((r) => r.name)).toEqual([SECRET]);
    expectError(
      await api(h.app, recipientEndpoints.add, { body: { projectId: a.project, name: 'No', ...fields } }, { token: viewer }),
      110003,
    );
    expectError(await api(h.app, recipientEndpoints.realtimeSwitch, { params: { id: a.recipient, on: '1' } }, { token: viewer }), 110003);
    expectError(await api(h.app, recipientEndpoints.remove, { query: { id: a.recipient } }, { token: viewer }), 110003);
  });

  it('lets an editable sub-account change recipients, and left the first account\u2019s recipient as it was', async () => {
    const { h, intruder, a, b } = world();
    const editor = await subAccount(h, VICTIM, OPERATE_AUTH.editable);
    const edited = await apiData(
      h.app,
      recipientEndpoints.edit,
      { body: { id: a.recipient, name: SECRET, ...fields, unit: 'week', weekday: 5, realtimeFaults: true } },
      { token: editor },
    );
    expect(edited).toMatchObject({
      unit: 'week',
      weekday: 5,
      monthDay: null,
      realtimeFaults: true,
      nextSendAt: '2026-11-27T08:00:00.000Z',
    });
    const own = await apiData(h.app, recipientEndpoints.list, { query: { projectId: b.project } }, { token: intruder });
    expect(own.map((r) => r.id)).toEqual([b.recipient]);
  });
});
