import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { Suspense } from 'react';
import { AppError } from './AppError';
import { PortalAppBar } from './PortalAppBar';
import { PortalMenu } from './PortalMenu';
import { SessionWatcher } from './SessionWatcher';
import { FullScreenSpinner } from './Splash';

/** The signed-in shell: app bar, side menu, error boundary and the session watcher. */
export function PortalLayout({ children }: { children: ReactNode }) {
  return (
    <Layout
      appBar={PortalAppBar}
      menu={PortalMenu}
      error={AppError}
      sx={{
        // react-admin sizes the frame to its content; a wide table or tab bar must scroll inside the page instead.
        minWidth: 0,
        '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 },
      }}
    >
      <SessionWatcher />
      <Suspense fallback={<FullScreenSpinner />}>{children}</Suspense>
    </Layout>
  );
}
