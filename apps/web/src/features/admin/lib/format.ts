import { formatWhen } from '../../../lib/format';

/** A timestamp in the reader's time zone, to the second (audit entries are read for their order). */
export function adminDateTime(iso: string): string {
  return formatWhen(iso, 'dateTimeSeconds');
}
