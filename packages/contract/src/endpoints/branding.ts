/** The calls of per-host branding (config.txt and pictures) (filled in from the domain's routes). */
export const brandingEndpoints = {};
