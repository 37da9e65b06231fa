import { Box } from '@mui/material';
import { useRecordContext } from 'react-admin';

/**
 * An e-mail address on one line: it never breaks mid-address. Where the column is too narrow it
 * ends in an ellipsis and the whole address is in the hover text and the mailto link.
 */
export function EmailText({ email, link = false }: { email: string | null | undefined; link?: boolean }) {
  if (!email) return <>—</>;
  return (
    <Box
      component={link ? 'a' : 'span'}
      href={link ? `mailto:${email}` : undefined}
      title={email}
      data-email={email}
      sx={{
        display: 'inline-block',
        maxWidth: '100%',
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        verticalAlign: 'bottom',
        color: 'inherit',
      }}
    >
      {email}
    </Box>
  );
}

/** EmailText as a react-admin field. */
export function EmailTextField({ source, link }: { source: string; label?: string; sortable?: boolean; link?: boolean }) {
  const record = useRecordContext();
  return <EmailText email={record?.[source] as string | undefined} link={link} />;
}
