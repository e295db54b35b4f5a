/** The calls of projects, buildings and the project tree (filled in from the domain's routes). */
export const projectEndpoints = {};
