import { Typography } from '@mui/material';
import { Title } from 'react-admin';
import { usePageTitle } from './pageTitle';

export { APP_NAME, usePageTitle } from './pageTitle';

/** The screen's heading, which also sets the browser page title. */
export function PageTitle({ title, subtitle, inAppBar = true }: { title: string; subtitle?: string; inAppBar?: boolean }) {
  usePageTitle(title);
  return (
    <header style={{ marginBottom: 16 }}>
      {inAppBar ? <Title title={title} preferenceKey={false} /> : null}
      <Typography variant="h5" component="h1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
        {title}
      </Typography>
      {subtitle ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {subtitle}
        </Typography>
      ) : null}
    </header>
  );
}
