import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../../realtime/realtime-bus.ts';
import { createGatewayDirectory, type GatewayRef } from './gateway-directory.ts';

/** A gateways table in memory whose lookups the test counts and can hold. */
function table(rows: Record<string, GatewayRef>) {
  const lookups: string[][] = [];
  let gate: Promise<void> | undefined;
  return {
    rows,
    lookups,
    holdNext() {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return open;
    },
    async lookup(macs: string[]) {
      lookups.push(macs);
      const held = gate;
      gate = undefined;
      const found = macs.filter((mac) => rows[mac]).map((mac) => ({ mac, ...rows[mac]! }));
      await held;
      return found;
    },
  };
}

describe('gateway directory', () => {
  it('looks a gateway up on its first report only, and never keeps a MAC no gateway has', async () => {
    const db = table({ AA: { id: '1', tenantId: null }, BB: { id: '2', tenantId: '7' } });
    const sut = createGatewayDirectory({ lookup: db.lookup });
    expect(await sut.resolve(['AA', 'CC'])).toEqual({ byMac: new Map([['AA', { id: '1', tenantId: null }]]), unknownMacs: ['CC'] });
    const again = await sut.resolve(['AA', 'BB', 'CC']);
    expect([...again.byMac.keys()].sort()).toEqual(['AA', 'BB']);
    expect(db.lookups).toEqual([
      ['AA', 'CC'],
      ['BB', 'CC'],
    ]);
    // Provisioned meanwhile: found on its next report.
    db.rows.CC = { id: '3', tenantId: null };
    expect((await sut.resolve(['CC'])).byMac.get('CC')).toEqual({ id: '3', tenantId: null });
    await sut.resolve(['AA', 'BB', 'CC']);
    expect(db.lookups).toHaveLength(3);
  });

  it('reads a gateway again once a change to it is told here or announced by another node', async () => {
    const bus = createLocalBus();
    const db = table({ AA: { id: '1', tenantId: null }, BB: { id: '2', tenantId: null } });
    const sut = createGatewayDirectory({ lookup: db.lookup, bus });
    await sut.resolve(['AA', 'BB']);
    db.rows.AA = { id: '1', tenantId: '7' };
    db.rows.BB = { id: '2', tenantId: '8' };
    sut.forget([1n]);
    expect((await sut.resolve(['AA', 'BB'])).byMac).toEqual(
      new Map([
        ['AA', { id: '1', tenantId: '7' }],
        ['BB', { id: '2', tenantId: null }],
      ]),
    );
    bus.publish({ kind: 'placementsChanged', gatewayIds: ['2'] });
    expect((await sut.resolve(['BB'])).byMac.get('BB')).toEqual({ id: '2', tenantId: '8' });
    sut.forgetMacs(['AA']);
    expect(sut.holds('AA')).toBe(false);
    expect(sut.holds('BB')).toBe(true);
  });

  it('uses a lookup that raced a change for its own batch but does not keep it', async () => {
    const db = table({ AA: { id: '1', tenantId: null } });
    const sut = createGatewayDirectory({ lookup: db.lookup });
    const open = db.holdNext();
    const racing = sut.resolve(['AA']);
    // Bound while the lookup was on its way: what it read may be from before.
    sut.forget([1n]);
    open();
    expect((await racing).byMac.get('AA')).toEqual({ id: '1', tenantId: null });
    expect(sut.holds('AA')).toBe(false);
    await sut.resolve(['AA']);
    expect(sut.holds('AA')).toBe(true);
  });
});
