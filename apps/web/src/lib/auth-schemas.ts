// The schemas of the session's answers. Loaded on demand (auth-schemas-loader.ts): they bring zod, which
// the sign-in page does not need to show itself (issue 13 §1).
import { z } from 'zod';

export { authSessionSchema, authTokensSchema, meSchema, userSchema } from '@haversack/contracts';

/**
 * An answer that carries only a message (resend verification). Read through the loader's namespace
 * (`schemas.messageSchema` in auth-api.ts), which knip does not follow.
 * @public
 */
export const messageSchema = z.object({ message: z.string() });
