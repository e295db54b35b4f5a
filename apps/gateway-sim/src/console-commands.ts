import { EMERGENCY_FAILURES, EMERGENCY_LIGHT_TYPES, type EmergencyFailure, type EmergencyLightType } from '@lumigrid/protocol';
import type { EmergencyLightSettings } from './emergency.ts';
import type { Fleet } from './fleet.ts';
import type { SimGateway } from './gateway.ts';

export const CONSOLE_HELP = [
  'commands, one a line (GW: a gateway MAC or its number from 1; ADDR: a device address):',
  '  devices GW            list the gateway devices with their fault codes',
  '  fault GW ADDR CODE    raise fault CODE (1-9; 2 takes it offline)',
  '  clear GW ADDR         clear its fault',
  '  flap GW ADDR          let it drop off and come back at every activity interval',
  '  steady GW ADDR        stop its flapping',
  '  updates GW fail|hang|ok  make its firmware updates fail while installing, go silent (timeout), or succeed',
  '  backfill GW DAYS [M]  send DAYS of energy history, a sample every M minutes (default 15); GW may be all',
  '  emergency GW ADDR [age=YEARS] [charge=PERCENT] [cells=N] [type=maintained|non-maintained]',
  '                     [failure=battery|lamp|circuit|communication|none]  set an emergency light battery',
].join('\n');

function gatewayOf(fleet: Fleet, ref: string | undefined): SimGateway | undefined {
  if (!ref) return undefined;
  const n = Number(ref);
  return Number.isInteger(n) && n >= 1 ? fleet.gateways[n - 1] : fleet.get(ref.toUpperCase());
}

/** Sends energy history from each gateway and answers one line per gateway. */
async function backfill(gateways: SimGateway[], daysRaw: string | undefined, stepRaw: string | undefined): Promise<string> {
  const days = Number(daysRaw);
  const stepMinutes = stepRaw === undefined ? 15 : Number(stepRaw);
  if (!(days > 0) || !(stepMinutes >= 1)) return 'backfill needs days above 0 and a step of at least 1 minute';
  const lines = await Promise.all(
    gateways.map((g) =>
      g.backfillEnergy({ days, stepMinutes }).then(
        (done) => `${g.mac}: ${done.samples} energy samples from ${new Date(done.from).toISOString()} sent`,
        (error: Error) => `${g.mac}: backfill failed: ${error.message}`,
      ),
    ),
  );
  return lines.join('\n');
}

/**
 * Carries out one line typed at the simulator (faults on demand, energy history) and answers what to print;
 * a backfill answers when it is done.
 */
export function runConsoleCommand(fleet: Fleet, line: string): string | Promise<string> {
  const [command, ref, addrRaw, codeRaw] = line.trim().split(/\s+/);
  if (!command) return '';
  if (command === 'help') return CONSOLE_HELP;
  if (command === 'backfill' && ref === 'all') return backfill(fleet.gateways, addrRaw, codeRaw);
  const gateway = gatewayOf(fleet, ref);
  if (!gateway) return `no gateway ${ref ?? ''}; ${CONSOLE_HELP.split('\n')[0]}`;
  if (command === 'backfill') return backfill([gateway], addrRaw, codeRaw);
  if (command === 'updates') return setUpdateFault(gateway, addrRaw);
  if (command === 'devices') {
    return [...gateway.devices.values()].map((d) => `${d.state.addr} ${d.state.kind} fault ${d.state.fault}`).join('\n');
  }
  const addr = addrRaw?.toUpperCase();
  if (!addr || !gateway.devices.has(addr)) return `no device ${addrRaw ?? ''} on ${gateway.mac}`;
  switch (command) {
    case 'fault': {
      const code = Number(codeRaw);
      if (!Number.isInteger(code) || code < 1 || code > 9) return 'the fault code is 1-9';
      gateway.raiseFault(addr, code);
      return `${gateway.mac} ${addr}: fault ${code}`;
    }
    case 'clear':
      gateway.clearFault(addr);
      return `${gateway.mac} ${addr}: cleared`;
    case 'flap':
      gateway.faults.flapping.add(addr);
      return `${gateway.mac} ${addr}: flapping`;
    case 'steady':
      gateway.faults.flapping.delete(addr);
      return `${gateway.mac} ${addr}: steady`;
    case 'emergency':
      return setEmergencyLight(gateway, addr, line.trim().split(/\s+/).slice(3));
    default:
      return `unknown command ${command}; ${CONSOLE_HELP.split('\n')[0]}`;
  }
}

/** `updates GW fail|hang|ok`: how the gateway's next firmware updates end (a fleet rollout's failures on demand). */
function setUpdateFault(gateway: SimGateway, how: string | undefined): string {
  if (how !== 'fail' && how !== 'hang' && how !== 'ok') return 'updates takes fail, hang or ok';
  gateway.faults.failUpdates = how === 'fail';
  gateway.faults.hangUpdates = how === 'hang';
  return `${gateway.mac}: firmware updates ${how === 'ok' ? 'succeed' : how === 'fail' ? 'fail' : 'go silent'}`;
}

/** `emergency GW ADDR key=value ...`: sets an emergency light's battery and forced failure, then shows its status. */
function setEmergencyLight(gateway: SimGateway, addr: string, pairs: string[]): string {
  const settings: EmergencyLightSettings = {};
  for (const pair of pairs) {
    const [key, value = ''] = pair.split('=');
    if (key === 'age') settings.batteryAgeYears = Number(value);
    else if (key === 'charge') settings.charge = Number(value);
    else if (key === 'cells') settings.batteryCells = Number(value);
    else if (key === 'type' && (EMERGENCY_LIGHT_TYPES as readonly string[]).includes(value))
      settings.lightType = value as EmergencyLightType;
    else if (key === 'failure' && value === 'none') settings.failure = undefined;
    else if (key === 'failure' && (EMERGENCY_FAILURES as readonly string[]).includes(value)) settings.failure = value as EmergencyFailure;
    else
      return `cannot set ${pair}; ${CONSOLE_HELP.split('\n')
        .find((l) => l.includes('emergency GW'))!
        .trim()}`;
  }
  try {
    const light = gateway.emergencyLight(addr);
    light.set(settings);
    const s = light.status();
    const failure = s.failure ? `, failing: ${s.failure}` : '';
    return `${gateway.mac} ${addr}: state ${s.state}, battery ${s.battery} %, ${s.batteryCells} cells, ${s.batteryAgeYears} years, rated ${s.ratedDurationMin} min${failure}`;
  } catch (error) {
    return (error as Error).message;
  }
}
