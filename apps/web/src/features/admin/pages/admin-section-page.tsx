import { NotAvailable } from '../../../components/not-available';

/** The admin pages' contents are not specified yet; each says so honestly. */
export function AdminSectionPage({ title }: { title: string }) {
  return (
    <NotAvailable
      title={`Admin · ${title}`}
      subject={`The admin ${title.toLowerCase()} page is`}
      backTo={{ href: '/dashboard', label: 'Exit to dashboard' }}
    />
  );
}
