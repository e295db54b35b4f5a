import JSONbig from 'json-bigint';

// Numbers past 2^53 arrive as strings so no id ever loses precision (ARCHITECTURE.md section 2).
const parser = JSONbig({ storeAsString: true });

/** json-bigint builds null-prototype objects; copy them into plain ones so every library treats them alike. */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = toPlain((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** Parses a JSON text, keeping integers beyond Number.MAX_SAFE_INTEGER as decimal strings. */
export function parseJson(text: string): unknown {
  return toPlain(parser.parse(text));
}
