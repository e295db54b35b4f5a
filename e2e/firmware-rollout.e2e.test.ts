import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { authEndpoints, platformEndpoints } from '@lumigrid/contract';
import { ADMIN_PASSWORD } from './support/server.ts';
import { api, poll } from './support/api.ts';
import { screenshot } from './support/browser.ts';
import type { GatewaySite } from './support/gateways.ts';
import { gatewayJourney } from './support/journey.ts';

// The platform administrator rolls a gateway firmware out over the fleet in waves from the rollouts page: one
// gateway of the first wave fails its update, the rollout pauses at its threshold as the page shows without a
// reload, and a resume finishes it.

const GATEWAYS = 6;
const WAVE = 3;
const NEW_FIRMWARE = { target: 'gateway' as const, version: '3.3.0', url: 'https://firmware.example.com/lg-gw-3.3.0.bin' };

let site: GatewaySite;
let page: Page;
let token: string;

const journey = gatewayJourney('firmware-rollout');

beforeAll(async () => {
  // A rollout step every second, so the waves move on at the pace of the simulated updates.
  site = await journey.startSite({ count: GATEWAYS, firmware: [NEW_FIRMWARE], env: { ROLLOUT_CHECK_S: '1' } });
  await site.start();
  const login = await api(site.server.url, authEndpoints.login, { body: { account: 'admin', password: ADMIN_PASSWORD } });
  token = login.access_token;
  // Every gateway has said which firmware it runs.
  await poll(async () => {
    const overview = await api(site.server.url, platformEndpoints.overview, {}, { token });
    return overview.firmware.some((f) => f.version !== '' && f.count === GATEWAYS);
  }, 'every gateway reporting its firmware');
  page = await journey.openPage(login);
});

describe('a fleet firmware rollout in a real browser', () => {
  it('pauses at the failure threshold live, and finishes on resume', async () => {
    const firstWave = [...site.fleet.gateways].sort((a, b) => a.mac.localeCompare(b.mac)).slice(0, WAVE);
    firstWave[1]!.faults.failUpdates = true;

    await page.goto(`${site.server.url}/home`);
    await page.getByTestId('platform-firmware-table').getByText(String(GATEWAYS), { exact: true }).waitFor();

    await page.goto(`${site.server.url}/system/rollout`);
    await page.getByTestId('rollout-new').click();
    const form = page.getByTestId('rollout-form');
    await form.locator('.ant-form-item', { hasText: 'Firmware' }).first().locator('.ant-select-selector').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: NEW_FIRMWARE.version }).click();
    await form.getByLabel('Gateways per wave').fill(String(WAVE));
    await form.getByLabel('Updates at once').fill(String(WAVE));
    await form.getByLabel('Pause when a wave fails more than (%)').fill('20');
    await screenshot(page, 'firmware-rollout-form');
    await page.getByRole('button', { name: 'Start rollout' }).click();
    await form.waitFor({ state: 'detached' });

    const [rollout] = await api(site.server.url, platformEndpoints.rollouts, {}, { token });
    const state = page.getByTestId(`rollout-state-${rollout!.id}`);
    // Pushed on the live topic: the page is never reloaded.
    await page.locator(`[data-testid=rollout-state-${rollout!.id}][data-state=paused]`).waitFor();
    await state.page().getByText('Failures passed the threshold').waitFor();
    await page.getByTestId(`rollout-progress-${rollout!.id}`).getByText('2 updated · 1 failed · 3 waiting').waitFor();
    await screenshot(page, 'firmware-rollout-paused');
    const later = [...site.fleet.gateways].sort((a, b) => a.mac.localeCompare(b.mac)).slice(WAVE);
    expect(later.map((g) => g.versions.gateway)).not.toContain(NEW_FIRMWARE.version);

    await page.getByTestId(`rollout-resume-${rollout!.id}`).click();
    await page.locator(`[data-testid=rollout-state-${rollout!.id}][data-state=done]`).waitFor();
    await page.getByTestId(`rollout-progress-${rollout!.id}`).getByText('5 updated · 1 failed · 0 waiting').waitFor();
    await screenshot(page, 'firmware-rollout-done');
    expect(later.map((g) => g.versions.gateway)).toEqual(later.map(() => NEW_FIRMWARE.version));
  });
});
