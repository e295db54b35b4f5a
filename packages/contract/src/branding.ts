import { Type, type Static } from 'typebox';
import { LangSchema } from './common.ts';
import type { Lang } from './lang.ts';

/** The texts and pictures a host may set per language (spec section 3, "Host config"). */
const BrandingTextFields = {
  name: Type.Optional(Type.String({ maxLength: 100, description: 'Product name shown beside the logo' })),
  title: Type.Optional(Type.String({ maxLength: 100, description: 'Browser tab title' })),
  icon: Type.Optional(Type.String({ maxLength: 200, description: 'Favicon file name or URL' })),
  companyInfo: Type.Optional(Type.String({ maxLength: 300, description: 'Footer company line' })),
  logoName: Type.Optional(Type.String({ maxLength: 200, description: 'Logo file name or URL' })),
  logoBgName: Type.Optional(Type.String({ maxLength: 200, description: 'Login background file name or URL' })),
};

export const LOGIN_MODES = ['All', 'Mail', 'phone'] as const;
export type LoginMode = (typeof LOGIN_MODES)[number];

export const HostConfigSchema = Type.Object({
  ...BrandingTextFields,
  language: Type.Optional(LangSchema),
  languageChange: Type.Optional(Type.Boolean({ description: 'Whether the language selector shows' })),
  loginMode: Type.Optional(
    Type.Union([Type.Literal('All'), Type.Literal('Mail'), Type.Literal('phone')], { description: 'All, Mail or phone' }),
  ),
  cn: Type.Optional(Type.Object(BrandingTextFields)),
  tc: Type.Optional(Type.Object(BrandingTextFields)),
  en: Type.Optional(Type.Object(BrandingTextFields)),
  ja: Type.Optional(Type.Object(BrandingTextFields)),
});
export type HostConfig = Static<typeof HostConfigSchema>;

/** The three companies of spec section 1; each brings the defaults a host without its own file gets. */
export const COMPANIES = {
  lumigrid: { name: 'Lumigrid', title: 'Lumigrid', companyInfo: 'Lumigrid', language: 'en' as Lang },
  'lumigrid-jp': { name: 'Lumigrid', title: 'Lumigrid', companyInfo: 'Lumigrid Japan', language: 'ja' as Lang },
  'lumigrid-cn': { name: 'Lumigrid', title: 'Lumigrid', companyInfo: 'Lumigrid China', language: 'cn' as Lang },
} as const;
export type CompanyCode = keyof typeof COMPANIES;
export const DEFAULT_COMPANY: CompanyCode = 'lumigrid';

export function isCompanyCode(value: unknown): value is CompanyCode {
  return typeof value === 'string' && Object.hasOwn(COMPANIES, value);
}

/** A company's complete branding, used whenever a host has no usable file of its own. */
export function companyDefaultConfig(company: CompanyCode): HostConfig {
  const c = COMPANIES[company];
  return {
    name: c.name,
    title: c.title,
    companyInfo: c.companyInfo,
    language: c.language,
    languageChange: true,
    loginMode: 'All',
    logoName: 'logo.svg',
    logoBgName: 'login-bg.svg',
    icon: 'favicon.svg',
  };
}

/** The branding texts to use in one language: the language block over the top-level fields. */
export function brandingFor(config: HostConfig, lang: Lang) {
  const block = config[lang] ?? {};
  return {
    name: block.name ?? config.name ?? 'Lumigrid',
    title: block.title ?? config.title ?? 'Lumigrid',
    icon: block.icon ?? config.icon,
    companyInfo: block.companyInfo ?? config.companyInfo,
    logoName: block.logoName ?? config.logoName,
    logoBgName: block.logoBgName ?? config.logoBgName,
  };
}

/** Host names are matched without a leading www. (spec section 7). */
export function normaliseHost(host: string): string {
  const bare = host.trim().toLowerCase().replace(/:\d+$/, '');
  return bare.startsWith('www.') ? bare.slice(4) : bare;
}

const Host = Type.String({ minLength: 1, maxLength: 253, description: 'The host name, a leading www. is dropped' });

/** {host}: the host whose branding is asked for. */
export const HostParamsSchema = Type.Object({ host: Host });
export type HostParams = Static<typeof HostParamsSchema>;

/** {host} and {file}: one of the host's branding pictures. */
export const HostFileParamsSchema = Type.Object({ host: Host, file: Type.String({ minLength: 1, maxLength: 120 }) });
export type HostFileParams = Static<typeof HostFileParamsSchema>;

/** One picture of a web app manifest (W3C Web Application Manifest, "icons"). */
export const ManifestIconSchema = Type.Object({
  src: Type.String(),
  sizes: Type.String({ description: 'Space-separated WxH, or "any" for a picture that scales' }),
  type: Type.String(),
  purpose: Type.String({ description: '"any" or "maskable"' }),
});

/** The web app manifest a host's browser installs the app from: the host's brand name and icon. */
export const WebManifestSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  short_name: Type.String(),
  description: Type.Optional(Type.String()),
  lang: Type.String({ description: 'BCP 47 tag of the name' }),
  start_url: Type.String(),
  scope: Type.String(),
  display: Type.Literal('standalone'),
  background_color: Type.String(),
  theme_color: Type.String(),
  icons: Type.Array(ManifestIconSchema),
});
export type WebManifest = Static<typeof WebManifestSchema>;

/** The file name of a host's generated app icon: its own icon centred on a square tile any size can take. */
export const APP_ICON_FILE = 'app-icon.svg';
