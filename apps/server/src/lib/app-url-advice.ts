import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

const loopbackHosts = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * A server that listens for other machines (HOST=0.0.0.0, for the phones on the table's Wi-Fi) while its
 * APP_URL still names this machine's loopback would hand those phones links they cannot open: share links,
 * mailed links, the billing return. The address is not guessed from the request (a Host header is the
 * client's to write, and mailed links must not follow it), so the start-up log says what to set instead.
 */
export function appUrlAdvice(
  config: { host: string; port: number; appUrl: string },
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string | null {
  if (loopbackHosts.test(config.host)) return null;
  if (!loopbackHosts.test(new URL(config.appUrl).hostname)) return null;
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
