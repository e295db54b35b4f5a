import { describe, expect, it } from 'vitest';
import { checkAddress, checkCoordinate, checkName, floorPlanProblem } from './checks.ts';

describe('installation field rules (spec section 5)', () => {
  it('wants a name of 1-50 characters, spaces around it not counted', () => {
    expect(checkName('')).toBe('installation.rules.nameRequired');
    expect(checkName('   ')).toBe('installation.rules.nameRequired');
    expect(checkName(undefined)).toBe('installation.rules.nameRequired');
    expect(checkName('a'.repeat(50))).toBeUndefined();
    expect(checkName(` ${'a'.repeat(50)} `)).toBeUndefined();
    expect(checkName('a'.repeat(51))).toBe('installation.rules.nameLength');
    // Counted in characters, not weighted: fifty Chinese characters fit.
    expect(checkName('楼'.repeat(50))).toBeUndefined();
  });

  it('takes an optional address of up to 100 characters', () => {
    expect(checkAddress('')).toBeUndefined();
    expect(checkAddress(undefined)).toBeUndefined();
    expect(checkAddress('x'.repeat(100))).toBeUndefined();
    expect(checkAddress('x'.repeat(101))).toBe('installation.rules.addressLength');
  });

  it('keeps longitude within -180..180 and latitude within -90..90, two decimals at most', () => {
    expect(checkCoordinate('longitude', null)).toBeUndefined();
    expect(checkCoordinate('longitude', 180)).toBeUndefined();
    expect(checkCoordinate('longitude', -180)).toBeUndefined();
    expect(checkCoordinate('longitude', 180.01)).toBe('installation.rules.longitude');
    expect(checkCoordinate('longitude', 121.47)).toBeUndefined();
    expect(checkCoordinate('longitude', 121.475)).toBe('installation.rules.longitude');
    expect(checkCoordinate('latitude', 90)).toBeUndefined();
    expect(checkCoordinate('latitude', -90.5)).toBe('installation.rules.latitude');
    expect(checkCoordinate('latitude', 31.23)).toBeUndefined();
  });

  it('accepts jpg, png and pdf floor plans up to 5 MB', () => {
    const mb = 1024 * 1024;
    expect(floorPlanProblem({ name: 'plan.png', type: 'image/png', size: mb })).toBeUndefined();
    expect(floorPlanProblem({ name: 'plan.jpg', type: 'image/jpeg', size: 5 * mb })).toBeUndefined();
    expect(floorPlanProblem({ name: 'plan.pdf', type: 'application/pdf', size: mb })).toBeUndefined();
    expect(floorPlanProblem({ name: 'plan.pdf', type: '', size: mb })).toBeUndefined();
    expect(floorPlanProblem({ name: 'plan.svg', type: 'image/svg+xml', size: 10 })).toBe('type');
    expect(floorPlanProblem({ name: 'plan.txt', type: '', size: 10 })).toBe('type');
    expect(floorPlanProblem({ name: 'plan.png', type: 'image/png', size: 5 * mb + 1 })).toBe('size');
  });
});
