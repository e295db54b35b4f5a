import { LANGS } from '@lumigrid/contract';
import { describe, expect, it } from 'vitest';
import { SERVER_CATALOGUES, fillText, serverTexts, type Catalogue } from './server-texts.ts';

/** Every key path of a catalogue with the placeholders its text takes (`reportMail.intro {name} {period} {project}`). */
function keysOf(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([key, text]) => {
    const path = `${prefix}${key}`;
    if (typeof text === 'object' && !Array.isArray(text)) return keysOf(text, `${path}.`);
    const entries = Array.isArray(text) ? `[${text.length}]` : '';
    const placeholders = [...new Set(String(text).match(/\{\w+\}/g) ?? [])].sort().join(' ');
    return [`${path}${entries} ${placeholders}`.trim()];
  });
}

describe('server text catalogues', () => {
  it.each(LANGS.filter((lang) => lang !== 'en'))('%s has every key of en, no other, with the same placeholders', (lang) => {
    expect(keysOf(SERVER_CATALOGUES[lang]).sort()).toEqual(keysOf(SERVER_CATALOGUES.en).sort());
  });

  it('fills placeholders once, leaving braces in the values and placeholders without a value as they are', () => {
    expect(fillText('{name} on {gateway}', { name: 'Lamp {gateway}', gateway: 'G1' })).toBe('Lamp {gateway} on G1');
    expect(fillText('must be {t}', { n: 3 })).toBe('must be {t}');
  });

  it('reads every language', () => {
    expect(LANGS.map((lang) => serverTexts(lang).auditExport.user)).toEqual(['用户', '使用者', 'User', 'ユーザー']);
  });
});
