import { useSearchParams } from 'react-router';

/**
 * A list page's status tab and page, kept in the address (`?status=…&page=…`) as the Users and Audit Logs
 * pages keep their filters: a reload, a shared link, Back and Forward all return to the tab chosen. The
 * first tab and page 1 are the bare address, so the page's own link still opens on them.
 */
export function useStatusTabAddress<Status extends string>(
  isStatus: (value: string) => value is Status,
  firstStatus: Status,
) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('status');
  const status = asked !== null && isStatus(asked) ? asked : firstStatus;
  const askedPage = Number(params.get('page'));
  const page = Number.isInteger(askedPage) && askedPage > 1 ? askedPage : 1;
  const show = (nextStatus: Status, nextPage = 1) => {
    const next = new URLSearchParams();
    if (nextStatus !== firstStatus) next.set('status', nextStatus);
    if (nextPage > 1) next.set('page', String(nextPage));
    setParams(next);
  };
  return { status, page, show };
}
