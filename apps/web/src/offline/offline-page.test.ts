import { describe, expect, it } from 'vitest';
import { LANGS } from '@lumigrid/contract/browser';
import { brandOf, offlineLang, OFFLINE_TEXTS } from './offline-page.ts';

describe('the offline page', () => {
  it("speaks the device's choice, then the host's language, then the browser's, then English", () => {
    expect(offlineLang('tc', 'ja', ['en-US'])).toBe('tc');
    expect(offlineLang(null, 'ja', ['zh-CN'])).toBe('ja');
    expect(offlineLang('klingon', undefined, ['fr-FR', 'zh-HK'])).toBe('tc');
    expect(offlineLang(null, 'de', ['zh-Hans-CN'])).toBe('cn');
    expect(offlineLang(null, undefined, ['fr-FR'])).toBe('en');
  });

  it('has every text in the four languages', () => {
    for (const lang of LANGS) for (const text of Object.values(OFFLINE_TEXTS[lang])) expect(text.trim(), lang).not.toBe('');
    expect(OFFLINE_TEXTS.ja.title).not.toBe(OFFLINE_TEXTS.en.title);
  });

  it('takes the brand from a kept manifest, and nothing from anything else', () => {
    expect(brandOf({ name: ' Hikari ', lang: 'ja', icons: [{ src: '/test/h/app-icon.svg' }] })).toEqual({
      name: 'Hikari',
      lang: 'ja',
      icon: '/test/h/app-icon.svg',
    });
    expect(brandOf({ name: 'Bare' })).toEqual({ name: 'Bare' });
    for (const junk of [null, 'text', { name: '' }, { icons: [] }, { name: 3 }]) expect(brandOf(junk)).toBeUndefined();
  });
});
