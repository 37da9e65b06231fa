import { Alert, Box, Button, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useToast } from '../../layout/toast';
import { ApiError } from '../../providers/errorMapper';
import { API_URL, httpClient } from '../../providers/httpClient';
import { getSupportContact } from '../../tickets/SupportContactCard';
import { SectionHeading, SettingHistory } from './SettingHistory';

/** System Configuration: the support team's phone, e-mail and hours, shown in the Support Center's Contact tab. */
export function SupportContactSection() {
  const toast = useToast();
  const [values, setValues] = useState({ phone: '', email: '', hours: '' });
  const [error, setError] = useState('');
  useEffect(() => {
    getSupportContact().then(
      (contact) => contact && setValues(contact),
      (failure) => console.error(failure),
    );
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
    <Box component="section" aria-label="Support contact">
      <SectionHeading title="Support contact" text="Shown to every signed-in user in the Support Center's Contact tab and on the Live Chat page.">
        <SettingHistory setting="support-contact" title="Support contact" />
      </SectionHeading>
      {error ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {error}
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <TextField size="small" label="Support phone" value={values.phone} onChange={set('phone')} />
        <TextField size="small" label="Support e-mail" value={values.email} onChange={set('email')} />
        <TextField size="small" label="Support hours" value={values.hours} onChange={set('hours')} sx={{ gridColumn: { md: '1 / -1' } }} />
      </Box>
      <Button variant="contained" sx={{ mt: 1.5 }} onClick={() => void save()}>
        Save Support Contact
      </Button>
    </Box>
  );
}
