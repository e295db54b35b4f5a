import {
  brandingEndpoints,
  endpointPath,
  brandingFor,
  companyDefaultConfig,
  isLang,
  LANGS,
  LOGIN_MODES,
  normaliseHost,
  type CompanyCode,
  type HostConfig,
  type Lang,
  type LoginMode,
  type Mode,
} from '@lumigrid/contract/browser';

/** Where the default pictures live: shipped in apps/web/public, so they load even without a host file. */
export const DEFAULT_ASSET_BASE = '/branding/default';

/** The host configuration file of spec section 7, for a browser host name. */
export function hostConfigUrl(hostname: string): string {
  return endpointPath(brandingEndpoints.hostConfig, { host: normaliseHost(hostname) });
}

const TEXT_FIELDS = ['name', 'title', 'icon', 'companyInfo', 'logoName', 'logoBgName'] as const;

function pickTexts(source: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of TEXT_FIELDS) {
    const value = source[field];
    if (typeof value === 'string' && value.trim()) out[field] = value.trim();
  }
  return out;
}

/** Keeps only the well-formed fields of a host file; undefined when it is not a JSON object at all. */
export function sanitiseHostConfig(raw: unknown): HostConfig | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const source = raw as Record<string, unknown>;
  const config: HostConfig = pickTexts(source);
  if (isLang(source.language)) config.language = source.language;
  if (typeof source.languageChange === 'boolean') config.languageChange = source.languageChange;
  if ((LOGIN_MODES as readonly unknown[]).includes(source.loginMode)) config.loginMode = source.loginMode as LoginMode;
  for (const lang of LANGS) {
    const block = source[lang];
    if (block && typeof block === 'object' && !Array.isArray(block)) config[lang] = pickTexts(block as Record<string, unknown>);
  }
  return config;
}

/** A picture named in a host file: an absolute URL or path as is, otherwise a file next to the host file. */
export function assetUrl(name: string | undefined, base: string): string | undefined {
  if (!name) return undefined;
  if (/^https?:\/\//i.test(name) || name.startsWith('/') || name.startsWith('data:')) return name;
  return `${base}/${encodeURIComponent(name)}`;
}

export interface ResolvedBranding {
  name: string;
  title: string;
  companyInfo?: string;
  logoUrl: string;
  backgroundUrl: string;
  iconUrl: string;
  language?: Lang;
  languageChange: boolean;
  loginMode: LoginMode;
}

/**
 * The branding to show. `hostConfig` is the host's own file, or undefined when it is missing or broken;
 * then the company's defaults apply silently (spec section 1), with pictures from the shipped defaults.
 */
export function resolveBranding(hostConfig: HostConfig | undefined, hostname: string, company: CompanyCode, lang: Lang): ResolvedBranding {
  const config = hostConfig ?? companyDefaultConfig(company);
  const base = hostConfig ? `/test/${encodeURIComponent(normaliseHost(hostname))}` : DEFAULT_ASSET_BASE;
  const texts = brandingFor(config, lang);
  return {
    name: texts.name,
    title: texts.title,
    companyInfo: texts.companyInfo,
    logoUrl: assetUrl(texts.logoName, base) ?? `${DEFAULT_ASSET_BASE}/logo.svg`,
    backgroundUrl: assetUrl(texts.logoBgName, base) ?? `${DEFAULT_ASSET_BASE}/login-bg.svg`,
    iconUrl: assetUrl(texts.icon, base) ?? `${DEFAULT_ASSET_BASE}/favicon.svg`,
    language: config.language,
    languageChange: config.languageChange ?? true,
    loginMode: config.loginMode ?? 'All',
  };
}

export type LoginMethod = 'mail' | 'tel';

/** The sign-in and sign-up methods offered: both in SaaS mode unless the host fixes one (spec section 2). */
export function loginMethods(mode: Mode, loginMode: LoginMode): LoginMethod[] {
  if (mode === 'server') return ['tel'];
  if (loginMode === 'Mail') return ['mail'];
  if (loginMode === 'phone') return ['tel'];
  return ['mail', 'tel'];
}
