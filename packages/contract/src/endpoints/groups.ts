/** The calls of groups (zones) (filled in from the domain's routes). */
export const groupEndpoints = {};
