/** The calls of accounts, sub-accounts, the user centre and uploads (filled in from the domain's routes). */
export const accountEndpoints = {};
