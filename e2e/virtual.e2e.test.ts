import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  groupEndpoints,
  newSceneFields,
  projectEndpoints,
  sceneEndpoints,
  virtualEndpoints as V,
  type GatewayDevice,
} from '@lumigrid/contract';
import { api, poll } from './support/api.ts';
import { screenshot } from './support/browser.ts';
import { floorPlanPng } from './support/floor-plan.ts';
import { gatewayJourney, placeGatewayDevices, type PlacedSite } from './support/journey.ts';
import type { GatewaySite } from './support/gateways.ts';

// Parameter sets and virtual devices as an installer meets them: a functional parameter set made in its
// dialog and applied to three dimmers with a result for each; a virtual light placed on the floor plan, in a
// group and a scene, then related to the real dimmer that replaces it and unrelated again; the same pages in
// Japanese.

let site: GatewaySite;
let placed: PlacedSite;
let page: Page;
let dimmers: GatewayDevice[];
let projectId: string;

const journey = gatewayJourney('virtual');
/** A parameter field of the set dialog (antd puts the test id on the input itself). */
const paramInput = (name: string) => page.locator(`input[data-testid=template-param-${name}], [data-testid=template-param-${name}] input`);
const call = <E extends Parameters<typeof api>[1]>(endpoint: E, input: Parameters<typeof api<E>>[2]) =>
  api(site.server.url, endpoint, input, { token: placed.token });

beforeAll(async () => {
  site = await journey.startSite({ count: 1, sim: { devicesPerKind: 4 } });
  placed = await placeGatewayDevices(site, {
    gatewayName: 'Floor gateway',
    floorPlan: floorPlanPng(1200, 800),
    place: (_find, devices) =>
      devices
        .filter((d) => d.kind === 'light-dimmer')
        .slice(0, 3)
        .map((d, i) => ({ id: d.id, x: 0.15 + i * 0.12, y: 0.3 })),
  });
  dimmers = placed.devices.filter((d) => d.kind === 'light-dimmer');
  const tree = await call(projectEndpoints.tree, { params: { id: '0' } });
  projectId = tree.projects.find((p) => p.isDefault)!.id;
  page = await journey.openPage(placed.login);
  await page.setViewportSize({ width: 1440, height: 960 });
}, 180_000);

afterAll(async () => {
  await page?.evaluate(() => localStorage.setItem('lang', 'en')).catch(() => undefined);
});

describe('parameter sets and virtual devices', () => {
  it('makes a functional parameter set and applies it to three devices with a result for each', async () => {
    await page.goto(`${site.server.url}/system/functionParameter`);
    await page.getByText('Functional parameters').first().waitFor();
    await page.getByTestId('template-add').click();
    await page.getByTestId('template-name').fill('Corridor night');
    await page.getByTestId('template-type').click();
    await page.keyboard.type('Dimmer');
    await page.keyboard.press('Enter');
    await paramInput('fadeTime').fill('300');
    await page.getByRole('button', { name: 'Save' }).click();
    // The range is the contract's: the same words the server would answer.
    await page.getByText('Fade time must be 0-254').first().waitFor();
    await paramInput('fadeTime').fill('40');
    await paramInput('minBrightness').fill('10');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Parameter set saved').waitFor();
    await page.getByText('Fade time: 40').waitFor();

    await page.getByTestId('template-apply-Corridor night').click();
    const modal = page.getByTestId('apply-modal');
    await modal.locator('.ant-table-row').first().waitFor();
    // The placed dimmers of the map: the template's type only.
    expect(await modal.locator('.ant-table-row').count()).toBe(3);
    for (const d of dimmers.slice(0, 3)) await modal.locator(`[data-row-key="${d.id}"] .ant-checkbox-input`).check();
    await page.getByTestId('apply-start').click();
    for (const d of dimmers.slice(0, 3)) await page.getByTestId(`apply-ok-${d.id}`).waitFor();
    await modal.getByText('Done: 3 set, 0 failed').waitFor();
    await screenshot(page, 'virtual-params-apply');
    for (const d of dimmers.slice(0, 3))
      expect(site.fleet.gateways[0]!.devices.get(d.addr)!.params).toMatchObject({ fadeTime: 40, minBrightness: 10 });
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByText('3 devices · 0 virtual').waitFor();
    await screenshot(page, 'virtual-params-function');

    await call(V.buildTemplate, {
      body: { name: 'Report each minute', kind: 'interface', deviceType: dimmers[0]!.type, params: { reportInterval: 60, maxPower: 90 } },
    });
    await page.goto(`${site.server.url}/system/interfaceParameter`);
    await page.getByText('Interface parameters').first().waitFor();
    await page.getByText('Report interval: 60 s').waitFor();
    await screenshot(page, 'virtual-params-interface');
  });

  it('places a virtual device on the plan, relates it to a real device and unrelates it', async () => {
    const [member, , , spare] = dimmers;
    const group = await call(groupEndpoints.add, {
      body: { mapId: placed.mapId, gatewayId: placed.gateway.id, name: 'Hall', deviceIds: [member!.id] },
    });
    const scene = await call(sceneEndpoints.add, {
      body: {
        ...newSceneFields(projectId, 'manual', 'Evening'),
        steps: [{ holdS: 0, members: [{ type: 'device', id: member!.id, action: { on: true, percent: 30 } }] }],
      },
    });
    const [virtual] = await call(V.buildVirtual, {
      body: { mapId: placed.mapId, gatewayId: placed.gateway.id, type: member!.type, count: 1, name: 'Planned light', x: 0.8, y: 0.75 },
    });
    await call(V.updateVirtual, {
      body: { id: virtual!.id, groupIds: [group.id], scenes: [{ sceneId: scene.scene.id, step: 0, action: { on: true, percent: 60 } }] },
    });

    await page.goto(`${site.server.url}/device/control`);
    await page.getByTestId(`virtual-marker-${virtual!.id}`).waitFor();
    await page.getByTestId('virtual-item-Planned light').waitFor();
    await page.getByTestId(`virtual-marker-${virtual!.id}`).click();
    const panel = page.getByTestId('virtual-panel');
    await panel.getByText('Relate to a real device').waitFor();
    await panel.getByText('Hall').waitFor();
    await screenshot(page, 'virtual-map');

    await page.getByTestId('virtual-candidate').click();
    await page.locator('.ant-select-item-option', { hasText: spare!.name }).first().click();
    await page.getByTestId('virtual-relate').click();
    await page.getByText(`${spare!.name} now takes the virtual device's place`).waitFor();
    await page.getByTestId(`virtual-marker-${virtual!.id}`).waitFor({ state: 'detached' });
    await page.getByTestId('virtual-related-Planned light').waitFor();
    const detail = await call(V.details, { params: { id: virtual!.id } });
    expect(detail.related?.deviceId).toBe(spare!.id);
    await poll(
      async () => site.fleet.gateways[0]!.config.groups.find((g) => g.name === 'Hall')?.devices.includes(spare!.addr) === true,
      'the gateway runs the real device in the group',
    );
    await screenshot(page, 'virtual-map-related');

    await page.getByTestId('virtual-unrelate-Planned light').click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Relation undone').waitFor();
    await page.getByTestId(`virtual-marker-${virtual!.id}`).waitFor();
    expect((await call(V.details, { params: { id: virtual!.id } })).related).toBeNull();
  });

  it('shows the parameter pages and the virtual device in Japanese', async () => {
    await page.evaluate(() => localStorage.setItem('lang', 'ja'));
    await page.goto(`${site.server.url}/system/functionParameter`);
    await page.getByText('機能パラメータ').first().waitFor();
    await page.getByText('デバイス 3 台・仮想 0 台').waitFor();
    await screenshot(page, 'virtual-params-function-ja');
    await page.goto(`${site.server.url}/system/interfaceParameter`);
    await page.getByText('インターフェースパラメータ').first().waitFor();
    await screenshot(page, 'virtual-params-interface-ja');
    await page.goto(`${site.server.url}/device/control`);
    await page.getByText('仮想デバイス').first().waitFor();
    const [virtual] = await call(V.unrelated, { params: { mapId: placed.mapId, gatewayId: '0' } });
    await page.getByTestId(`virtual-marker-${virtual!.id}`).click();
    await page.getByText('実デバイスに関連付け').waitFor();
    await screenshot(page, 'virtual-map-ja');
  });
});
