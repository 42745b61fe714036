/**
 * The OpenAPI `security` of the calls that are not for signed-in users only (plugins/api-docs.ts gives
 * every other call the document's default: a session's access token or a personal API token). The fuzz
 * test of the document checks each against the server: a call that answers 401 anonymously says so.
 */

type Security = { [scheme: string]: string[] }[];

/** A call anyone may make, signed in or not (sign-up, sign-in, public pages, webhooks). */
export const noSignIn: { security: Security } = { security: [] };

/** A call made anonymously or by a signed-in person, for whom it then acts (never with an API token). */
export const signInOptional: { security: Security } = { security: [{}, { bearerAuth: [] }] };
