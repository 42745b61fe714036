import { setPasswordHashCostForTests } from '../modules/accounts/passwords.js';

// argon2id at its least memory and one pass: the tests register users by the hundred and assert no cost
// (passwords.test.ts checks the production baseline on its own).
setPasswordHashCostForTests({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
