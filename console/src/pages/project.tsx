import { useState } from 'preact/hooks';
import { useSession } from '../session.ts';
import { Link } from '../ui.tsx';
import { LocalesSection, RolesSection, TokensSection } from './project-access.tsx';
import { EnvironmentsSection, MaintenanceSection } from './project-environments.tsx';
import { WebhooksSection } from './project-webhooks.tsx';

const SECTIONS = [
  ['environments', 'Environments', EnvironmentsSection],
  ['maintenance', 'Maintenance mode', MaintenanceSection],
  ['tokens', 'API tokens', TokensSection],
  ['roles', 'Roles', RolesSection],
  ['webhooks', 'Webhooks', WebhooksSection],
  ['locales', 'Locales', LocalesSection],
] as const;

/** Project settings, one section at a time (the section is in the URL). */
export function ProjectPage(props: { section: string }) {
  const { environment } = useSession();
  const [found] = useState(() => SECTIONS.find(([key]) => key === props.section) ?? SECTIONS[0]);
  const Section = found[2];
  return (
    <div class="layout">
      <nav class="sidebar" aria-label="Project settings">
        <ul>
          {SECTIONS.map(([key, label]) => (
            <li key={key}>
              <Link
                to={`editor/${environment}/project/${key}`}
                aria-current={key === found[0] ? 'page' : undefined}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section>
        <h1>{found[1]}</h1>
        <Section />
      </section>
    </div>
  );
}
