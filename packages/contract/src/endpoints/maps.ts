/** The calls of maps and floor plans (filled in from the domain's routes). */
export const mapEndpoints = {};
