import { Alert, Box, Button, Paper, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { PanelComing } from './PanelComing';
import { useToast } from '../layout/toast';
import { API_URL, httpClient } from '../providers/httpClient';
import { ApiError } from '../providers/errorMapper';
import { getSupportContact } from '../tickets/SupportContactCard';

/** The support team's phone, e-mail and hours, shown in the Support Center's Contact tab. */
function SupportContactSettings() {
  const toast = useToast();
  const [values, setValues] = useState({ phone: '', email: '', hours: '' });
  const [error, setError] = useState('');
  useEffect(() => {
    getSupportContact().then((contact) => contact && setValues(contact), (failure) => console.error(failure));
  }, []);
  const save = async () => {
    setError('');
    try {
      const { json } = await httpClient<{ message: string }>(`${API_URL}/settings/support-contact`, { method: 'PUT', body: values });
      toast(json.message, 'success');
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The support contact could not be saved.');
    }
  };
  const set = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [field]: event.target.value }));
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} component="section" aria-label="Support contact">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>Support contact</Typography>
      {error ? <Alert severity="error" sx={{ mb: 1.5 }}>{error}</Alert> : null}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <TextField size="small" label="Support phone" value={values.phone} onChange={set('phone')} />
        <TextField size="small" label="Support e-mail" value={values.email} onChange={set('email')} />
        <TextField size="small" label="Support hours" value={values.hours} onChange={set('hours')} sx={{ gridColumn: { md: '1 / -1' } }} />
      </Box>
      <Button variant="contained" sx={{ mt: 1.5 }} onClick={() => void save()}>Save Support Contact</Button>
    </Paper>
  );
}

export const SYSTEM_SETTINGS = ['System Configuration', 'Email Templates', 'Notification Settings', 'Access Control', 'API Keys', 'Backup Settings'];

/** System Settings: the support contact, and the six areas not yet configurable. */
export function SystemSettings() {
  return (
    <>
      <SupportContactSettings />
      <PanelComing title="System Settings" text="These settings areas are not configurable yet; they will open in an upcoming release." />
      <Box sx={{ display: 'grid', gap: 1.5, mt: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' } }}>
        {SYSTEM_SETTINGS.map((label) => (
          <Button key={label} variant="outlined" disabled sx={{ justifyContent: 'flex-start', py: 1.5 }}>
            <Typography variant="body2">{label}</Typography>
          </Button>
        ))}
      </Box>
    </>
  );
}
