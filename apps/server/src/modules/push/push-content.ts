import { PUSH_IMAGE_PATH } from '@lumigrid/contract';
import sanitizeHtml from 'sanitize-html';

/** Pictures a news text may show: our own uploads, or any https address. */
const OWN_PICTURE = new RegExp(`^${PUSH_IMAGE_PATH.replace(/\//g, '\\/')}[0-9a-f]{32}\\.(png|jpg)$`);
const LINK = /^(https?:\/\/|mailto:)/i;

function allowedPicture(src: string | undefined): boolean {
  if (!src) return false;
  return OWN_PICTURE.test(src) || /^https:\/\/[^\s"'<>]+$/i.test(src);
}

/**
 * The allow-list a news text is cut down to: what the editor (Tiptap's starter kit with pictures) writes and
 * nothing else. No style, class or event attribute survives, links open a new page without the opener, and
 * elements that carry code (script, style, svg, iframe, object, ...) are dropped with their content.
 */
const CONTENT_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'hr',
    'a',
    'img',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt', 'title'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'svg', 'math', 'iframe', 'object', 'embed', 'template', 'title'],
  transformTags: {
    a: (tagName, given) => {
      const href = given.href && LINK.test(given.href) ? given.href : undefined;
      const attribs: sanitizeHtml.Attributes = href ? { href, target: '_blank', rel: 'noopener noreferrer nofollow' } : {};
      return { tagName, attribs };
    },
  },
  // A picture from anywhere else is dropped whole rather than left as an empty <img>.
  exclusiveFilter: (frame) => frame.tag === 'img' && !allowedPicture(frame.attribs.src),
};

/** A news text as every reader gets it: the allow-list above, applied when it is stored. */
export function sanitizeNewsContent(html: string): string {
  return sanitizeHtml(html, CONTENT_OPTIONS).trim();
}

/** Whether a sanitised text still says anything (text or a picture), so an empty editor is refused. */
export function hasContent(html: string): boolean {
  return /<img\s/i.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim().length > 0;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * A title is plain text: markup is removed with its script content, entities are read back once, and angle
 * brackets are dropped, so no reader can take a title for markup.
 */
export function plainTitle(title: string): string {
  const text = sanitizeHtml(title, { allowedTags: [], allowedAttributes: {}, nonTextTags: CONTENT_OPTIONS.nonTextTags });
  return text
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/[<>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Our own picture URLs made absolute for the mobile apps, which do not know the server's address. */
export function absolutePictures(html: string, publicUrl: string): string {
  return html.replaceAll(`src="${PUSH_IMAGE_PATH}`, `src="${publicUrl.replace(/\/$/, '')}${PUSH_IMAGE_PATH}`);
}
