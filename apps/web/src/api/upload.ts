/**
 * Multipart uploads as the server's upload routes read them (floor plans, account and scene pictures): the
 * named fields first, then the `file` part, because the server reads the stream in order and must know what
 * the file is for before it arrives.
 */
export function uploadForm(file: Blob, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file instanceof File) form.append('file', file, file.name);
  else form.append('file', file);
  return form;
}

/** The picture types the server takes for account and scene pictures (it reads the type from the bytes). */
export const PICTURE_TYPES = ['image/png', 'image/jpeg'] as const;
/** What an <input type=file> offers for a picture. */
export const PICTURE_ACCEPT = PICTURE_TYPES.join(',');

const PICTURE_EXTENSIONS = /\.(png|jpe?g)$/i;

export type PictureProblem = 'type' | 'size';

/**
 * A first look at a chosen picture: png or jpeg of at most `maxBytes`. Only a courtesy that spares a useless
 * upload; the server decides by the file's content (100013, 100014).
 */
export function pictureProblem(file: { name: string; type: string; size: number }, maxBytes: number): PictureProblem | undefined {
  const types: readonly string[] = PICTURE_TYPES;
  const typeOk = file.type ? types.includes(file.type) : PICTURE_EXTENSIONS.test(file.name);
  if (!typeOk) return 'type';
  return file.size > maxBytes ? 'size' : undefined;
}
