import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SYNC_STATUS, authEndpoints, deviceEndpoints, gatewayEndpoints, groupEndpoints, projectEndpoints } from '@lumigrid/contract';

import { ADMIN_PASSWORD } from './support/server.ts';
import { api, poll } from './support/api.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { gatewayJourney } from './support/journey.ts';

// Bind a simulated gateway by MAC, watch it come online and receive its configuration, sync a later change
// through the header banner, update its firmware and see the real-time notice.

let site: GatewaySite;
let page: Page;
let token: string;

const NEW_FIRMWARE = { target: 'gateway' as const, version: '3.3.0', url: 'https://firmware.example.com/lg-gw-3.3.0.bin' };

const journey = gatewayJourney('gateways');

beforeAll(async () => {
  // A lost connection shows offline after the presence grace (10 s by default): 2 s keeps the journey short.
  site = await journey.startSite({ count: 2, superGateways: 1, firmware: [NEW_FIRMWARE], env: { PRESENCE_GRACE_S: '2' } });
  const login = await api(site.server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  token = login.access_token;
  page = await journey.openPage(login);
});

const sim = (i: number) => site.fleet.gateways[i]!;
const colons = (mac: string) => mac.replace(/(..)(?!$)/g, '$1:');
const message = (text: string | RegExp) => page.locator('.ant-message').getByText(text);
const gateways = () => api(site.server.url, gatewayEndpoints.list, {}, { token });

describe('gateways in a real browser with simulated gateways', () => {
  it('binds a gateway by MAC onto a chosen map and watches it come online', async () => {
    const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const project = tree.projects.find((p) => p.isDefault)!;
    const building = project.builds[0]!;
    const map = building.maps[0]!;

    await page.goto(`${site.server.url}/gateway/list`);
    await page.getByRole('button', { name: 'Bind gateway' }).click();
    const dialog = page.getByRole('dialog');
    // A malformed MAC is refused before anything is sent.
    await dialog.getByLabel('MAC').fill('12:34');
    await dialog.getByRole('button', { name: 'Bind' }).click();
    await dialog.getByText('Enter a MAC of twelve hex digits').waitFor();
    await dialog.getByLabel('MAC').fill(colons(sim(0).mac).toLowerCase());
    await dialog.getByLabel('Name').click();
    // The look-up says the gateway is in the pool; it has not connected yet.
    await dialog.getByText('This gateway is free and can be bound (Offline).').waitFor();
    await dialog.getByLabel('Name').fill('Lobby gateway');
    // The map last looked at is chosen already; another is chosen through the selector.
    await dialog.locator('.ant-cascader').filter({ hasText: map.name }).click();
    await page.locator('.ant-cascader-menu-item').filter({ hasText: project.name }).first().click();
    await page.locator('.ant-cascader-menu-item').filter({ hasText: building.name }).first().click();
    await page.locator('.ant-cascader-menu').nth(2).locator('.ant-cascader-menu-item').filter({ hasText: map.name }).first().click();
    await screenshot(page, 'gateway-bind');
    await dialog.getByRole('button', { name: 'Bind' }).click();
    await message('Gateway Lobby gateway was bound').waitFor();

    const row = page.locator('.ant-table-row').filter({ hasText: 'Lobby gateway' });
    await row.getByText('Offline').waitFor();
    await site.start();
    // Presence is pushed on /topic/gateway_status (the list itself looks again only every 60 s).
    await row.getByText('Online').waitFor({ timeout: 10_000 });
    await row.getByText(sim(0).info().ip).waitFor();
    // It came online running no configuration of the cloud's: it is sent it without anyone pressing sync.
    await row.getByText('Synchronized', { exact: true }).waitFor();
    await screenshot(page, 'gateway-list');
  });

  it('syncs the gateway through the header banner: confirm, progress, done', async () => {
    // A change made in the cloud (a group of its lights) waits for someone to sync the gateway.
    const lobby = (await gateways()).list.find((g) => g.name === 'Lobby gateway')!;
    const on = { params: { mapId: lobby.mapId!, gatewayId: lobby.id } };
    await api(site.server.url, gatewayEndpoints.importDevices, { params: { id: lobby.id } }, { token });
    const light = (await api(site.server.url, gatewayEndpoints.outmapDevices, on, { token })).find((d) => d.kind.startsWith('light-'))!;
    await api(
      site.server.url,
      deviceEndpoints.moveIn,
      { body: { mapId: lobby.mapId!, devices: [{ id: light.id, x: 0.5, y: 0.5 }] } },
      { token },
    );
    // What the import and the placing send the gateway goes first; the group is made once it is synced.
    const synced = async () => (await gateways()).list.find((g) => g.id === lobby.id)?.syncStatus === SYNC_STATUS.synced;
    await poll(synced, 'the gateway synced after the import');
    const group = { mapId: lobby.mapId!, gatewayId: lobby.id, name: 'Lobby lights', deviceIds: [light.id] };
    await api(site.server.url, groupEndpoints.add, { body: group }, { token });
    expect(await synced()).toBe(false);
    const banner = page.getByTestId('sync-banner');
    await banner.getByText('Gateways not synced: 1').waitFor();
    await banner.getByText('Details').click();
    const list = page.getByRole('dialog').filter({ hasText: 'Gateways not synchronized' });
    await list.waitFor();
    // Spec section 9: the modal is 720 px wide (its style, not its size while it zooms in).
    expect(await list.evaluate((node) => getComputedStyle(node.closest('.ant-modal') ?? node).width)).toBe('720px');
    const row = list.locator('.ant-table-row').filter({ hasText: 'Lobby gateway' });
    await row.getByText('Default project').waitFor();
    await screenshot(page, 'gateway-sync-modal');
    await row.getByText('Sync', { exact: true }).click();
    // The confirm sits by the row, not in a second modal over the list.
    const confirm = page.locator('.ant-popconfirm');
    await confirm.getByText('Send the current configuration to Lobby gateway?').waitFor();
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Sync' }).click();
    // The progress takes the list's place in the same dialog, titled by how the sync stands.
    const progress = list.getByTestId('sync-progress');
    await progress.waitFor();
    await progress.getByText('Lobby gateway is synchronized').waitFor();
    await progress.getByTestId('sync-progress-title').getByText('Lobby gateway: synchronized').waitFor();
    expect(await progress.locator('.ant-progress').getAttribute('aria-valuenow')).toBe('100');
    expect(await page.locator('.ant-modal').count()).toBe(1);
    await screenshot(page, 'gateway-sync-done');
    await progress.getByRole('button', { name: 'Back to the list' }).click();
    await progress.waitFor({ state: 'detached' });
    // Nothing left to sync: the list says so rather than "No data".
    await list.getByText('Every gateway is synchronized.', { exact: false }).waitFor();
    await list.locator('.ant-modal-close').click();
    await banner.waitFor({ state: 'detached' });
    const [gateway] = (await gateways()).list;
    expect(gateway).toMatchObject({ name: 'Lobby gateway', syncStatus: 3 });
  });

  it('shows every field on the detail page and updates the firmware with progress and the notice', async () => {
    await page.locator('.ant-table-row').filter({ hasText: 'Lobby gateway' }).getByRole('link', { name: 'Lobby gateway' }).click();
    const fields = page.getByTestId('gateway-fields');
    const info = sim(0).info();
    await fields.getByText(info.panId, { exact: true }).waitFor();
    await fields.getByText(info.networkAddress, { exact: true }).waitFor();
    await page.getByTestId('gateway-versions').getByText('3.2.1').waitFor();
    await screenshot(page, 'gateway-detail');

    await page.getByRole('button', { name: 'Firmware update' }).click();
    const modal = page.getByTestId('firmware-modal');
    await modal.getByRole('button', { name: 'Check for update' }).click();
    await modal.getByText('Version 3.3.0 is available').waitFor();
    await modal.getByRole('button', { name: 'Update', exact: true }).click();
    // Confirmed by the button, not in a modal stacked on the firmware one.
    const confirm = page.locator('.ant-popconfirm');
    await confirm.getByText('Update Lobby gateway to version 3.3.0?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Update' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await modal.getByTestId('firmware-progress').locator('.ant-progress').waitFor();
    await screenshot(page, 'gateway-firmware-progress');
    // The result from the progress call, and the real-time notice the shell shows.
    await modal.locator('.ant-result').getByText('Gateway Lobby gateway was updated successfully.').waitFor({ timeout: 40_000 });
    await page.locator('.ant-notification').getByText('Gateway Lobby gateway was updated successfully.').waitFor();
    await screenshot(page, 'gateway-firmware-done');
    await page.locator('.ant-notification-notice-close').click();
    await page.locator('.ant-modal-wrap').filter({ has: modal }).locator('.ant-modal-close').click();
    await modal.waitFor({ state: 'detached' });
    const detail = await api(site.server.url, gatewayEndpoints.detail, { params: { id: (await gateways()).list[0]!.id } }, { token });
    expect(detail.versions.gateway).toBe('3.3.0');
  });

  it('shows the gateway going offline and coming back live, without reloading', async () => {
    // The detail page does not poll an idle gateway: only /topic/gateway_status can change the tag.
    await expect.poll(() => page.getByTestId('gateway-presence').textContent()).toBe('Online');
    // The connection lost, not a goodbye: shown once the presence grace is over.
    await sim(0).goOffline();
    await page.getByTestId('gateway-presence').getByText('Offline').waitFor({ timeout: 8_000 });
    await sim(0).goOnline();
    await page.getByTestId('gateway-presence').getByText('Online').waitFor({ timeout: 8_000 });
  });

  it('restarts the gateway: confirm, offline while restarting, then back online', async () => {
    await page.getByRole('button', { name: 'Restart' }).click();
    await page.locator('.ant-modal-confirm').getByText('Restart Lobby gateway?', { exact: false }).waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Restart' }).click();
    await message('Lobby gateway is restarting').waitFor();
    await message('Lobby gateway is back online').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('gateway-presence').textContent()).toBe('Online');
  });
  it('reads the clock against the cloud, syncs it, and sets longitude and latitude by the rules of spec section 5', async () => {
    // The site keeps Auckland time (its gateway's zone): its times are on that clock, the zone named.
    const id = (await gateways()).list[0]!.id;
    await api(site.server.url, gatewayEndpoints.setParams, { body: { id, timezone: 'Pacific/Auckland' } }, { token });
    await page.reload();
    const seen = (await api(site.server.url, gatewayEndpoints.detail, { params: { id } }, { token })).lastSeenAt!;
    const auckland = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Pacific/Auckland',
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).format(new Date(seen));
    await page
      .getByTestId('gateway-last-seen')
      .filter({ hasText: new RegExp(`^\\d{2} [A-Z][a-z]{2} \\d{4}, ${auckland} \\(Pacific/Auckland\\)$`) })
      .waitFor();

    await page.getByRole('button', { name: 'Clock' }).click();
    const clock = page.getByTestId('gateway-clock');
    await clock.getByText(/^Gateway time: \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} \(Pacific\/Auckland\)$/).waitFor();
    await clock.getByText(/^Cloud time: \d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} \(Pacific\/Auckland\)$/).waitFor();
    await screenshot(page, 'gateway-clock');
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Sync clock' }).click();
    await message(/Gateway clock set to/).waitFor();

    await page.getByText('Longitude/latitude', { exact: true }).click();
    const form = page.getByTestId('lonlat-form');
    await form.getByLabel('Longitude').fill('200');
    await form.getByLabel('Latitude').fill('22.285');
    await page.getByRole('dialog').filter({ has: form }).getByRole('button', { name: 'Save' }).click();
    await form.getByText('Longitude is a number from -180 to 180 with at most two decimals').waitFor();
    await form.getByText('Latitude is a number from -90 to 90 with at most two decimals').waitFor();
    await form.getByLabel('Longitude').fill('114.17');
    await form.getByLabel('Latitude').fill('22.28');
    await page.getByRole('dialog').filter({ has: form }).getByRole('button', { name: 'Save' }).click();
    await message('Saved').waitFor();
    await page.getByTestId('gateway-fields').getByText('114.17').waitFor();
  });

  it('opens the network for pairing, switches the sensor mode and sets the microwave sensors', async () => {
    await page.getByTestId('gateway-open-network').click();
    const network = page.getByRole('dialog').filter({ hasText: 'Open the network for pairing' });
    await network.getByText('Open for 60 s').waitFor();
    await screenshot(page, 'gateway-open-network');
    await network.getByRole('button', { name: 'Open' }).click();
    await message('The network of Lobby gateway is open for 60 s; import the new devices afterwards').waitFor();

    await page.getByTestId('gateway-sensors').hover();
    await page.getByRole('menuitem', { name: 'Sensors follow the linkage' }).click();
    await page.locator('.ant-modal-confirm').getByText('drive the linkage of the synced configuration', { exact: false }).waitFor();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Apply' }).click();
    await message('2 sensors now follow the linkage').waitFor();
    await page.getByTestId('gateway-fields').getByText('Default linkage').waitFor();
    expect(sim(0).params.sensorMode).toBe('linkage');

    await page.getByTestId('gateway-sensors').hover();
    await page.getByRole('menuitem', { name: 'Microwave sensor parameters' }).click();
    const form = page.getByTestId('microwave-form');
    await form.getByLabel('Hold time (s)').fill('125');
    await form.getByLabel('Standby brightness (%)').fill('40');
    const dialog = page.getByRole('dialog').filter({ has: form });
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The messages are the server's own for these rows of spec section 5.
    await form.getByText('Hold time must be 10-2540 and a multiple of 10').waitFor();
    await form.getByText('Minimum brightness must be 0-30').waitFor();
    await screenshot(page, 'gateway-microwave-invalid');
    await form.getByLabel('Hold time (s)').fill('120');
    await form.getByLabel('Standby brightness (%)').fill('10');
    await form.getByLabel('Brightness on detection (%)').fill('80');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await message('Parameters set on 1 microwave sensors').waitFor();
    expect(sim(0).microwave).toMatchObject({ holdS: 120, level: 203, standbyLevel: 25 });
  });
});

describe('a super gateway: imported devices and its bridges', () => {
  it('imports the joined devices with their counts and lists the bridges with the bridge quantity', async () => {
    const tree = await api(site.server.url, projectEndpoints.tree, { params: { id: '0' } }, { token });
    const mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;
    const superGateway = await api(
      site.server.url,
      gatewayEndpoints.bind,
      { body: { mac: sim(1).mac, mapId, name: 'Roof super gateway' } },
      { token },
    );
    expect(superGateway.superGateway).toBe(true);
    await page.goto(`${site.server.url}/gateway/detail?id=${superGateway.id}`);
    await page.getByTestId('bridge-quantity').getByText('Bridge quantity: 0').waitFor();
    await page.getByRole('button', { name: 'Import devices' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText(/The gateway reports \d+ devices, \d+ of them new/).waitFor();
    await confirm.getByRole('button', { name: 'Import devices' }).click();
    await message(/devices imported; the gateway now has \d+/).waitFor();
    await page
      .getByTestId('bridge-quantity')
      .getByText(/Bridge quantity: [1-9]/)
      .waitFor();
    await confirm.waitFor({ state: 'detached' });
    await page.getByText('Wi-SUN bridge', { exact: true }).first().waitFor();
    await screenshot(page, 'gateway-super-bridges');
  });

  it('speaks Japanese on the list and in the sync details', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.goto(`${site.server.url}/gateway/list`);
    await page.getByRole('button', { name: 'ゲートウェイを登録' }).waitFor();
    const banner = page.getByTestId('sync-banner');
    await banner.getByText('詳細').click();
    await page.getByRole('dialog').getByText('未同期のゲートウェイ').waitFor();
    await page.getByRole('dialog').locator('.ant-table-row').first().waitFor();
    await screenshot(page, 'gateway-sync-modal-ja');
  });

  it('holds a sync the gateway never acknowledges at 99%, then shows the localised failure', async () => {
    // Lost on the way in: the gateway neither applies nor answers (a lost reply alone would still sync,
    // because the gateway's state reports the version it runs).
    sim(1).faults.lost = new Set(['config.apply']);
    const dialog = page.getByRole('dialog').filter({ hasText: '未同期のゲートウェイ' });
    const row = dialog.locator('.ant-table-row').filter({ hasText: 'Roof super gateway' });
    await row.getByText('同期', { exact: true }).click();
    // antd spaces out a two-character CJK label ("同 期"), so the confirm's button is found by its class.
    await page.locator('.ant-popconfirm').getByText('現在の設定を Roof super gateway に送信しますか？').waitFor();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    const progress = page.getByTestId('sync-progress');
    await progress.waitFor();
    const percent = async () => Number(await progress.locator('.ant-progress').getAttribute('aria-valuenow'));
    // The bar rises step by step (1 % per 100 ms): it is seen part-way before it stops at 99.
    await poll(async () => (await percent()) >= 20, 'the sync bar part-way');
    expect(await percent()).toBeLessThan(99);
    await screenshot(page, 'gateway-sync-progress-ja');
    await poll(async () => (await percent()) === 99, 'the sync bar held at 99 %');
    // The server gives up after 25 s (100109) and answers in the user's language.
    await progress.getByText('データ同期に異常があります').waitFor({ timeout: 40_000 });
    await progress.getByText('同期に失敗しました').waitFor();
    // The bar stays where it stopped (99) rather than falling back to 0.
    expect(await progress.locator('.ant-progress').getAttribute('aria-valuenow')).toBe('99');
    await screenshot(page, 'gateway-sync-failed-ja');
    sim(1).faults.lost = new Set();
  });

  it('unbinds the super gateway from the list after a confirm; it leaves the list and the banner', async () => {
    await page.getByTestId('sync-progress').getByRole('button').click();
    await page.getByTestId('sync-progress').waitFor({ state: 'detached' });
    await page.locator('.ant-modal-wrap').locator('.ant-modal-close').click();
    await page.getByTestId(`gateway-more-${sim(1).mac}`).hover();
    await page.getByRole('menuitem', { name: '登録解除' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('Roof super gateway の登録を解除しますか？', { exact: false }).waitFor();
    await confirm.locator('.ant-btn-dangerous').click();
    await message('Roof super gateway の登録を解除しました').waitFor();
    await page.locator('.ant-table-row').filter({ hasText: 'Roof super gateway' }).waitFor({ state: 'detached' });
    await page.getByTestId('sync-banner').waitFor({ state: 'detached' });
    expect((await gateways()).list.map((g) => g.name)).toEqual(['Lobby gateway']);
  });

  it('offers the network and sensor actions from the list in Japanese', async () => {
    await page.getByTestId(`gateway-more-${sim(0).mac}`).hover();
    await page.getByRole('menuitem', { name: 'ネットワークを開放' }).waitFor();
    await page.getByRole('menuitem', { name: 'センサーを独立動作に' }).waitFor();
    await page.getByRole('menuitem', { name: 'マイクロ波センサーのパラメータ' }).click();
    const form = page.getByTestId('microwave-form');
    await form.getByLabel('検知時の明るさ（%）').fill('150');
    await page.getByRole('dialog').filter({ has: form }).locator('.ant-btn-primary').click();
    await form.getByText('明るさは0～100で入力してください').waitFor();
    await screenshot(page, 'gateway-microwave-ja');
    await page.getByRole('dialog').filter({ has: form }).locator('.ant-modal-close').click();
    await form.waitFor({ state: 'detached' });
  });
});
