import { randomInt } from 'node:crypto';
import { JOIN_CODE_LENGTH, joinCodeAlphabet } from '@haversack/contracts';

/** 8 characters from 32 symbols: 2^40 codes, so guessing one is hopeless within the rate limits. */
export function generateJoinCode(length = JOIN_CODE_LENGTH): string {
  let code = '';
  for (let i = 0; i < length; i++) code += joinCodeAlphabet[randomInt(joinCodeAlphabet.length)];
  return code;
}

export function isWellFormedJoinCode(code: string): boolean {
  return new RegExp(`^[${joinCodeAlphabet}]{6,8}$`).test(code);
}
