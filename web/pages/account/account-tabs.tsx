// The account area's sub-navigation: API keys, domains and webhooks for owners, members and the profile for everyone.
import { Link, usePath } from '../../router.ts';
import { useAppState } from '../../store.ts';

export function AccountTabs() {
  const path = usePath();
  const { session } = useAppState();
  const owner = session?.account.role === 'owner';
  const tabs = [
    ...(owner ? [{ href: '/account/keys', label: 'API keys' }] : []),
    ...(owner ? [{ href: '/account/domains', label: 'Domains' }] : []),
    ...(owner ? [{ href: '/account/webhooks', label: 'Webhooks' }] : []),
    { href: '/account/members', label: 'Members' },
    { href: '/account/profile', label: 'Profile' },
  ];
  return (
    <nav aria-label="Account" class="tabs">
      {tabs.map((t) => (
        <Link key={t.href} href={t.href} class="tabs__link" aria-current={path === t.href ? 'page' : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
