import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Alert, Box, Button, LinearProgress, Link as MuiLink, List, ListItem, ListItemIcon, ListItemText, Paper, Typography } from '@mui/material';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { dataProvider } from '../providers/dataProvider';
import { ApiError, DEFAULT_RESPONSE_MESSAGE, NETWORK_ERROR_MESSAGE } from '../providers/errorMapper';
import { getAccessToken } from '../providers/session';
import { PasswordField } from './PasswordField';
import {
  changePasswordFailureMessage,
  NO_ACCESS_TOKEN_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  passwordRequirements,
  passwordStrength,
  validateChangePassword,
  type ChangePasswordValues,
} from './validation';

const EMPTY: ChangePasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };
const REDIRECT_AFTER_MS = 3000;
const STRENGTH_COLOURS = { Weak: 'error', Fair: 'warning', Good: 'info', Strong: 'success' } as const;

/** /change-password */
export default function ChangePassword() {
  const navigate = useNavigate();
  const toast = useToast();
  const [values, setValues] = useState<ChangePasswordValues>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const set = (field: keyof ChangePasswordValues) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setError(null);
  };

  const goBack = () => (window.history.length > 1 ? navigate(-1) : navigate('/'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateChangePassword(values);
    if (invalid) {
      setError(invalid);
      toast(invalid, 'error');
      return;
    }
    if (!getAccessToken()) {
      setError(NO_ACCESS_TOKEN_MESSAGE);
      toast(NO_ACCESS_TOKEN_MESSAGE, 'error');
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const answer = await dataProvider.changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      if (answer && answer.success === false) throw new Error(answer.message || '');
      setValues(EMPTY);
      setSuccess(PASSWORD_CHANGED_MESSAGE);
      toast(PASSWORD_CHANGED_MESSAGE, 'success');
      timer.current = setTimeout(goBack, REDIRECT_AFTER_MS);
    } catch (e) {
      let message: string;
      if (e instanceof ApiError) {
        const serverMessage = e.status === 0 || e.message === DEFAULT_RESPONSE_MESSAGE ? null : e.message;
        message = e.status === 0 ? NETWORK_ERROR_MESSAGE : changePasswordFailureMessage(e.status, serverMessage);
      } else {
        message = changePasswordFailureMessage(0, (e as Error)?.message || null);
      }
      setError(message);
      toast(message, 'error');
    } finally {
      setSubmitting(false);
    }
  };

  const strength = passwordStrength(values.newPassword);
  const requirements = passwordRequirements(values.newPassword, values.currentPassword, values.confirmPassword);

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 640 }}>
      <PageTitle title="Change Password" subtitle="Choose a new password for your account." />
      <Typography variant="body2" sx={{ mb: 2 }}>
        Add an authenticator app or a passkey on the{' '}
        <MuiLink component={Link} to="/security">
          Security
        </MuiLink>{' '}
        page.
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <PasswordField
            label="Current Password"
            name="currentPassword"
            toggleLabel="current password"
            autoComplete="current-password"
            value={values.currentPassword}
            onChange={set('currentPassword')}
            required
            fullWidth
          />
          <PasswordField
            label="New Password"
            name="newPassword"
            toggleLabel="new password"
            autoComplete="new-password"
            value={values.newPassword}
            onChange={set('newPassword')}
            required
            fullWidth
          />
          {values.newPassword ? (
            <Box data-testid="password-strength">
              <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
                <Typography variant="caption" color="text.secondary">
                  Password strength
                </Typography>
                <Typography variant="caption" sx={{ fontWeight: 600 }} color={`${STRENGTH_COLOURS[strength.label]}.main`}>
                  {strength.label}
                </Typography>
              </Box>
              <LinearProgress
                variant="determinate"
                value={strength.percent}
                color={STRENGTH_COLOURS[strength.label]}
                aria-label={`Password strength: ${strength.label}`}
                sx={{ height: 8, borderRadius: 4 }}
              />
            </Box>
          ) : null}
          <PasswordField
            label="Confirm New Password"
            name="confirmPassword"
            toggleLabel="confirm password"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            required
            fullWidth
          />
          <Box>
            <Typography variant="subtitle2" component="h2">
              Password requirements
            </Typography>
            <List dense disablePadding>
              {requirements.map((r) => (
                <ListItem key={r.key} disableGutters sx={{ py: 0 }}>
                  <ListItemIcon sx={{ minWidth: 30 }}>
                    {r.met ? <CheckCircleIcon fontSize="small" color="success" /> : <RadioButtonUncheckedIcon fontSize="small" color="disabled" />}
                  </ListItemIcon>
                  <ListItemText primary={r.label} slotProps={{ primary: { variant: 'body2', color: r.met ? 'text.primary' : 'text.secondary' } }} />
                </ListItem>
              ))}
            </List>
          </Box>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {success ? <Alert severity="success">{success}</Alert> : null}
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
            <Button onClick={goBack} disabled={submitting}>
              Cancel
            </Button>
            <Button type="submit" variant="contained" disabled={submitting}>
              {submitting ? 'Changing Password...' : 'Change Password'}
            </Button>
          </Box>
        </Box>
      </Paper>
    </Box>
  );
}
