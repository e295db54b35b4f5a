import { alarmEndpoints, alertEndpoints, deviceEndpoints, projectEndpoints, type AlarmPage, type AlertPage } from '@lumigrid/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenancyCase, tenancyMatrix, type TenancyCase, tenancyPrincipals, type Principal, type PrincipalKey } from '../../test/tenancy.ts';
import { DATABASES, signUpByMail, api } from '../../test/harness.ts';
import { buildGatewayWithDevices, data, startGatewayRig, type GatewayRig } from '../../test/gateways.fixtures.ts';
import { poll } from '../../test/poll.ts';

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

describe.each(DATABASES)('tenancy of the alarm calls on %s', (kind) => {
  let rig: GatewayRig;
  let tokenA: string;
  let tokenB: string;
  let principals: Record<PrincipalKey, Principal>;
  let a: Ids;
  let b: Ids;
  const h = () => rig.h;

  beforeAll(async () => {
    rig = await startGatewayRig(kind, { count: 2 });
    tokenA = await signUpByMail(h(), 'alarm-owner@example.com');
    tokenB = await signUpByMail(h(), 'alarm-intruder@example.com');
    principals = await tenancyPrincipals(h(), {
      victim: 'alarm-owner@example.com',
      victimToken: tokenA,
      intruder: 'alarm-intruder@example.com',
    });
    const alarmed = async (token: string, index: number, name: string): Promise<Ids> => {
      const sim = rig.fleet.gateways[index]!;
      const { placed } = await buildGatewayWithDevices(h(), token, { mac: sim.mac, place: (d) => d.kind === 'light-cct' });
      const light = placed[0]!;
      await api(h().app, deviceEndpoints.rename, { body: { id: light.id, name } }, { token });
      sim.raiseFault(light.addr, BATTERY);
      await poll(
        async () => (await data<AlertPage>(api(h().app, alertEndpoints.page, { body: {} }, { token }))).list.length > 0,
        'an alert',
      );
      await h().app.alertTracker.settled();
      let alarm = '';
      await poll(async () => {
        await h().app.alarmKeeper.settled();
        alarm = (await data<AlarmPage>(api(h().app, alarmEndpoints.page, { body: {} }, { token }))).list[0]?.id ?? '';
        return alarm !== '';
      }, 'an alarm');
      const tree = await data(api(h().app, projectEndpoints.tree, { params: { id: '0' } }, { token }));
      return { alarm, project: tree.projects.find((p) => p.isDefault)!.id };
    };
    a = await alarmed(tokenA, 0, SECRET);
    b = await alarmed(tokenB, 1, 'Own exit sign');
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  tenancyMatrix({
    domain: alarmEndpoints,
    cases: CASES,
    withoutIds: [alarmEndpoints.summary],
    secrets: [SECRET],
    world: () => ({ app: h().app, intruder: tokenB, a, b, principals }),
  });

  it('shows each account only its own alarms, in the list and in the banner', async () => {
    const own = await data<AlarmPage>(api(h().app, alarmEndpoints.page, { body: {} }, { token: tokenB }));
    expect(own.list.map((x) => x.id)).toEqual([b.alarm]);
    expect(await data(api(h().app, alarmEndpoints.summary, {}, { token: tokenB }))).toEqual({
      unacked: { critical: 1, high: 0, medium: 0, low: 0 },
      shelved: 0,
    });
    const sibling = await data<AlarmPage>(api(h().app, alarmEndpoints.page, { body: {} }, { token: principals.sibling.token }));
    expect(sibling.list).toEqual([]);
  });

  it('left the first account\u2019s alarm as it was', async () => {
    const page = await data<AlarmPage>(api(h().app, alarmEndpoints.page, { body: {} }, { token: tokenA }));
    expect(page.list).toMatchObject([{ id: a.alarm, name: SECRET, state: 'activeUnacked', shelvedUntil: null, ackedAt: null }]);
  });
});
