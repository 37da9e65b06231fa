import type { SupportContactAnswer, SupportContactView } from '@contracts/settings';
import { telLink } from '@domain/settings/settings';
import EmailIcon from '@mui/icons-material/Email';
import PhoneIcon from '@mui/icons-material/Phone';
import { Alert, Box, Button, Paper, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { API_URL, httpClient } from '../providers/httpClient';

export async function getSupportContact(): Promise<SupportContactView | null> {
  const { json } = await httpClient<SupportContactAnswer>(`${API_URL}/settings/support-contact`);
  return json.data;
}

/** The Contact tab: the phone, e-mail and hours administrators set, as links, and the way to a case. */
export function SupportContactCard({ children }: { children?: React.ReactNode }) {
  const [contact, setContact] = useState<SupportContactView | null | undefined>(undefined);
  useEffect(() => {
    getSupportContact().then(setContact, (error) => {
      console.error(error);
      setContact(null);
    });
  }, []);
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 720 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Contact support
      </Typography>
      {contact === null ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          The support team's phone and e-mail have not been set yet; open a support case.
        </Alert>
      ) : null}
      {contact ? (
        <Box sx={{ mb: 2 }}>
          <Typography variant="body2" sx={{ mb: 1.5 }} data-testid="support-hours">
            {contact.hours}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
            <Button variant="outlined" startIcon={<PhoneIcon />} href={telLink(contact.phone)}>
              Call {contact.phone}
            </Button>
            <Button variant="outlined" startIcon={<EmailIcon />} href={`mailto:${contact.email}`}>
              E-mail {contact.email}
            </Button>
          </Box>
        </Box>
      ) : null}
      {children}
    </Paper>
  );
}
