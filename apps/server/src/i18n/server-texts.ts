import type { Lang } from '@lumigrid/contract';
import cn from './cn.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import ja from './ja.json' with { type: 'json' };
import tc from './tc.json' with { type: 'json' };

/** The server's own texts (mails, workbooks, the log-book PDF, input problems), a section per module; en is the reference. */
export type ServerTexts = typeof en;

/** A catalogue as it is read, before en fills what it lacks. */
export interface Catalogue {
  [key: string]: string | string[] | Catalogue;
}

const isSection = (value: unknown): value is Catalogue => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The catalogue with en's text wherever it lacks one, so a missing key reads in English rather than as nothing. */
function overEnglish(own: Catalogue, reference: Catalogue): Catalogue {
  return Object.fromEntries(
    Object.entries(reference).map(([key, text]) => {
      const mine = own[key];
      if (isSection(text)) return [key, overEnglish(isSection(mine) ? mine : {}, text)];
      return [key, mine ?? text];
    }),
  );
}

/** The four catalogues as they stand in the repository; the unit test compares their keys. */
export const SERVER_CATALOGUES: Record<Lang, Catalogue> = { cn, tc, en, ja };

const TEXTS = Object.fromEntries(
  Object.entries(SERVER_CATALOGUES).map(([lang, catalogue]) => [lang, overEnglish(catalogue, en)]),
) as Record<Lang, ServerTexts>;

/** The server's texts in one language. */
export function serverTexts(lang: Lang): ServerTexts {
  return TEXTS[lang];
}

/** A text with its `{name}` placeholders filled; one without a value stays as written, and values are not read again. */
export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (placeholder, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : placeholder));
}
