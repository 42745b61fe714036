import { signedInSessionMessages } from '@haversack/contracts';
import Bowser from 'bowser';

/**
 * A signed-in device as a person recognises it ("Chrome on Android", "Safari on iOS"), from the user agent
 * its sign-in sent. An agent no parser knows (a script's "curl/8.5.0") is named by its first word; none at all
 * reads "Unknown device".
 */
export function deviceLabel(userAgent: string | null): string {
  if (!userAgent) return signedInSessionMessages.unknownDevice;
  const parser = Bowser.getParser(userAgent);
  const browser = parser.getBrowserName();
  const os = parser.getOSName();
  if (browser && os) return `${browser} on ${os}`;
  const firstWord = userAgent.trim().split(/\s+/, 1)[0]?.slice(0, 40);
  return browser || os || firstWord || signedInSessionMessages.unknownDevice;
}
