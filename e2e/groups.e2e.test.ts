import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { deviceEndpoints, gatewayEndpoints, groupEndpoints } from '@lumigrid/contract';
import type { Gateway, GatewayDevice } from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { gatewayJourney, placeGatewayDevices } from './support/journey.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';

// Issue 5's group journey: on /device/group create a group of lights on a simulated gateway, see a grouping
// rule refused in the user's language, switch the group off and on from its panel and watch the members'
// reported states; before the gateway is synced the command goes member by member, after it as one frame.

let site: GatewaySite;
let page: Page;
let token: string;
let mapId: string;
let gateway: Gateway;
let devices: GatewayDevice[];

const sim = () => site.fleet.gateways[0]!;
const byKind = (kind: string) => devices.find((d) => d.kind === kind)!;
const LIGHTS = ['light-single', 'light-dimmer', 'light-cct'];
const PLACED = [...LIGHTS, 'light-rgb', 'emergency', 'sensor-motion'];
const message = (text: string | RegExp) => page.locator('.ant-message').getByText(text);
const groups = () => api(site.server.url, groupEndpoints.list, { params: { id: mapId }, body: {} }, { token });

const journey = gatewayJourney('groups');

beforeAll(async () => {
  site = await journey.startSite({ count: 1 });
  const placed = await placeGatewayDevices(site, {
    gatewayName: 'Floor gateway',
    place: (byKind) => PLACED.map((kind, i) => ({ id: byKind(kind).id, x: 0.1 + i / 10, y: 0.5 })),
  });
  const { login } = placed;
  ({ token, mapId, gateway, devices } = placed);
  // The lights start at full load, so switching the group off shows on every member.
  for (const kind of LIGHTS) {
    const action = kind === 'light-single' ? ({ op: 'onOff', on: true } as const) : ({ op: 'brightness', percent: 100 } as const);
    await api(site.server.url, deviceEndpoints.control, { body: { id: byKind(kind).id, action } }, { token });
  }
  await api(site.server.url, gatewayEndpoints.sync, { params: { id: gateway.id } }, { token });
  await poll(async () => {
    const markers = await api(site.server.url, deviceEndpoints.markers, { query: { mapId: mapId } }, { token });
    return LIGHTS.every((kind) => markers.find((m) => m.id === byKind(kind).id)?.display === 'onFull');
  }, 'the lights on at full load');

  page = await journey.openPage(login);
}, 120_000);

/** Opens the new-group dialog, names the group, picks the gateway and ticks the devices of these kinds. */
async function fillNewGroup(name: string, kinds: string[]) {
  await page.getByTestId('group-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('group-name').fill(name);
  await dialog.getByTestId('group-gateway').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Floor gateway' }).click();
  const picker = dialog.getByTestId('group-member-picker');
  for (const kind of kinds)
    await picker
      .locator('tr')
      .filter({ hasText: byKind(kind).name })
      .locator('input[type=checkbox]')
      .check();
  return dialog;
}

/** Cancels the dialog once its save has settled: antd ignores Cancel while the OK button is still loading. */
async function cancelDialog(dialog: Locator, label: string) {
  await dialog.locator('.ant-btn-loading').waitFor({ state: 'detached' });
  await dialog.getByRole('button', { name: label }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('groups in a real browser with a simulated gateway', () => {
  it('is reached from the device menu and refuses a group that breaks a grouping rule', async () => {
    await page.goto(`${site.server.url}/device/control`);
    await page.locator('.ant-pro-sider').getByText('Groups').click();
    await page.waitForURL('**/device/group');
    await page.getByText('This map has no groups yet').waitFor();
    const dialog = await fillNewGroup('Mixed', ['emergency', 'light-cct']);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await message('Emergency devices cannot be grouped with others').waitFor();
    await cancelDialog(dialog, 'Cancel');
    expect(await groups()).toEqual([]);
  });

  it('creates a group of lights, switches it off and sees each member report', async () => {
    const dialog = await fillNewGroup('Lobby lights', LIGHTS);
    await dialog.getByText('3 selected').waitFor();
    await screenshot(page, 'groups-new');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await message('The group Lobby lights was created').waitFor();
    const row = page.getByTestId('group-row-Lobby lights');
    await row.getByText('Waits for sync').waitFor();
    await row.getByText('On at full load').waitFor();
    // The header banner counts the gateway as not synced: the group raised its configuration version.
    await page.getByText('Gateways not synced: 1').first().waitFor();

    await row.getByTestId('group-open').click();
    const drawer = page.getByTestId('group-control');
    await drawer.getByTestId('group-off').click();
    // Not synced yet: the gateway sends the command to each member in turn.
    await drawer.getByText('it sends the command to each of 3 members in turn').waitFor();
    const members = drawer.getByTestId('group-members');
    await poll(async () => (await members.locator('.ant-tag').filter({ hasText: /^Off$/ }).count()) === 3, 'three members off');
    await drawer.getByTestId('group-state').filter({ hasText: 'Off' }).waitFor();
    await screenshot(page, 'groups-control-off');
  });

  it('sends one group frame once the gateway is synced, and says so when a member goes offline', async () => {
    await api(site.server.url, gatewayEndpoints.sync, { params: { id: gateway.id } }, { token });
    const frames: string[] = [];
    sim().on('command', (c: { name: string }) => frames.push(c.name));
    const drawer = page.getByTestId('group-control');
    await drawer
      .getByText('Synced')
      .waitFor()
      .catch(async () => {
        // The drawer reads its group when members report; after a sync nothing reports, so read it again.
        await page.getByRole('button', { name: 'Close' }).click();
        await page.getByTestId('group-row-Lobby lights').getByTestId('group-open').click();
        await drawer.getByText('Synced').waitFor();
      });
    await drawer.getByTestId('group-on').click();
    await drawer.getByText('Sent as one group command').waitFor();
    const members = drawer.getByTestId('group-members');
    await poll(
      async () =>
        (await members
          .locator('.ant-tag')
          .filter({ hasText: /^On at full load$/ })
          .count()) === 3,
      'three members on',
    );
    expect(frames.filter((f) => f === 'group.control')).toHaveLength(1);
    expect(frames.filter((f) => f.startsWith('device'))).toEqual([]);

    sim().raiseFault(byKind('light-dimmer').addr.toUpperCase(), 2);
    // Through the gateway, the report writer, the tracker and the socket: slow on a busy machine.
    await drawer.getByText('1 member(s) offline').waitFor({ timeout: 60_000 });
    await members
      .locator('.ant-tag')
      .filter({ hasText: /^Offline$/ })
      .waitFor();
    await screenshot(page, 'groups-control-offline');
    await page.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('group-row-Lobby lights').getByText('1 member(s) offline').waitFor();
    await screenshot(page, 'groups-list');
    sim().clearFault(byKind('light-dimmer').addr.toUpperCase());
  });

  it('speaks Japanese, refusals included', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.reload();
    await page.locator('.ant-page-header-heading-title').getByText('グループ').waitFor();
    const row = page.getByTestId('group-row-Lobby lights');
    await row.getByText('同期済み').waitFor();
    const dialog = await fillNewGroup('非常灯と照明', ['emergency', 'light-single']);
    await dialog.getByRole('button', { name: /保\s?存/ }).click();
    await message('非常灯は他のデバイスとグループ化できません').waitFor();
    await screenshot(page, 'groups-ja');
    await cancelDialog(dialog, 'キャンセル');
    await page.evaluate(() => localStorage.setItem('lang', 'en'));
  });
});
