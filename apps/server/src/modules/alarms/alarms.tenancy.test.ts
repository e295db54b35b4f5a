import { alarmEndpoints, alertEndpoints, deviceEndpoints, type AlarmPage, type AlertPage } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase } from '../../test/tenancy.ts';
import { SERVICE_DATABASES, api } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, twoGatewayTenancyWorld } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';
import { defaultProject } from '../../test/projects.fixtures.ts';

/** The first account's device name: it may appear in no answer to the second account. */
const SECRET = 'Secret exit sign';
const BATTERY = 6;

type Ids = { alarm: string; project: string };

/** Every alarm call that takes ids, called by a second account with the first account's. */
const CASES: Array<TenancyCase<Ids>> = [
  tenancyCase(alarmEndpoints.page, (a) => ({ body: { projectId: a.project } })),
  tenancyCase(alarmEndpoints.acknowledge, (a, b) => ({ body: { ids: [b.alarm, a.alarm] } })),
  tenancyCase(alarmEndpoints.acknowledge, () => ({ body: { ids: ['9999999999999999999'] } })),
  tenancyCase(alarmEndpoints.shelve, (a, b) => ({ body: { ids: [b.alarm, a.alarm], minutes: 60, reason: 'mine now' } })),
  tenancyCase(alarmEndpoints.unshelve, (a) => ({ body: { ids: [a.alarm] } })),
  tenancyCase(alarmEndpoints.settings, (a) => ({ query: { projectId: a.project } })),
  tenancyCase(alarmEndpoints.saveSettings, (a) => ({ body: { projectId: a.project, codes: [], rules: [] } })),
];

describe.each(SERVICE_DATABASES)('tenancy of the alarm calls on %s', (kind) => {
  const { world } = twoGatewayTenancyWorld(kind, {
    accounts: { victim: 'alarm-owner@example.com', intruder: 'alarm-intruder@example.com' },
    build: async (rig, { token, sim, victim }): Promise<Ids> => {
      const { app } = rig.h;
      const name = victim ? SECRET : 'Own exit sign';
      const { placed } = await buildGatewayWithDevices(rig.h, token, { mac: sim.mac, place: (d) => d.kind === 'light-cct' });
      const light = placed[0]!;
      await api(app, deviceEndpoints.rename, { body: { id: light.id, name } }, { token });
      sim.raiseFault(light.addr, BATTERY);
      await poll(async () => (await data<AlertPage>(api(app, alertEndpoints.page, { body: {} }, { token }))).list.length > 0, 'an alert');
      await app.alertTracker.settled();
      let alarm = '';
      await poll(async () => {
        await app.alarmKeeper.settled();
        alarm = (await data<AlarmPage>(api(app, alarmEndpoints.page, { body: {} }, { token }))).list[0]?.id ?? '';
        return alarm !== '';
      }, 'an alarm');
      return { alarm, project: (await defaultProject(rig.h, token)).id };
    },
  });

  tenancyMatrix({ domain: alarmEndpoints, cases: CASES, withoutIds: [alarmEndpoints.summary], secrets: [SECRET], world });

  it('shows each account only its own alarms, in the list and in the banner', async () => {
    const { app, intruder, b, principals } = world();
    const own = await data<AlarmPage>(api(app, alarmEndpoints.page, { body: {} }, { token: intruder }));
    expect(own.list.map((x) => x.id)).toEqual([b.alarm]);
    expect(await data(api(app, alarmEndpoints.summary, {}, { token: intruder }))).toEqual({
      unacked: { critical: 1, high: 0, medium: 0, low: 0 },
      shelved: 0,
    });
    const sibling = await data<AlarmPage>(api(app, alarmEndpoints.page, { body: {} }, { token: principals.sibling.token }));
    expect(sibling.list).toEqual([]);
  });

  it('left the first account\u2019s alarm as it was', async () => {
    const { app, victim, a } = world();
    const page = await data<AlarmPage>(api(app, alarmEndpoints.page, { body: {} }, { token: victim }));
    expect(page.list).toMatchObject([{ id: a.alarm, name: SECRET, state: 'activeUnacked', shelvedUntil: null, ackedAt: null }]);
  });
});
