import { useCheapPasswordHashingForTests } from '../lib/password.ts';

// Runs before every server test file (vitest.config.ts).
useCheapPasswordHashingForTests();
