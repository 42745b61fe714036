import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

const loopbackHosts = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * A server that listens for other machines (HOST=0.0.0.0, for the phones on the table's Wi-Fi) while its
 * APP_URL still names this machine's loopback would hand those phones links they cannot open: share links,
 * mailed links, the billing return. The address is not guessed from the request (a Host header is the
 * client's to write, and mailed links must not follow it), so the start-up log says what to set instead;
 * it does as well when only the mail leaves this machine (mailAdvice).
 */
export function appUrlAdvice(
  config: { host: string; port: number; appUrl: string; smtpUrl?: string | undefined },
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string | null {
  if (!loopbackHosts.test(new URL(config.appUrl).hostname)) return null;
  if (loopbackHosts.test(config.host)) return mailAdvice(config);
  const addresses = Object.values(interfaces)
    .flat()
    .filter((info): info is NetworkInterfaceInfo => info?.family === 'IPv4' && !info.internal)
    .map((info) => `http://${info.address}:${config.port}`);
  const example = addresses[0] ?? `http://<this machine's address>:${config.port}`;
  const reachable = addresses.length > 0 ? ` (this machine is reachable at ${addresses.join(', ')})` : '';
  return (
    `APP_URL is ${config.appUrl}, which other machines cannot open: share links, mailed links and billing ` +
    `returns will point there. Set APP_URL=${example}${reachable}.`
  );
}

/**
 * Mail review: a server behind a proxy on the same machine listens on loopback, so the advice above stays
 * quiet; but when its mail goes to a mail server elsewhere, it reaches people on other machines, and every
 * link it carries (reset, confirmation, undo, unsubscribe) would name this machine's loopback. A mail server
 * on this machine is a developer's catcher, read here, so it is left alone. Only the mail server's host is
 * named: SMTP_URL may hold a password.
 */
function mailAdvice(config: { appUrl: string; smtpUrl?: string | undefined }): string | null {
  if (!config.smtpUrl) return null;
  const mailHost = new URL(config.smtpUrl).hostname;
  if (loopbackHosts.test(mailHost)) return null;
  return (
    `APP_URL is ${config.appUrl}, but mail goes out through ${mailHost}: the links of every mail (password ` +
    'reset, email confirmation, undo, unsubscribe) will point there, where their readers cannot open them. ' +
    'Set APP_URL to the address people open the site at (e.g. https://haversack.example.com).'
  );
}
