import { describe, expect, it } from 'vitest';
import { DEVICE_KIND_TEXT, LANGS } from '@lumigrid/contract/browser';
import cn from './cn.json';
import tc from './tc.json';
import en from './en.json';
import ja from './ja.json';

const CATALOGUES: Record<(typeof LANGS)[number], unknown> = { cn, tc, en, ja };

/** Every leaf of a nested catalogue as 'a.b.c' -> text. */
function leaves(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) {
      for (const [path, text] of leaves(value, prefix ? `${prefix}.${key}` : key)) out.set(path, text);
    }
  } else {
    out.set(prefix, node);
  }
  return out;
}

/** The {{placeholders}} a text interpolates, sorted, so translations keep the same ones. */
function placeholders(text: unknown): string[] {
  return typeof text === 'string' ? [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort() : [];
}

describe('translation catalogues', () => {
  const english = leaves(en);

  it.each(LANGS)('%s has exactly the keys of every other catalogue, each a non-empty text', (lang) => {
    const own = leaves(CATALOGUES[lang]);
    const missing = [...english.keys()].filter((key) => !own.has(key));
    const extra = [...own.keys()].filter((key) => !english.has(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    const blank = [...own].filter(([, text]) => typeof text !== 'string' || text.trim() === '').map(([key]) => key);
    expect(blank).toEqual([]);
  });

  it.each(LANGS)('%s keeps the placeholders of the English text', (lang) => {
    const own = leaves(CATALOGUES[lang]);
    const differing = [...english].filter(([key, text]) => placeholders(text).join() !== placeholders(own.get(key)).join());
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it('the Asian catalogues are translated, not copies of English', () => {
    for (const lang of ['cn', 'tc', 'ja'] as const) {
      const own = leaves(CATALOGUES[lang]);
      const copied = [...english].filter(([key, text]) => own.get(key) === text && /[a-z]{4,}/i.test(String(text)));
      // Brand names and units may stay; more than a handful of identical texts means a missed translation.
      expect(copied.length, `${lang}: ${copied.map(([key]) => key).join(', ')}`).toBeLessThan(5);
    }
  });
});

describe('device kind names', () => {
  it('are the same on screen and in the server\u2019s reports', () => {
    for (const lang of LANGS) {
      const onScreen = leaves(CATALOGUES[lang]);
      for (const [kind, text] of Object.entries(DEVICE_KIND_TEXT))
        expect(onScreen.get(`deviceConfig.types.${kind}`), `${lang} ${kind}`).toBe(text[lang]);
    }
  });
});
