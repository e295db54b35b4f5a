import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { alarmEndpoints, alertEndpoints, deviceEndpoints } from '@lumigrid/contract';
import type { GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// A flaky emergency light goes offline and comes back again and again: the fault list keeps every time it
// went, but the operator sees ONE chattering alarm, counted in the header's banner as it happens. They
// acknowledge it from the keyboard (the banner empties), and shelve it with a reason while the light is replaced.

const OFFLINE = 2;
const FLAPS = 4;
const REASON = 'Replacement light ordered';

let site: GatewaySite;
let page: Page;
let token: string;
let light: GatewayDevice;

const sim = () => site.fleet.gateways[0]!;
const journey = gatewayJourney('alarms-management');

const openAlertsOfLight = async () =>
  (await api(site.server.url, alertEndpoints.page, { body: { code: OFFLINE, open: true } }, { token })).list.filter(
    (a) => a.deviceId === light.id,
  );

beforeAll(async () => {
  // Offline is a fault after one second away, so the light can flap within the test's time.
  site = await journey.startSite({ count: 1, env: { OFFLINE_GRACE_S: '1' } });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Stairwell gateway',
    place: (find) => [{ id: find('emergency').id, x: 0.4, y: 0.4 }],
  });
  token = placed.token;
  light = placed.devices.find((d) => d.kind === 'emergency')!;
  await api(site.server.url, deviceEndpoints.rename, { body: { id: light.id, name: 'Exit sign B2' } }, { token });
  light = { ...light, name: 'Exit sign B2' };
  page = await journey.openPage(placed.login);
}, 120_000);

describe('a flapping light becomes one chattering alarm, acknowledged and shelved', () => {
  it('counts one alarm in the banner however often the light flaps', async () => {
    await page.goto(`${site.server.url}/alert/alarms`);
    await page.getByText('No alarms here').waitFor();
    for (let i = 0; i < FLAPS; i += 1) {
      sim().raiseFault(light.addr, OFFLINE);
      await poll(async () => (await openAlertsOfLight()).length === 1, `offline ${i + 1} raised`);
      sim().clearFault(light.addr);
      await poll(async () => (await openAlertsOfLight()).length === 0, `offline ${i + 1} cleared`);
    }
    const alerts = (await api(site.server.url, alertEndpoints.page, { body: { code: OFFLINE } }, { token })).list;
    expect(alerts.filter((a) => a.deviceId === light.id)).toHaveLength(FLAPS);

    const alarms = (await api(site.server.url, alarmEndpoints.page, { body: {} }, { token })).list;
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ name: light.name, chattering: true, raiseCount: FLAPS, severity: 'medium' });

    // Live: the banner came with the notices, not with a reload.
    const banner = page.getByTestId('alarm-banner');
    await banner.getByTestId('alarm-banner-medium').getByText('1 Medium').waitFor();
    const row = page.getByTestId(`alarm-row-${light.name}`);
    await row.getByTestId('alarm-chattering').waitFor();
    await row.getByText('Active, unacknowledged').waitFor();
    await screenshot(page, 'alarms-chattering');
  });

  it('is acknowledged from the keyboard, and the banner empties', async () => {
    const row = page.getByTestId(`alarm-row-${light.name}`);
    await row.getByTestId('alarm-ack').focus();
    await page.keyboard.press('Enter');
    await row.getByTestId('alarm-state').getByText('Active, acknowledged', { exact: true }).waitFor();
    await page.getByTestId('alarm-banner').waitFor({ state: 'detached' });
    const [alarm] = (await api(site.server.url, alarmEndpoints.page, { body: {} }, { token })).list;
    expect(alarm).toMatchObject({ state: 'activeAcked', ackedBy: expect.any(String) });
  });

  it('is shelved with a reason and listed under the shelved ones', async () => {
    const [standing] = (await api(site.server.url, alarmEndpoints.page, { body: {} }, { token })).list;
    // The light is back: the chattering alarm waits out its quiet window before it clears, so it still stands.
    expect(standing).toMatchObject({ state: 'activeAcked', chattering: true });
    const row = page.getByTestId(`alarm-row-${light.name}`);
    await row.getByTestId('alarm-shelve').click();
    await page.getByTestId('alarms-shelve-reason').fill(REASON);
    await page.keyboard.press('Enter');
    await row.getByTestId('alarm-shelved').getByText(REASON, { exact: false }).waitFor();
    await page.locator('.ant-segmented-item').getByText('Shelved', { exact: true }).click();
    await page.getByTestId(`alarm-row-${light.name}`).getByTestId('alarm-unshelve').waitFor();
    await screenshot(page, 'alarms-shelved');
    const [shelved] = (await api(site.server.url, alarmEndpoints.page, { body: { shelved: true } }, { token })).list;
    expect(shelved).toMatchObject({ shelvedReason: REASON, shelvedBy: expect.any(String) });
    expect((await api(site.server.url, alarmEndpoints.summary, {}, { token })).shelved).toBe(1);
  });

  it('takes a severity and a notification rule on the settings page', async () => {
    await page.goto(`${site.server.url}/alert/alarmSettings`);
    // Offline is the table's second row (codes in order).
    const offline = page.getByTestId('alarm-severity-1');
    await offline.getByText('Medium').waitFor();
    await offline.click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText('High', { exact: true }).click();
    await page.getByTestId('alarm-rule-add').click();
    const rule = page.getByTestId('alarm-rule');
    await rule.getByLabel('Name').fill('Night shift');
    await rule.getByLabel('Mail to').pressSequentially('ops@example.com,');
    await page.getByTestId('alarm-settings-save').click();
    await page.getByText('Alarm settings saved').waitFor();
    await screenshot(page, 'alarms-settings');
    const projectId = (await api(site.server.url, alarmEndpoints.page, { body: {} }, { token })).list[0]!.projectId!;
    const settings = await api(site.server.url, alarmEndpoints.settings, { query: { projectId } }, { token });
    expect(settings.codes.find((c) => c.code === OFFLINE)).toMatchObject({ severity: 'high' });
    expect(settings.rules).toEqual([
      { name: 'Night shift', severities: ['critical'], lang: 'en', steps: [{ afterMinutes: 0, mails: ['ops@example.com'] }] },
    ]);
  });
});
