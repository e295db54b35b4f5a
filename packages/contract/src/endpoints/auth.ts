/** The calls of sign-up, sign-in, sessions, codes, captcha, password (filled in from the domain's routes). */
export const authEndpoints = {};
