import {
  authEndpoints,
  deviceEndpoints,
  gatewayEndpoints,
  mapEndpoints,
  projectEndpoints,
  type Gateway,
  type GatewayDevice,
  type LoginResult,
} from '@lumigrid/contract';
import type { Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { api, poll } from './api.ts';
import { openBrowser, recordApiCalls, reportFailure, storeSession, type TestBrowser } from './browser.ts';
import { startGatewaySite, type GatewaySite } from './gateways.ts';
import { ADMIN_PASSWORD } from './server.ts';

export interface GatewayJourney {
  /** Starts the gateway site the journey runs against; it is stopped after the file's tests. */
  startSite(options?: Parameters<typeof startGatewaySite>[0]): Promise<GatewaySite>;
  /**
   * Opens the journey's browser with the session of `login` stored (none: signed out, on no page), recording its
   * API calls for failure reports; `browser` chooses the window (a phone: `PHONE`).
   */
  openPage(login: LoginResult | undefined, browser?: Parameters<typeof openBrowser>[0]): Promise<Page>;
}

/**
 * The hooks a browser journey against a gateway site shares: on a failed test a report named `name` (screenshot,
 * the page's API calls, the server's last output), and after the file the browser closed and the site stopped.
 * Call it at the top level of a test file, then `startSite` and `openPage` from its `beforeAll`.
 */
export function gatewayJourney(name: string): GatewayJourney {
  let site: GatewaySite | undefined;
  let browser: TestBrowser | undefined;
  let journal: string[] = [];

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && browser && site)
      await reportFailure(browser.page, name, context.task.name, journal, site.server.output().slice(-3000));
  });

  afterAll(async () => {
    await browser?.close();
    await site?.stop();
  });

  return {
    async startSite(options) {
      site = await startGatewaySite(options);
      return site;
    },
    async openPage(login, options) {
      if (!site) throw new Error('openPage before startSite: the session is stored on the site');
      browser = await openBrowser(options);
      journal = recordApiCalls(browser.page);
      if (login) await storeSession(browser.page, site.server.url, login);
      return browser.page;
    },
  };
}

/** Gives a map a floor plan (a PNG), uploaded as the project screen does: the map id before the file. */
export async function uploadFloorPlan(url: string, token: string, mapId: string, png: Buffer): Promise<void> {
  const form = new FormData();
  form.append('id', mapId);
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'plan.png');
  await api(url, mapEndpoints.upload, { body: form }, { token });
}

/** A gateway site made ready for a journey: the administrator signed in, the gateway bound, online and imported. */
export interface PlacedSite {
  login: LoginResult;
  token: string;
  mapId: string;
  gateway: Gateway;
  devices: GatewayDevice[];
}

/**
 * The set-up most device journeys share: the administrator's (or `signIn`'s) default map (with a floor plan when given), the
 * site's first simulated gateway bound to it under `gatewayName`, brought online, its devices imported, and
 * the devices `place` picks placed on the map at fractions of its width and height.
 */
export async function placeGatewayDevices(
  site: GatewaySite,
  options: {
    gatewayName: string;
    floorPlan?: Buffer;
    place: (byKind: (kind: string) => GatewayDevice, devices: GatewayDevice[]) => Array<{ id: string; x: number; y: number }>;
    /** Who sets the site up and signs in (the administrator by default). */
    signIn?: { account: string; password: string };
  },
): Promise<PlacedSite> {
  const url = site.server.url;
  const login = await api(url, authEndpoints.login, { body: options.signIn ?? { account: 'admin', password: ADMIN_PASSWORD } });
  const token = login.access_token;
  const tree = await api(url, projectEndpoints.tree, { params: { id: '0' } }, { token });
  const mapId = tree.projects.find((p) => p.isDefault)!.builds[0]!.maps[0]!.id;
  if (options.floorPlan) await uploadFloorPlan(url, token, mapId, options.floorPlan);
  const mac = site.fleet.gateways[0]!.mac;
  const gateway = await api(url, gatewayEndpoints.bind, { body: { mac, mapId, name: options.gatewayName } }, { token });
  await site.start();
  await poll(async () => (await api(url, gatewayEndpoints.list, {}, { token })).list[0]?.online === true, 'gateway online');
  await api(url, gatewayEndpoints.importDevices, { params: { id: gateway.id } }, { token });
  const devices = await api(url, gatewayEndpoints.outmapDevices, { params: { mapId, gatewayId: gateway.id } }, { token });
  const byKind = (kind: string) => {
    const device = devices.find((d) => d.kind === kind);
    if (!device) throw new Error(`the simulated gateway has no ${kind}`);
    return device;
  };
  await api(url, deviceEndpoints.moveIn, { body: { mapId, devices: options.place(byKind, devices) } }, { token });
  return { login, token, mapId, gateway, devices };
}
